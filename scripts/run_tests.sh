#!/usr/bin/env bash
# Set up, build (Release, warnings as errors) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh -DSYMSHAPE_WERROR=ON
bash scripts/install_python.sh
ctest --test-dir build --output-on-failure -j 2
