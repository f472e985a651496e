#!/usr/bin/env bash
# Cross-checks the front-end corpus against clang (a reference only; the
# tests in translator/tests/frontend.rs do not need it):
#   valid/*.cl    must compile with no error,
#   invalid/*.cl  must give each '// expect: L:C: error: TEXT' as clang does.
# clang has no rule for a few cases (recursion, the endian attribute); those
# are listed as 'clang differs'. Usage: tests/frontend/check-with-clang.sh
# [clang binary, default clang-15 or clang].
set -u
cd "$(dirname "$0")"
CLANG=${1:-$(command -v clang-15 || command -v clang)}
# The device of DeviceCaps::full(): fp64 and int64, no fp16, no images, and
# for OpenCL C 3.0 of the optional features those two and the generic
# address space.
EXT12="-cl_khr_fp16"
EXT30="-all,+cl_khr_fp64,+__opencl_c_fp64,+__opencl_c_int64,+__opencl_c_generic_address_space,+cl_khr_byte_addressable_store,+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics"

run_clang() {
    local f=$1 opts ext std=-cl-std=CL1.2
    opts=$(sed -n '1s#^// options:##p' "$f")
    ext=$EXT12
    case "$opts" in *CL3.0* | *CLC++2021*) ext=$EXT30 ;; esac
    case "$opts" in *-cl-std=*) std= ;; esac
    # shellcheck disable=SC2086
    "$CLANG" -fsyntax-only -target spir64 -Xclang -finclude-default-header \
        $std -Xclang -cl-ext=$ext $opts -x cl "$f" 2>&1
}

bad=0
for f in valid/*.cl; do
    out=$(run_clang "$f")
    if grep -q 'error:' <<<"$out"; then
        echo "clang rejects $f:"
        grep 'error:' <<<"$out" | head -3
        bad=$((bad + 1))
    fi
done
for f in invalid/*.cl; do
    out=$(run_clang "$f")
    while IFS= read -r line; do
        rest=${line#// expect: }
        pos=${rest%%: error: *}
        text=${rest#*: error: }
        if ! grep -E "^$f:$pos: (fatal )?error: " <<<"$out" | grep -qF -- "$text"; then
            echo "clang differs on $f: expected $pos: $text"
            grep 'error:' <<<"$out" | head -2 | sed 's/^/    clang: /'
            bad=$((bad + 1))
        fi
    done < <(grep '^// expect: ' "$f")
done
echo "$bad disagreement(s) with $CLANG"
