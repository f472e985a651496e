#!/usr/bin/env bash
# Installs what clvulkan's main job and tests need on a fresh Debian/Ubuntu
# machine: the Vulkan loader, Mesa's lavapipe (the CPU Vulkan driver used when
# there is no GPU), the validation layers, the ocl-icd OpenCL loader with the
# Khronos headers, clinfo, spirv-tools, PoCL (the differential reference), a
# C compiler, dpkg-dev and cargo-deb (which build and check the Debian
# package). Only installs what is missing; needs root or sudo.
set -euo pipefail

# Some containers have /dev/null as a regular file. What is sent there piles
# up, and cargo runs rustc with standard input from /dev/null, so rustc then
# reads it as source and the build fails. Make it the device again.
if [ ! -c /dev/null ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo rm -f /dev/null && $sudo mknod -m 666 /dev/null c 1 3 || {
        echo "/dev/null is not a character device and could not be remade" >&2
        exit 1
    }
fi

packages=(
    libvulkan1 mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
    ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers clinfo
    spirv-tools pocl-opencl-icd gcc libc6-dev pkg-config dpkg-dev
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install Rust (https://rustup.rs) first" >&2
    exit 1
fi
# The Debian package's tool (tests/debian_package.rs): about 1.5 minutes of
# CPU to build, once per machine; pinned so that its output stays the one
# the test checks.
cargo_deb_version=3.8.0
if ! cargo deb --version 2>/dev/null | grep -qx "cargo-deb $cargo_deb_version"; then
    cargo install --locked --quiet cargo-deb --version "$cargo_deb_version" </dev/null
fi
