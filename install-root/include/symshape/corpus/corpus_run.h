#pragma once
// A corpus run: every loaded graph through run_graph (corpus/graph_run.h) in parallel,
// one TBB task per graph. Each task owns its ShapeEnvs and Propagators; what the tasks
// share is read-only during the run (the graphs, the OpTable they were interned in, the
// resolved RuleTable, the op rules' static tables). Results land in per-graph slots and
// are put in canonical order, so they do not depend on the thread count.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/results_fb.h"
#include "graph/graph.h"
#include "prop/rules.h"

namespace symshape {

// One unit of work: a loaded graph, or the file that failed to load.
struct CorpusItem {
  std::string file;
  const Graph* graph = nullptr;  // null: load failed, see load_error
  std::string load_error;
};

struct CorpusRunOptions {
  int threads = 0;  // 0: all cores
  // Called after each graph (from worker threads, serialised by the runner).
  std::function<void(size_t done, size_t total)> progress;
};

struct CorpusSummary {
  uint64_t graphs = 0;
  uint64_t nodes = 0;
  uint64_t failed = 0;   // load, propagation or unsupported-op failures
  double seconds = 0.0;  // wall clock of the parallel phase (no file loading)
};

// `rules` must already be resolved against the graphs' OpTable.
Results run_corpus(const std::vector<CorpusItem>& items, const RuleTable& rules, const CorpusRunOptions& options,
                   CorpusSummary& summary);

}  // namespace symshape
