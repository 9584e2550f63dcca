#!/usr/bin/env bash
# Installs the Debian packages symshape builds with. Idempotent: a no-op when all are present.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
packages=(
  build-essential cmake ninja-build lld clang-14 libclang-rt-14-dev
  libtbb-dev libxsimd-dev xtl-dev libflatbuffers-dev flatbuffers-compiler
  libgtest-dev libgmock-dev libbenchmark-dev libsimdjson-dev libcli11-dev libfmt-dev
  nlohmann-json3-dev libdivide-dev libssl-dev
  python3-dev pybind11-dev python3-numpy python3-pytest python3-torch python3-torchvision
  python3-dask python3-distributed python3-cryptography
  chromium
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
