#include "corpus/corpus_run.h"

#include <fmt/core.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <chrono>
#include <mutex>

#include "corpus/graph_run.h"
#include "corpus/results_file.h"

namespace symshape {
namespace {

// A graph whose run threw (out of memory, an engine invariant): reported, not fatal.
GraphResults crashed(const CorpusItem& item, const char* what) {
  GraphResults r = load_failure(item.file, what);
  r.name = std::string(item.graph->name());
  r.nodes = item.graph->num_nodes();
  r.status = GraphStatus::PropagationError;
  return r;
}

GraphResults run_item(const CorpusItem& item, const RuleTable& rules, const std::string& examples_dir) {
  if (!item.graph) return load_failure(item.file, item.load_error);
  try {
    return run_graph(*item.graph, rules, item.file, examples_dir);
  } catch (const std::exception& e) {
    return crashed(item, e.what());
  } catch (...) {
    return crashed(item, "unknown error");
  }
}

}  // namespace

Results run_corpus(const std::vector<CorpusItem>& items, const RuleTable& rules, const CorpusRunOptions& options,
                   CorpusSummary& summary) {
  Results results;
  results.producer = "symshape corpus";
  results.graphs.resize(items.size());
  std::atomic<size_t> done{0};
  std::mutex progress_mu;
  const int threads = options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency();
  tbb::task_arena arena(threads);
  const auto t0 = std::chrono::steady_clock::now();
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, items.size(), 1), [&](const tbb::blocked_range<size_t>& range) {
      for (size_t i = range.begin(); i != range.end(); ++i) {
        results.graphs[i] = run_item(items[i], rules, options.examples_dir);
        const size_t n = ++done;
        if (options.progress) {
          std::lock_guard<std::mutex> lock(progress_mu);
          options.progress(n, items.size());
        }
      }
    });
  });
  summary = CorpusSummary();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const GraphResults& g : results.graphs) {
    ++summary.graphs;
    summary.nodes += g.nodes;
    if (g.status != GraphStatus::Ok) ++summary.failed;
  }
  canonicalize(results);
  return results;
}

}  // namespace symshape
