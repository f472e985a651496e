#!/usr/bin/env bash
# The whole test suite: set up, then formatting, lints and every test
# (translator unit tests, SPIR-V validation of the kernel corpus, and the
# end-to-end tests through the OpenCL loader on lavapipe with the Vulkan
# validation layers on and fatal).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# With no GPU, the Vulkan loader picks lavapipe; keep CI on it even where
# other drivers are installed.
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -z "${CLVULKAN_ANY_DRIVER:-}" ]; then
    for icd in /usr/share/vulkan/icd.d/lvp_icd*.json; do
        [ -e "$icd" ] && export VK_DRIVER_FILES="$icd" && break
    done
fi
# Debian 12's lavapipe 22.3, which cuts long loops short, unpacked under
# target/ (not installed) for tests/loop_cap.rs; empty where it cannot be
# had, and the test then says it skipped.
if [ -z "${CLVULKAN_CAPPED_LAVAPIPE:-}" ]; then
    capped=$(bash scripts/capped-lavapipe.sh)
    if [ -n "$capped" ]; then export CLVULKAN_CAPPED_LAVAPIPE="$capped"; fi
fi
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -q -- -D warnings
cargo build --workspace -q
log=$(mktemp)
il_log=$(mktemp)
fuzz=$(mktemp -d)
trap 'rm -rf "$log" "$il_log" "$fuzz"' EXIT
CLVULKAN_VALIDATION=fatal cargo test --workspace 2>&1 | tee "$log"
# One closing line for the whole run (cargo's last block is the doc tests,
# which are empty).
awk '/^test result:/ { passed += $4; failed += $6 }
     END { printf "summary: %d passed, %d failed\n", passed, failed }' "$log"
# The same kernels again through SPIR-V: with CLVULKAN_TEST_IL=1,
# tests/common/launch.rs compiles each OpenCL C kernel file with clang-15
# and llvm-spirv-15 and builds it with clCreateProgramWithIL (C++ for
# OpenCL files stay source), and so does common::launch::build_source for
# the kernels the tests write inline. Every test binary runs
# (--no-fail-fast) and the count, on a line of its own, is printed before a
# failure stops the script. The tests left out need what clang does not
# take (clvulkan's extensions to the language), check what only a source
# build reports (kernel argument info, feature macros, the refusal of a
# non-uniform range in OpenCL C 1.2), or hit the limits the README's
# "SPIR-V programs" lists.
il_status=0
CLVULKAN_TEST_IL=1 CLVULKAN_VALIDATION=fatal cargo test --no-fail-fast \
    --test pointers --test pointer_spaces \
    --test pointer_members --test narrow_stores --test opencl3_vecadd \
    --test generic_address_space --test atomic_fences --test client_constructs \
    --test sub_groups --test goto --test switch64 --test integer_division \
    --test float_conversions --test float_division --test subnormal_bits \
    --test shuffles --test work_group_collectives --test geometric \
    --test integer_builtins64 --test program_globals --test wide_pointer_builtins \
    --test aliased_args --test records --test records_packed_half \
    2>&1 | tee "$il_log" || il_status=$?
awk '/^test result:/ { passed += $4; failed += $6 }
     END { printf "summary (SPIR-V): %d passed, %d failed\n", passed, failed }' "$il_log"
[ "$il_status" -eq 0 ]
# The whole-build fuzz target from a fixed seed on the stable replay driver
# (fuzz/README.md): every .cl file of the repository, behind a space so that
# its first byte picks no build options, then 50,000 mutations of them (the
# same on every machine; well under a minute), at most two minutes. A
# panic, a hang past 10 s or an internal compiler error fails.
mkdir "$fuzz/corpus"
git ls-files '*.cl' | while read -r f; do
    { printf ' '; cat "$f"; } > "$fuzz/corpus/$(echo "$f" | tr / _)"
done
(cd fuzz && cargo run --release --no-default-features -q --bin replay -- \
    --target whole_build --time-limit 10 --mutate 120 --runs 50000 --seed 1 \
    --artifacts "$fuzz/artifacts" "$fuzz/corpus")

# --- Third-party clients (issue 20) ---------------------------------------
# CLBlast's own tests of xaxpy, xdot, xgemv and xgemm (Debian
# clblast-tests, installed if missing) through the release ICD; any failed
# test fails the run. CLVULKAN_CLBLAST_ROUTINES picks others (empty: none).
# The long runs (-full_test, piglit) are scripts/clients/full.sh.
# shellcheck disable=SC2086
[ -z "${CLVULKAN_CLBLAST_ROUTINES-x}" ] ||
    scripts/clients/clblast.sh ${CLVULKAN_CLBLAST_ROUTINES:-xaxpy xdot xgemv xgemm}

# --- Real clients as gates (issue 20): pyopencl ---
# pyopencl's own test suite, from its pinned sdist, through the loader and
# the debug ICD built above, on the Vulkan driver chosen at the top, with the
# validation layers fatal as for our own tests. Any failure fails the run,
# but for the one test that fails on every ICD (scripts/clients/pyopencl.sh).
# About 6 minutes on the 2-core machine.
CLVULKAN_VALIDATION=fatal bash scripts/clients/pyopencl.sh target/debug/libclvulkan.so
