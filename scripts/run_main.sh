#!/usr/bin/env bash
# The main job: set up, build (Release) and check propagation against the golden
# examples of the sample graphs shipped in data/samples.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh -DSYMSHAPE_TESTS=OFF -DSYMSHAPE_BENCH=OFF
bash scripts/install_python.sh
./build/engine/cli/symshape conform data/samples
