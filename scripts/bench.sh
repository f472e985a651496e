#!/usr/bin/env bash
# Every benchmark in one command: the criterion benches (translation, front
# end, and the OpenCL workloads of compare/ on clvulkan alone), then, when
# arguments are given, clcompare with them (two platforms side by side), e.g.
#   bash scripts/bench.sh                                   # criterion only
#   bash scripts/bench.sh --a clvulkan --b Portable --quick # + PoCL
#   bash scripts/bench.sh --a clvulkan --b NVIDIA --markdown --fresh 5
# CRITERION_ARGS (e.g. "--measurement-time 2") go to every criterion bench.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p clvulkan-layer
# shellcheck disable=SC2086 # CRITERION_ARGS is a list of words.
cargo bench --bench translate --bench frontend --bench roundtrip \
    --bench api --bench memory --bench compute -- ${CRITERION_ARGS:-}
if [ $# -gt 0 ]; then
    bash scripts/compare.sh "$@"
fi
