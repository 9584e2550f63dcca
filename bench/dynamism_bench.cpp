// symshape dynamism's parts: NDJSON examples -> ExampleSet, track_dynamism over them, and
// suggest_spec on corpus graphs (its spec checks and the verifying stream).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <filesystem>

#include "dynamism/dynamism.h"
#include "dynamism/example_json.h"
#include "dynamism/suggest_spec.h"
#include "graph/json_loader.h"
#include "prop/rules.h"

using namespace symshape;
using namespace symshape::dynamism;

namespace {

// n examples of behaviour 206's shape plus a 4-d image tensor: {a, b: [t, int], c: {d}, x}.
std::string nested_examples(int n) {
  std::string out;
  for (int k = 0; k < n; ++k)
    out += fmt::format(R"({{"a": [{0}, 2], "b": [{{"tensor": [{0}]}}, {1}], "c": {{"d": 42}}, "x": [{2}, 3, {3}, {3}]}})"
                       "\n",
                       k % 7 + 1, k + 2, k % 4 + 1, 32 + k % 5);
  return out;
}

void BM_ReadExamples(benchmark::State& state) {
  const std::string text = nested_examples(int(state.range(0)));
  for (auto _ : state) {
    ExampleSet set;
    Diagnostics problems;
    read_examples_ndjson(text, "bench", set, problems);
    benchmark::DoNotOptimize(set.nodes.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.SetBytesProcessed(int64_t(state.iterations() * text.size()));
}
BENCHMARK(BM_ReadExamples)->Arg(10000);

void BM_TrackDynamism(benchmark::State& state) {
  ExampleSet set;
  Diagnostics problems;
  read_examples_ndjson(nested_examples(int(state.range(0))), "bench", set, problems);
  for (auto _ : state) {
    DynamismTable t = track_dynamism(set);
    benchmark::DoNotOptimize(t.pos_varies.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_TrackDynamism)->Arg(10000);

void BM_SuggestSpec(benchmark::State& state, const char* graph) {
  const std::string file = std::string(SYMSHAPE_SHARED_DIR) + "/corpus/visible/" + graph + ".graph.json";
  if (!std::filesystem::exists(file)) {
    state.SkipWithError("no corpus");
    return;
  }
  OpTable ops;
  Graph g(ops);
  Diagnostics diags;
  JsonGraphLoader loader;
  if (!loader.load_file(file, ops, g, diags)) {
    state.SkipWithError("graph does not load");
    return;
  }
  RuleTable rules;
  rules.resolve(ops);
  std::vector<uint64_t> ids;
  const ExampleColumns ok = ok_examples(g, ids);
  for (auto _ : state) {
    SpecSuggestion s = suggest_spec(g, rules, ok, ids);
    benchmark::DoNotOptimize(s.verified);
  }
}
BENCHMARK_CAPTURE(BM_SuggestSpec, gpt2_small, "gpt2_small")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_SuggestSpec, vgg11_bn, "vgg11_bn")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_SuggestSpec, resnet18, "resnet18")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_SuggestSpec, googlenet, "googlenet")->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
