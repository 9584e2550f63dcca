// `symshape infer` after loading: E.4's worked example (8 unknowns, 11 constraints, 2 traces)
// and vgg11_bn from too-small sizes (2 traces), without and with deriving the spec.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "graph/json_loader.h"
#include "infer/infer.h"
#include "prop/rules.h"

namespace {

using namespace symshape;

void BM_Infer(benchmark::State& state, std::string file, std::vector<std::vector<int64_t>> sizes, bool shared, bool spec) {
  OpTable ops;
  Graph g;
  Diagnostics diags;
  JsonGraphLoader loader;
  if (!loader.load_file(file, ops, g, diags)) {
    state.SkipWithError("graph missing");
    return;
  }
  RuleTable rules;
  rules.resolve(ops);
  std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
  infer::InferOptions o;
  o.shared_batch = shared;
  o.derive_spec = spec;
  for (auto _ : state) {
    const infer::InferResult r = infer::infer_shapes(g, rules, spans, o);
    if (r.status != infer::InferStatus::Valid) state.SkipWithError("not valid");
    benchmark::DoNotOptimize(r.sizes.data());
  }
}

const std::string kE4 = std::string(SYMSHAPE_SOURCE_DIR) + "/tests/infer/data/e4_worked_example.graph.json";
const std::string kVgg =
    (std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible" / "vgg11_bn.graph.json").string();
const std::vector<std::vector<int64_t>> kTwos(7, std::vector<int64_t>{2, 2});
const std::vector<std::vector<int64_t>> kSmall = {{1, 3, 16, 20}};

BENCHMARK_CAPTURE(BM_Infer, e4_solve, kE4, kTwos, true, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Infer, e4_with_spec, kE4, kTwos, true, true)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Infer, vgg11_bn_solve, kVgg, kSmall, false, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Infer, vgg11_bn_with_spec, kVgg, kSmall, false, true)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
