#!/usr/bin/env bash
# CLBlast's own tests (Debian `clblast-tests`) through clvulkan alone.
#
#   scripts/clients/clblast.sh [-full_test] [ROUTINE...]
#
# Runs /usr/bin/clblast_test_<ROUTINE> for each routine (default: xaxpy,
# xdot, xgemv, xgemm, every precision each, checked against the reference
# BLAS), prints the passed/skipped/failed counts per binary and in all, and
# fails if any test failed or a binary did not finish. `-full_test` is
# CLBlast's long version. The ICD is target/release/libclvulkan.so, built
# if missing (CLVULKAN_LIBRARY names another); installs clblast-tests if
# it is missing. Skipped tests are those CLBlast skips on every device
# (the reference BLAS gives no error codes to compare).
set -euo pipefail
cd "$(dirname "$0")/../.."
full=()
if [ "${1:-}" = "-full_test" ]; then
    full=(-full_test)
    shift
fi
routines=("$@")
((${#routines[@]})) || routines=(xaxpy xdot xgemv xgemm)

if [ ! -x /usr/bin/clblast_test_xaxpy ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clblast-tests
fi
lib=${CLVULKAN_LIBRARY:-$PWD/target/release/libclvulkan.so}
if [ -z "${CLVULKAN_LIBRARY:-}" ]; then
    cargo build --release -q -p clvulkan-layer --lib
fi
export OCL_ICD_VENDORS=$lib
if [ -z "${VK_DRIVER_FILES:-}" ]; then
    for icd in /usr/share/vulkan/icd.d/lvp_icd*.json; do
        [ -e "$icd" ] && export VK_DRIVER_FILES="$icd" && break
    done
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
total_passed=0 total_skipped=0 total_failed=0 broken=()
for r in "${routines[@]}"; do
    start=$SECONDS
    status=0
    "/usr/bin/clblast_test_$r" -platform 0 -device 0 "${full[@]}" >"$log" 2>&1 || status=$?
    # Each precision ends with "N test(s) passed/skipped/failed".
    read -r passed skipped failed < <(sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '
        /test\(s\) passed/ { p += $1 } /test\(s\) skipped/ { s += $1 }
        /test\(s\) failed/ { f += $1 } END { print p + 0, s + 0, f + 0 }')
    echo "clblast_test_$r: $passed passed, $skipped skipped, $failed failed ($((SECONDS - start)) s)"
    total_passed=$((total_passed + passed))
    total_skipped=$((total_skipped + skipped))
    total_failed=$((total_failed + failed))
    if [ "$status" -ne 0 ] || [ "$passed" -eq 0 ]; then
        broken+=("$r (exit status $status)")
        tail -20 "$log"
    elif [ "$failed" -ne 0 ]; then
        sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -B2 -E "[1-9][0-9]* failed$" | head -40
    fi
done
echo "clblast: $total_passed passed, $total_skipped skipped, $total_failed failed"
if ((${#broken[@]})); then
    echo "clblast: did not finish: ${broken[*]}" >&2
    exit 1
fi
[ "$total_failed" -eq 0 ]
