// Batch guard verdicts in C++ (python/src/guard_batch.cpp over engine/batch, one thread), the reference for the Python
// bindings' per-call overhead: resnet18's guards compiled once, evaluated over N rows of
// input sizes. python/bench/bench_guards.py times the same through `symshape`.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>

#include "graph_io.h"
#include "guard_batch.h"

namespace symshape::py {
// Only the Python module raises Python exceptions; the benchmark never reaches this.
void raise_engine_error(ErrorKind kind, const std::string& message) { throw Error(kind, message); }
}  // namespace symshape::py

namespace {

using namespace symshape;

std::shared_ptr<py::PropagationHandle> resnet18_guards() {
  auto g = std::make_shared<py::GraphHandle>();
  g->graph = Graph(g->ops);
  JsonGraphLoader json;
  Diagnostics diags;
  if (!load_graph(SYMSHAPE_SOURCE_DIR "/data/samples/resnet18.graph.json", g->ops, g->graph, json, diags))
    throw Error(ErrorKind::BadInput, "cannot load resnet18 sample");
  g->rules.resolve(g->ops);
  auto p = std::make_shared<py::PropagationHandle>();
  p->g = g;
  p->sizes = {{2, 3, 64, 64}};
  p->spec.env = std::make_unique<ShapeEnv>();
  p->spec.prop = std::make_unique<Propagator>(g->graph, g->rules);
  std::vector<std::span<const int64_t>> spans(p->sizes.begin(), p->sizes.end());
  if (!p->spec.prop->run(*p->spec.env, spans).ok) throw Error(ErrorKind::Internal, "propagation failed");
  ProduceGuardsOptions opts;
  opts.ignore_static = false;
  p->spec.guards = p->spec.env->produce_guards(p->spec.prop->tracked_inputs(), opts);
  return p;
}

void BM_GuardBatch(benchmark::State& state, bool scalar) {
  const size_t rows = static_cast<size_t>(state.range(0));
  py::GuardBatch gb(resnet18_guards());
  std::mt19937_64 rng(0);
  std::vector<std::vector<int64_t>> cols(4, std::vector<int64_t>(rows));
  for (size_t r = 0; r < rows; ++r) {
    cols[0][r] = int64_t(rng() % 9);
    cols[1][r] = rng() % 4 ? 3 : 4;
    cols[2][r] = int64_t(rng() % 300);
    cols[3][r] = int64_t(rng() % 300);
  }
  std::vector<const int64_t*> ptr = {cols[0].data(), cols[1].data(), cols[2].data(), cols[3].data()};
  std::vector<int32_t> verdict(rows);
  for (auto _ : state) {
    if (scalar) gb.evaluate_scalar(ptr, rows, verdict.data());
    else gb.evaluate(ptr, rows, verdict.data(), 1);
    benchmark::DoNotOptimize(verdict.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
}

BENCHMARK_CAPTURE(BM_GuardBatch, batch, false)->Arg(1)->Arg(1000)->Arg(1000000);
BENCHMARK_CAPTURE(BM_GuardBatch, scalar, true)->Arg(1)->Arg(1000)->Arg(1000000);

}  // namespace

BENCHMARK_MAIN();
