#!/usr/bin/env bash
# The parts of CI beyond the README's test command: the test suite under ASan+UBSan, a
# smoke run of every benchmark, install + a downstream consumer build, and short fuzz runs.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${SYMSHAPE_JOBS:-2}

echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer"
# -O1 -g1: about 60% of the compile time of RelWithDebInfo's -O2 -g (44 s against 73 s for
# engine/cli/cmd_eval.cpp under ASan+UBSan), and still line numbers in the sanitizers' reports.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DSYMSHAPE_SANITIZE=ON -DSYMSHAPE_WERROR=ON -DSYMSHAPE_BENCH=OFF
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -j 2

echo "== benchmark smoke runs"
for b in build/bench/*; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  echo "-- $b"
  "$b" --benchmark_min_time=0.01 >/dev/null
done
./build/engine/cli/symshape bench-prop --min-seconds 0.05 data/samples

echo "== install and consumer build"
rm -rf build-install install-root build-consumer
cmake --install build --prefix "$PWD/install-root"
cmake -S tests/install_consumer -B build-consumer -G Ninja -DCMAKE_PREFIX_PATH="$PWD/install-root"
cmake --build build-consumer
./build-consumer/consumer
./build-consumer/consumer data/samples/resnet18.graph.json
./install-root/bin/symshape conform data/samples >/dev/null

if [ -f scripts/fuzz.sh ]; then
  echo "== fuzzing"
  bash scripts/fuzz.sh "${SYMSHAPE_FUZZ_SECONDS:-60}"
fi
echo "ci: all green"
