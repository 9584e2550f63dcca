#!/usr/bin/env bash
# The parts of CI beyond the README's test command: the test suite under ASan+UBSan, a
# smoke run of every benchmark, install + a downstream consumer build, and short fuzz runs.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
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
# The install prefix and the consumer's build are ignored build*/ directories: no step
# writes into the source tree (checked at the end).
rm -rf build-install build-consumer
cmake --install build --prefix "$PWD/build-install"
cmake -S tests/install_consumer -B build-consumer -G Ninja -DCMAKE_PREFIX_PATH="$PWD/build-install"
cmake --build build-consumer
./build-consumer/consumer
./build-consumer/consumer data/samples/resnet18.graph.json
./build-install/bin/symshape conform data/samples >/dev/null

if [ -f scripts/fuzz.sh ]; then
  echo "== fuzzing"
  bash scripts/fuzz.sh "${SYMSHAPE_FUZZ_SECONDS:-40}"
fi
echo "== the source tree holds only source"
# Everything CI built, installed or wrote (this script, and run_main.sh / run_tests.sh
# before it on the same clone) is in an ignored build*/ directory or a temporary one:
# nothing untracked or modified, and nothing ignored outside build*/.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  left=$( (git status --porcelain --untracked-files=all; git status --porcelain --ignored | grep '^!!') |
          grep -Ev '^!! build[^/]*/$' || true)
  if [ -n "$left" ]; then
    echo "ci: the run left files in the source tree (outputs belong in build*/ or a temporary directory):" >&2
    echo "$left" >&2
    exit 1
  fi
else
  echo "(not a git work tree: not checked)"
fi
echo "ci: all green"
