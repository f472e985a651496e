#!/usr/bin/env bash
# The long third-party runs through clvulkan alone, with their counts:
# CLBlast's tests of xaxpy, xdot, xgemv and xgemm with -full_test, and
# piglit's `cl` profile. Not part of the test command (they take about
# 40 minutes on a 2-core machine); the README's "Third-party clients"
# section records their results.
#
#   scripts/clients/full.sh [clblast|piglit]...   (default: both)
#
# Uses target/release/libclvulkan.so (built if missing; CLVULKAN_LIBRARY
# names another) and, unless VK_DRIVER_FILES is set, lavapipe. Installs
# clblast-tests and piglit from Debian if missing. piglit's results go to
# PIGLIT_RESULTS (default target/piglit-cl); its failures are listed.
# CLIENTS_ICD=/etc/OpenCL/vendors/pocl.icd runs both on PoCL instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
parts=("$@")
((${#parts[@]})) || parts=(clblast piglit)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
need=()
[ -x /usr/bin/clblast_test_xaxpy ] || need+=(clblast-tests)
command -v piglit >/dev/null || need+=(piglit)
if ((${#need[@]})); then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
if [ -n "${CLIENTS_ICD:-}" ]; then
    icd=$CLIENTS_ICD
else
    icd=${CLVULKAN_LIBRARY:-$PWD/target/release/libclvulkan.so}
    [ -n "${CLVULKAN_LIBRARY:-}" ] || cargo build --release -q -p clvulkan-layer --lib
fi
if [ -z "${VK_DRIVER_FILES:-}" ]; then
    for f in /usr/share/vulkan/icd.d/lvp_icd*.json; do
        [ -e "$f" ] && export VK_DRIVER_FILES="$f" && break
    done
fi
status=0
for part in "${parts[@]}"; do
    case $part in
    clblast)
        CLVULKAN_LIBRARY=$icd scripts/clients/clblast.sh -full_test || status=1
        ;;
    piglit)
        results=${PIGLIT_RESULTS:-$PWD/target/piglit-cl}
        rm -rf "$results"
        OCL_ICD_VENDORS=$icd piglit run -j2 --timeout 300 cl "$results" >/dev/null
        piglit summary console -s "$results" | sed -n '/^ *name:/,$p'
        # The failures by name, from the results piglit wrote.
        python3 - "$results" <<'PY' || status=1
import bz2, json, pathlib, sys
path = pathlib.Path(sys.argv[1])
raw = path / "results.json.bz2"
tests = json.load(bz2.open(raw) if raw.exists() else open(path / "results.json"))["tests"]
bad = sorted((t["result"], n) for n, t in tests.items() if t["result"] in ("fail", "crash", "timeout"))
for result, name in bad:
    print(f"piglit: {result}: {name}")
print(f"piglit: {sum(t['result'] == 'pass' for t in tests.values())} of {len(tests)} tests passed, {len(bad)} failed")
PY
        ;;
    *)
        echo "unknown part '$part' (clblast or piglit)" >&2
        exit 2
        ;;
    esac
done
exit $status
