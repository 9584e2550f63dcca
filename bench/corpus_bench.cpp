// `symshape corpus` work (propagation, guards, example evaluation; no file loading) over
// 2,200 graphs: the visible corpus packed into one corpus.fb in the setup, loaded again
// and again. Arg = worker threads; counters graphs/s and nodes/s (wall clock).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "corpus/corpus_run.h"
#include "formats/graph_fb_reader.h"
#include "formats/graph_fb_writer.h"
#include "formats/graph_io.h"
#include "graph/corpus.h"

namespace {

using namespace symshape;

constexpr size_t kGraphs = 2200;

struct BenchCorpus {
  Corpus corpus;
  RuleTable rules;
  std::vector<CorpusItem> items;
  uint64_t nodes = 0;
};

// Packs the visible corpus into a temporary corpus.fb, then loads it until kGraphs graphs.
std::unique_ptr<BenchCorpus> build() {
  auto b = std::make_unique<BenchCorpus>();
  namespace fs = std::filesystem;
  const std::string dir = std::string(SYMSHAPE_SHARED_DIR) + "/corpus/visible";
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().string().ends_with(".graph.json")) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  OpTable pack_ops;
  JsonGraphLoader json;
  std::vector<Graph> visible;
  Diagnostics diags;
  for (const std::string& f : files) load_graphs(f, pack_ops, visible, json, diags);
  if (visible.empty()) return b;
  flatbuffers::DetachedBuffer buf;
  std::string error;
  const std::string packed = (fs::temp_directory_path() / "symshape_corpus_bench.corpus.fb").string();
  if (!write_corpus_fb(visible, buf, error) || !write_bytes_file(packed, buf.data(), buf.size(), error)) return b;
  while (b->corpus.graphs.size() < kGraphs) {
    std::vector<Graph> copy;
    if (!load_corpus_fb_file(packed, *b->corpus.ops, copy, diags)) return b;
    for (Graph& g : copy)
      if (b->corpus.graphs.size() < kGraphs) b->corpus.graphs.push_back(std::move(g));
  }
  fs::remove(packed, ec);
  b->rules.resolve(*b->corpus.ops);
  for (size_t i = 0; i < b->corpus.graphs.size(); ++i) {
    b->items.push_back({"visible.corpus.fb", &b->corpus.graphs[i], {}});
    b->nodes += b->corpus.graphs[i].num_nodes();
  }
  return b;
}

BenchCorpus& bench_corpus() {
  static std::unique_ptr<BenchCorpus> b = build();
  return *b;
}

void BM_Corpus(benchmark::State& state) {
  BenchCorpus& b = bench_corpus();
  if (b.items.empty()) {
    state.SkipWithError("visible corpus not found");
    return;
  }
  CorpusRunOptions opt;
  opt.threads = int(state.range(0));
  for (auto _ : state) {
    CorpusSummary summary;
    Results r = run_corpus(b.items, b.rules, opt, summary);
    benchmark::DoNotOptimize(r.graphs.data());
    if (summary.failed != 0) state.SkipWithError("a graph failed");
  }
  state.counters["graphs_per_s"] =
      benchmark::Counter(double(b.items.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["nodes_per_s"] = benchmark::Counter(double(b.nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Corpus)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();

}  // namespace

BENCHMARK_MAIN();
