#!/usr/bin/env bash
# Builds clvulkan and clcompare in release mode, then runs clcompare with
# the OpenCL loader (ocl-icd) seeing this checkout's libclvulkan.so plus
# every ICD registered on the system, e.g.
#   bash scripts/compare.sh --a clvulkan --b Portable --quick   # PoCL
#   bash scripts/compare.sh --a clvulkan --b NVIDIA --markdown
# All arguments go to clcompare (see `--help`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p clvulkan-layer -p clvulkan-compare
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
# An installed clvulkan.icd would show the platform twice (or an old build).
for icd in /etc/OpenCL/vendors/*.icd; do
    [ -e "$icd" ] || continue
    case "$(basename "$icd")" in
        clvulkan*.icd) ;;
        *) cp "$icd" "$vendors/" ;;
    esac
done
echo "$PWD/target/release/libclvulkan.so" >"$vendors/clvulkan.icd"
export OCL_ICD_VENDORS="$vendors"
# The Khronos loader reads this one; ocl-icd ignores it when VENDORS is set.
unset OCL_ICD_FILENAMES
exec_status=0
target/release/clcompare "$@" || exec_status=$?
exit "$exec_status"
