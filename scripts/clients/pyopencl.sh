#!/usr/bin/env bash
# pyopencl's own test suite through clvulkan, as a gate: installs pyopencl
# and what its tests need from PyPI, fetches the pinned sdist (whose test/
# folder is what runs; it is never committed) and runs the suite through the
# ocl-icd loader pointed at the ICD given as the first argument. Any failure
# fails the script, but for the one ICD-independent test deselected below.
#
#   scripts/clients/pyopencl.sh path/to/libclvulkan.so
#
# The Vulkan driver is whatever VK_DRIVER_FILES (and LD_LIBRARY_PATH) name.
set -euo pipefail
cd "$(dirname "$0")/../.."

icd=$(realpath "${1:?usage: $0 path/to/libclvulkan.so}")
version=2026.1.4
sha256=6cb9544a004609061e86873fe36500da6c2101042e9c7b9c3b804a29a12b98bf
# `pip download --no-binary :all:` fails to build the sdist's metadata, so
# the archive comes straight from PyPI's files (the URL of
# https://pypi.org/simple/pyopencl/), checked against its published digest.
url=https://files.pythonhosted.org/packages/0a/a9/b6133777fc20be05faa88c4dbae9cc0d26d6dc1395c45770ec49b56edc4b/pyopencl-$version.tar.gz

# Its own virtual environment, kept between runs, with pinned versions.
# Without mako, test_algorithm.py fails to import and its tests vanish.
venv=target/clients/pyopencl-venv
[ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "pyopencl==$version" numpy==2.4.6 pytest==9.2.0 pytest-xdist==3.8.0 \
    pytest-timeout==2.4.0 mako==1.4.3
python=$PWD/$venv/bin/python

dir=target/clients/pyopencl-$version
if [ ! -d "$dir/test" ]; then
    mkdir -p target/clients
    archive=target/clients/pyopencl-$version.tar.gz
    curl -fsSL --retry 3 -o "$archive" "$url"
    echo "$sha256  $archive" | sha256sum -c --quiet
    tar -xzf "$archive" -C target/clients "pyopencl-$version/test"
fi

cd "$dir/test"
# pyopencl keeps built binaries in its cache under XDG_CACHE_HOME, keyed by
# the source and the device's name and versions, which stay the same from one
# clvulkan commit to the next: a fresh cache makes every kernel build here.
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
# test_xdg_cache_home checks where pyopencl keeps its own kernel cache and
# fails on every ICD (PoCL too): it tests pyopencl, not the device.
# test_get_info, on a device with images whose vendor is neither Intel nor
# PoCL, reads `img.image.depth`, an attribute pyopencl 2026.1.4 no longer
# defines (AttributeError on every such ICD); without that line it passes.
# It is parametrized by device, so -k rather than --deselect names it.
# --forked is not used: forking after OpenCL has started hangs.
XDG_CACHE_HOME="$cache" OCL_ICD_VENDORS="$icd" "$python" -m pytest -q -n 2 --timeout 600 \
    -p no:cacheprovider -rfE \
    --deselect test_array.py::test_xdg_cache_home \
    -k 'not test_get_info'
