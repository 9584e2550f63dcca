#!/usr/bin/env bash
# The main job: set up, build (Release) and check propagation against the golden
# examples of the sample graphs shipped in data/samples.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/setup_venv.sh
# Warnings as errors, as in the test command: the same compile flags let the test command
# reuse every object built here (a flag change would rebuild all of them, ~8 min on 2 cores).
bash scripts/build.sh -DSYMSHAPE_WERROR=ON -DSYMSHAPE_TESTS=OFF -DSYMSHAPE_BENCH=OFF
bash scripts/install_python.sh
./build/engine/cli/symshape conform data/samples
