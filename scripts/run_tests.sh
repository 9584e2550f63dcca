#!/usr/bin/env bash
# Set up, build (Release, warnings as errors) and run the whole test suite.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/setup_venv.sh
# Tests and benchmarks on explicitly: the main job may have configured build/ without them.
bash scripts/build.sh -DSYMSHAPE_WERROR=ON -DSYMSHAPE_TESTS=ON -DSYMSHAPE_BENCH=ON
bash scripts/install_python.sh
ctest --test-dir build --output-on-failure --no-tests=error -j 2
