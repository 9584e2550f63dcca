#!/usr/bin/env bash
# Configures and builds symshape (Release) in build/ with Ninja; extra args go to cmake.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
cd "$(dirname "$0")/.."
jobs=${SYMSHAPE_JOBS:-2}
cmake -S . -B "${SYMSHAPE_BUILD_DIR:-build}" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "${SYMSHAPE_BUILD_DIR:-build}" -j "$jobs"
