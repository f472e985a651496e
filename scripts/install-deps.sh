#!/usr/bin/env bash
# Installs what clvulkan's main job and tests need on a fresh Debian/Ubuntu
# machine: the Vulkan loader, Mesa's lavapipe (the CPU Vulkan driver used when
# there is no GPU), the validation layers, the ocl-icd OpenCL loader with the
# Khronos headers, clinfo, spirv-tools, PoCL (the differential reference), a
# C compiler, dpkg-dev and cargo-deb (which build and check the Debian
# package), clang-15 and llvm-spirv-15 (which make the SPIR-V of the IL
# tests). Only installs what is missing; needs root or sudo.
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
    clang-15 llvm-spirv-15
)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# Lavapipe. Debian 12's own Mesa 22.3 stops an invocation's loops after
# 65,535 iterations in all and carries on with wrong data (clvulkan then
# fails such launches, see README "Lavapipe's loop cap"); bookworm-backports'
# Mesa 25.0 runs them to the end. On Debian 12, lavapipe comes from there,
# the backports source added if missing, also replacing an installed 22.3;
# CLVULKAN_KEEP_MESA=1 keeps what is installed. Elsewhere (Ubuntu, later
# Debian) the distribution's own mesa-vulkan-drivers is installed as is:
# Debian 13 ships Mesa 25.0, Ubuntu's releases their own versions, and
# clvulkan probes each lavapipe for the cap when it opens it.
backports=()
codename=$(. /etc/os-release 2>/dev/null && [ "${ID:-}" = debian ] && echo "${VERSION_CODENAME:-}" || true)
if [ "$codename" = bookworm ] && [ "${CLVULKAN_KEEP_MESA:-0}" != 1 ]; then
    mesa=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
    if [ -z "$mesa" ] || dpkg --compare-versions "$mesa" lt 25; then
        backports=(mesa-vulkan-drivers)
        rest=()
        for p in "${missing[@]}"; do
            [ "$p" = mesa-vulkan-drivers ] || rest+=("$p")
        done
        missing=(${rest[@]+"${rest[@]}"})
    fi
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if ((${#missing[@]} + ${#backports[@]})); then
    if ((${#backports[@]})) &&
        ! grep -rqs --include='*.list' --include='*.sources' bookworm-backports \
            /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "adding the bookworm-backports apt source"
        echo "deb http://deb.debian.org/debian bookworm-backports main" |
            $sudo tee /etc/apt/sources.list.d/bookworm-backports.list >/dev/null
    fi
    $sudo apt-get update -qq
fi
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ((${#backports[@]})); then
    echo "installing from bookworm-backports: ${backports[*]}"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        -t bookworm-backports "${backports[@]}"
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
