// `symshape corpus PATH... [--threads N] [--out RESULTS] [--examples-dir DIR]`: every graph of a corpus
// propagated, its guards compiled and its examples evaluated, in parallel over graphs;
// `symshape merge A B ... -o OUT`: results of disjoint shards combined into the results
// of one run over all of them. See docs/corpus.md.
#include <fmt/core.h>
#include <unistd.h>

#include <memory>

#include "cli/commands.h"
#include "cli/graph_files.h"
#include "corpus/corpus_run.h"
#include "corpus/results_file.h"

namespace symshape::cli {
namespace {

struct CorpusOptions {
  std::vector<std::string> paths;
  int threads = 0;
  std::string out;
  bool verbose = false;
  bool no_timing = false;
  std::string examples_dir;
};

// --no-timing: results that compare byte for byte between runs (timings zeroed).
void drop_timings(Results& r) {
  for (GraphResults& g : r.graphs) g.timing = GraphTiming();
}

std::string diagnostics_text(const Diagnostics& diags) {
  std::string out;
  for (const Diagnostic& d : diags.items) out += (out.empty() ? "" : "\n") + d.format();
  return out;
}

// "[#######.............] 812/2200" redrawn in place on a terminal, at most 100 times.
class ProgressBar {
 public:
  ProgressBar() : enabled_(::isatty(STDERR_FILENO) == 1) {}
  void update(size_t done, size_t total) {
    if (!enabled_ || total == 0) return;
    const size_t percent = done * 100 / total;
    if (percent == last_ && done != total) return;
    last_ = percent;
    const size_t width = 40, filled = done * width / total;
    fmt::print(stderr, "\rcorpus [{}{}] {}/{}", std::string(filled, '#'), std::string(width - filled, '.'), done, total);
    if (done == total) fmt::print(stderr, "\r\033[K");
  }

 private:
  bool enabled_;
  size_t last_ = ~size_t(0);
};

int run_corpus_command(const CorpusOptions& opt) {
  std::vector<std::string> errors;
  const std::vector<std::string> files = expand_graph_paths(opt.paths, errors, /*with_corpus_files=*/true);
  for (const std::string& e : errors) fmt::print(stderr, "error: {}\n", e);
  OpTable ops;
  std::vector<GraphFileLoad> loaded = load_graph_files(files, ops);  // not timed
  std::vector<CorpusItem> items;
  for (size_t i = 0; i < files.size(); ++i) {
    for (const Graph& g : loaded[i].graphs) items.push_back({files[i], &g, {}});
    if (!loaded[i].ok) {
      const std::string text = diagnostics_text(loaded[i].diags);
      fmt::print(stderr, "error: {}\n", text);
      items.push_back({files[i], nullptr, text});
    }
  }
  RuleTable rules;
  rules.resolve(ops);

  ProgressBar bar;
  CorpusRunOptions run_opt;
  run_opt.threads = opt.threads;
  run_opt.examples_dir = opt.examples_dir;
  run_opt.progress = [&bar](size_t done, size_t total) { bar.update(done, total); };
  CorpusSummary summary;
  Results results = run_corpus(items, rules, run_opt, summary);
  if (opt.no_timing) drop_timings(results);

  for (const GraphResults& g : results.graphs) {
    if (g.status == GraphStatus::Ok) {
      if (opt.verbose)
        fmt::print("{}: nodes={} examples={} specializations={} guards={}\n", g.name, g.nodes, g.examples,
                   g.entries.size(), g.guards.size());
      continue;
    }
    if (g.status == GraphStatus::LoadError) continue;  // already reported with its diagnostics
    fmt::print(stderr, "error: {}: graph '{}': {}{}: {}\n", g.file, g.name, graph_status_name(g.status),
               g.error_node.empty() ? "" : fmt::format(" at node '{}'", g.error_node), g.error);
  }
  bool ok = errors.empty() && summary.failed == 0;
  if (!opt.out.empty()) {
    std::string error;
    if (!write_results_file(opt.out, results, error)) {
      fmt::print(stderr, "error: {}\n", error);
      ok = false;
    }
  }
  const double seconds = summary.seconds;
  fmt::print("corpus: graphs={} nodes={} failed={} seconds={:.3f} nodes_per_s={:.0f}\n", summary.graphs,
             summary.nodes, summary.failed + errors.size(), seconds, seconds > 0 ? double(summary.nodes) / seconds : 0.0);
  return ok ? 0 : 1;
}

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string out;
  bool no_timing = false;
};

int run_merge(const MergeOptions& opt) {
  std::vector<Results> shards(opt.inputs.size());
  std::string error;
  for (size_t i = 0; i < opt.inputs.size(); ++i)
    if (!read_results_file(opt.inputs[i], shards[i], error)) {
      fmt::print(stderr, "error: {}\n", error);
      return 1;
    }
  Results merged;
  if (!merge_results(std::move(shards), merged, error)) {
    fmt::print(stderr, "error: merge: {}\n", error);
    return 1;
  }
  if (opt.no_timing) drop_timings(merged);
  if (!write_results_file(opt.out, merged, error)) {
    fmt::print(stderr, "error: {}\n", error);
    return 1;
  }
  fmt::print("merge: {} graph(s) from {} file(s) -> {}\n", merged.graphs.size(), opt.inputs.size(), opt.out);
  return 0;
}

}  // namespace

void register_corpus_commands(CLI::App& app) {
  auto copt = std::make_shared<CorpusOptions>();
  CLI::App* corpus = app.add_subcommand(
      "corpus", "Propagate every graph, compile its guards and evaluate its examples, in parallel over graphs");
  corpus->add_option("paths", copt->paths, "graph files (.graph.json, .graph.fb), .corpus.fb files or folders")
      ->required();
  corpus->add_option("--threads", copt->threads, "worker threads (default: all cores)")->check(CLI::Range(1, 1024));
  corpus->add_option("--out", copt->out, "results file: *.json, otherwise results.fb; written atomically");
  corpus->add_flag("-v,--verbose", copt->verbose, "one line per graph");
  corpus->add_option("--examples-dir", copt->examples_dir,
                     "stream DIR/<graph>.examples.fb or .ndjson instead of a graph's own examples, where present")
      ->check(CLI::ExistingDirectory);
  corpus->add_flag("--no-timing", copt->no_timing, "zero the per-graph timings (results then compare byte for byte)");
  corpus->callback([copt] { exit_code() = run_corpus_command(*copt); });

  auto mopt = std::make_shared<MergeOptions>();
  CLI::App* merge = app.add_subcommand("merge", "Merge results of runs over disjoint shards into one");
  merge->add_option("inputs", mopt->inputs, "results files (results.fb or JSON)")->required();
  merge->add_option("-o,--output", mopt->out, "merged results: *.json, otherwise results.fb")->required();
  merge->add_flag("--no-timing", mopt->no_timing, "zero the per-graph timings");
  merge->callback([mopt] { exit_code() = run_merge(*mopt); });
}

}  // namespace symshape::cli
