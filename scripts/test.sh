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
    for icd in /usr/share/vulkan/icd.d/lvp_icd.*.json; do
        [ -e "$icd" ] && export VK_DRIVER_FILES="$icd" && break
    done
fi
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -q -- -D warnings
cargo build --workspace -q
log=$(mktemp)
trap 'rm -f "$log"' EXIT
CLVULKAN_VALIDATION=fatal cargo test --workspace 2>&1 | tee "$log"
# One closing line for the whole run (cargo's last block is the doc tests,
# which are empty).
awk '/^test result:/ { passed += $4; failed += $6 }
     END { printf "summary: %d passed, %d failed\n", passed, failed }' "$log"
