#!/usr/bin/env bash
# The main job: set up, build clvulkan, then run a real OpenCL host program
# (examples/vecadd_saxpy.c, plain C linked to the system OpenCL loader) on the
# default Vulkan device through the ICD, and print its results.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cargo build --release -q -p clvulkan -p clvulkan-layer
cc -O2 -Wall examples/vecadd_saxpy.c -o target/release/vecadd_saxpy -lOpenCL -lm
target/release/clvulkan info
target/release/clvulkan run -- target/release/vecadd_saxpy "$@"
