#!/usr/bin/env bash
# Fetches Debian 12's lavapipe, Mesa 22.3.6, which stops an invocation's
# loops after 65,535 iterations in all, and unpacks it beside the build
# (not installed) for tests/loop_cap.rs, which checks that clvulkan fails
# such launches loudly there. Prints the path of the ICD file to point
# VK_DRIVER_FILES at (the test reads it from CLVULKAN_CAPPED_LAVAPIPE), or
# nothing, with the reason on stderr, where the package cannot be had
# (not Debian 12, no network). Its library needs libLLVM-15, which Debian
# 12's Mesa 25 from bookworm-backports also uses, so it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$PWD/target/capped-lavapipe"
icd="$dir/lvp_icd.json"
if [ -e "$icd" ]; then
    echo "$icd"
    exit 0
fi
# Debian 12's own 22.3 build (bookworm main; the installed one may be
# the backports' 25.0).
version=$(apt-cache madison mesa-vulkan-drivers 2>/dev/null |
    awk -F' *\\| *' '$2 ~ /^22\.3\./ { print $2; exit }')
if [ -z "$version" ]; then
    echo "capped-lavapipe: no mesa-vulkan-drivers 22.3 in the apt sources (Debian 12's)" >&2
    exit 0
fi
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/deb"
if ! (cd "$dir.tmp/deb" && apt-get download -qq "mesa-vulkan-drivers=$version" >&2); then
    echo "capped-lavapipe: apt-get download mesa-vulkan-drivers=$version failed" >&2
    rm -rf "$dir.tmp"
    exit 0
fi
dpkg -x "$dir.tmp"/deb/mesa-vulkan-drivers_*.deb "$dir.tmp/root"
lib="$dir/root/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)/libvulkan_lvp.so"
cat > "$dir.tmp/lvp_icd.json" <<JSON
{
    "ICD": {
        "api_version": "1.1.230",
        "library_path": "$lib"
    },
    "file_format_version": "1.0.0"
}
JSON
rm -rf "$dir.tmp/deb" "$dir"
mv "$dir.tmp" "$dir"
[ -e "$lib" ] || { echo "capped-lavapipe: $lib missing from the package" >&2; exit 0; }
echo "$icd"
