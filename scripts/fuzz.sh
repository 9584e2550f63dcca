#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (+ASan+UBSan) in build-fuzz/ and runs each
# for SECONDS (default 60): fuzz_json_loader (fx-graph-json), fuzz_fb_loader (graph,
# corpus, example-set and results FlatBuffers) and fuzz_spec_loader (spec JSON, spec.fb,
# dynamism NDJSON examples). Seeds: the visible graphs, the tests'
# graphs and the malformed catalog; FlatBuffers seeds are generated from them.
# Exit status is non-zero if a build fails or a fuzzer finds a crash (the reproducer is
# left in build-fuzz/artifacts/). Longer runs: docs/formats.md.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
SECONDS_PER_TARGET="${1:-60}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ROOT}/build-fuzz"
SHARED="${SYMSHAPE_SHARED_DIR:-${ROOT}/../shared}"
JOBS="${FUZZ_JOBS:-2}"

# -O1 -gline-tables-only: the instrumented build is most of this script's time, and these
# flags compile much faster than RelWithDebInfo's -O2 -g while keeping line numbers.
cmake -S "${ROOT}" -B "${BUILD}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_CXX_COMPILER=clang++-14 -DSYMSHAPE_FUZZ=ON -DSYMSHAPE_TESTS=OFF -DSYMSHAPE_BENCH=OFF >/dev/null
cmake --build "${BUILD}" -j"${JOBS}" --target fuzz_json_loader fuzz_fb_loader fuzz_spec_loader fuzz_make_seeds

SEEDS="${BUILD}/seeds"
rm -rf "${SEEDS}"
mkdir -p "${SEEDS}/json" "${SEEDS}/fb" "${BUILD}/corpus/json" "${BUILD}/corpus/fb" "${BUILD}/artifacts"
# Visible graphs up to 128 KB: the large ones add no new constructs, only make every
# execution (parse + two round trips) slower.
mapfile -t visible < <(find "${SHARED}/corpus/visible" -name '*.graph.json' -size -128k | sort)
# the derived-dims graphs: non-empty `derived` lists, and version-2 graph.fb / corpus.fb seeds
json_seeds=("${visible[@]}" "${ROOT}"/tests/graph/data/*.graph.json "${ROOT}"/data/differential/derived_dims/*.graph.json)
cp "${json_seeds[@]}" "${ROOT}"/tests/graph/malformed/*.graph.json "${SEEDS}/json/"
# ASan's leak check is off for the seed tool only: it is not what is being tested.
ASAN_OPTIONS=detect_leaks=0 "${BUILD}/fuzz/fuzz_make_seeds" "${SEEDS}/fb" "${json_seeds[@]}"

# -rss_limit_mb guards against a regression in the size limits; -timeout flags hangs.
COMMON=(-max_total_time="${SECONDS_PER_TARGET}" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
        -artifact_prefix="${BUILD}/artifacts/")
status=0
echo "== fuzz_json_loader for ${SECONDS_PER_TARGET}s"
"${BUILD}/fuzz/fuzz_json_loader" "${COMMON[@]}" -dict="${ROOT}/fuzz/fx_graph_json.dict" \
  "${BUILD}/corpus/json" "${SEEDS}/json" 2>&1 | tail -n 25 || status=1
echo "== fuzz_fb_loader for ${SECONDS_PER_TARGET}s"
"${BUILD}/fuzz/fuzz_fb_loader" "${COMMON[@]}" "${BUILD}/corpus/fb" "${SEEDS}/fb" 2>&1 | tail -n 25 || status=1
# Spec seeds: mode byte 0 (JSON) + every visible graph's dynamic_shapes; mode 2 (NDJSON) +
# the tests' example files. spec.fb inputs (mode 1) come from mutations of the JSON ones.
mkdir -p "${SEEDS}/spec" "${BUILD}/corpus/spec"
i=0
for f in "${visible[@]}"; do
  { printf '\x00'; python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["dynamic_shapes"]))' "$f"; } \
    >"${SEEDS}/spec/spec_$((i++)).bin" 2>/dev/null || true
done
for f in "${ROOT}"/tests/dynamism/data/*.ndjson "${ROOT}"/tests/spec/data/*.ndjson; do
  if [ -f "$f" ]; then { printf '\x02'; cat "$f"; } >"${SEEDS}/spec/ex_$((i++)).bin"; fi
done
echo "== fuzz_spec_loader for ${SECONDS_PER_TARGET}s"
"${BUILD}/fuzz/fuzz_spec_loader" "${COMMON[@]}" "${BUILD}/corpus/spec" "${SEEDS}/spec" 2>&1 | tail -n 25 || status=1
if compgen -G "${BUILD}/artifacts/*" >/dev/null; then
  echo "fuzz: crash reproducers in ${BUILD}/artifacts/" >&2
  status=1
fi
exit "${status}"
