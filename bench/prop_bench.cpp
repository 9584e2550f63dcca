// Full symbolic propagation per graph of the visible corpus (loading excluded), with
// the sizes of each graph's first OK example as hints: the figure `symshape bench-prop`
// prints, as a Google Benchmark. Counter ns_per_node = time per run / nodes.
// BM_PropagateCorpusStatic: the same graphs at the same sizes with every size a constant
// (InputPolicy::Static, `bench-prop --inputs static`): what PyTorch's meta-tensor execution
// computes, exact against every golden (`conform --inputs static`).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "graph/json_loader.h"
#include "prop/propagate.h"

namespace {

using namespace symshape;

struct LoadedGraph {
  std::string name;
  Graph graph;
  std::vector<std::vector<int64_t>> sizes;
};

struct Corpus {
  OpTable ops;
  RuleTable rules;
  std::vector<std::unique_ptr<LoadedGraph>> graphs;
};

Corpus& corpus() {
  static std::unique_ptr<Corpus> c = [] {
    auto owned = std::make_unique<Corpus>();  // graphs point at its OpTable: never moved
    Corpus& out = *owned;
    const std::string dir = std::string(SYMSHAPE_SHARED_DIR) + "/corpus/visible";
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.path().string().ends_with(".graph.json")) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    JsonGraphLoader loader;
    for (const std::string& f : files) {
      auto g = std::make_unique<LoadedGraph>();
      g->graph = Graph(out.ops);
      Diagnostics diags;
      if (!loader.load_file(f, out.ops, g->graph, diags)) continue;
      g->name = std::string(g->graph.name());
      for (uint32_t e = 0; e < g->graph.num_examples(); ++e) {
        ExampleView ex = g->graph.example(ExampleId(e));
        if (!ex.ok()) continue;
        for (uint32_t p = 0; p < g->graph.num_placeholders(); ++p) {
          auto s = ex.input_sizes(PlaceholderId(p));
          g->sizes.emplace_back(s.begin(), s.end());
        }
        break;
      }
      out.graphs.push_back(std::move(g));
    }
    out.rules.resolve(out.ops);
    return owned;
  }();
  return *c;
}

void BM_Propagate(benchmark::State& state, size_t index) {
  Corpus& c = corpus();
  LoadedGraph& g = *c.graphs[index];
  std::vector<std::span<const int64_t>> spans(g.sizes.begin(), g.sizes.end());
  ShapeEnv env;
  Propagator prop(g.graph, c.rules);
  for (auto _ : state) {
    env.reset();
    PropStatus st = prop.run(env, spans);
    if (!st.ok) {
      state.SkipWithError(st.message.c_str());
      break;
    }
    benchmark::DoNotOptimize(prop.node_values().data());
  }
  state.counters["nodes"] = g.graph.num_nodes();
  // rate of (nodes * 1e-9) per second, inverted: nanoseconds per node
  state.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(g.graph.num_nodes()) * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The whole corpus per iteration: the single figure over all graphs.
void BM_PropagateCorpus(benchmark::State& state, InputPolicy policy) {
  Corpus& c = corpus();
  std::vector<std::unique_ptr<Propagator>> props;
  std::vector<std::vector<std::span<const int64_t>>> spans;
  uint64_t nodes = 0;
  for (auto& g : c.graphs) {
    props.push_back(std::make_unique<Propagator>(g->graph, c.rules));
    props.back()->set_input_policy(policy);
    spans.emplace_back(g->sizes.begin(), g->sizes.end());
    nodes += g->graph.num_nodes();
  }
  ShapeEnv env;
  for (auto _ : state) {
    for (size_t i = 0; i < props.size(); ++i) {
      env.reset();
      props[i]->run(env, spans[i]);
    }
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["ns_per_node"] = benchmark::Counter(
      static_cast<double>(nodes) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

const bool registered = [] {
  Corpus& c = corpus();
  for (size_t i = 0; i < c.graphs.size(); ++i)
    benchmark::RegisterBenchmark(("BM_Propagate/" + c.graphs[i]->name).c_str(),
                                 [i](benchmark::State& s) { BM_Propagate(s, i); })
        ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_PropagateCorpus", [](benchmark::State& s) { BM_PropagateCorpus(s, InputPolicy::Spec); })
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_PropagateCorpusStatic",
                               [](benchmark::State& s) { BM_PropagateCorpus(s, InputPolicy::Static); })
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
