// `symshape report RESULTS_OR_PATHS... -o report.html [--examples-dir DIR]`: one
// self-contained HTML page (plots by the vendored Apache ECharts) of corpus results.
// Graph paths are run through the corpus engine first; results files are read as they
// are. Graph files (the paths themselves, or --examples-dir for results files) add each
// graph's inputs, spec and example sizes. See docs/report.md.
#include <fmt/core.h>

#include <filesystem>
#include <memory>

#include "cli/commands.h"
#include "cli/graph_files.h"
#include "corpus/atomic_file.h"
#include "corpus/corpus_run.h"
#include "corpus/results_file.h"
#include "report/report_data.h"
#include "report/report_html.h"

namespace symshape::cli {
namespace {

struct ReportOptions {
  std::vector<std::string> inputs;
  std::string out;
  std::string examples_dir;
  int recompile_limit = 8;
};

bool is_graph_path(const std::string& p) {
  const auto ends = [&](std::string_view s) { return p.size() >= s.size() && p.compare(p.size() - s.size(), s.size(), s) == 0; };
  return std::filesystem::is_directory(p) || ends(".graph.json") || ends(".graph.fb") || ends(".corpus.fb");
}

// Loads the graph files under `paths`; every graph stays alive in `store`.
void load_graphs(const std::vector<std::string>& paths, OpTable& ops, std::vector<std::string>& files,
                 std::vector<GraphFileLoad>& store, std::vector<std::string>& errors) {
  files = expand_graph_paths(paths, errors, /*with_corpus_files=*/true);
  store = load_graph_files(files, ops);
}

int run_report(const ReportOptions& opt) {
  std::vector<std::string> errors, graph_paths;
  std::vector<Results> parts;
  for (const std::string& p : opt.inputs) {
    if (is_graph_path(p)) {
      graph_paths.push_back(p);
      continue;
    }
    Results r;
    std::string error;
    if (!read_results_file(p, r, error)) errors.push_back(error);
    else parts.push_back(std::move(r));
  }

  OpTable ops;
  std::vector<std::string> files;
  std::vector<GraphFileLoad> loaded;
  RuleTable rules;
  if (!graph_paths.empty()) {
    load_graphs(graph_paths, ops, files, loaded, errors);
    std::vector<CorpusItem> items;
    for (size_t i = 0; i < files.size(); ++i) {
      for (const Graph& g : loaded[i].graphs) items.push_back({files[i], &g, {}});
      if (!loaded[i].ok) items.push_back({files[i], nullptr, fmt::format("{}", loaded[i].diags.items.empty() ? "load failed" : loaded[i].diags.items.front().format())});
    }
    rules.resolve(ops);
    CorpusSummary summary;
    parts.push_back(run_corpus(items, rules, CorpusRunOptions(), summary));
  } else if (!opt.examples_dir.empty()) {
    load_graphs({opt.examples_dir}, ops, files, loaded, errors);
  }
  for (const std::string& e : errors) fmt::print(stderr, "error: {}\n", e);
  if (parts.empty()) {
    fmt::print(stderr, "error: report: no results to report\n");
    return 1;
  }

  Results all;
  std::string error;
  if (!merge_results(std::move(parts), all, error)) {
    fmt::print(stderr, "error: report: {}\n", error);
    return 1;
  }
  ReportInputs in;
  in.results = &all;
  in.recompile_limit = opt.recompile_limit;
  rules.resolve(ops);  // the graphs of --examples-dir were loaded after the corpus run
  in.rules = &rules;
  for (size_t i = 0; i < files.size(); ++i)
    for (const Graph& g : loaded[i].graphs)
      in.graphs[{std::filesystem::path(files[i]).filename().string(), std::string(g.name())}] = &g;

  const std::string page = render_report_html(report_data(in));
  if (!write_file_atomically(opt.out, page.data(), page.size(), error)) {
    fmt::print(stderr, "error: {}\n", error);
    return 1;
  }
  size_t failed = 0;
  for (const GraphResults& g : all.graphs) {
    if (g.status == GraphStatus::Ok) continue;
    ++failed;
    fmt::print(stderr, "error: {}: graph '{}': {}{}: {}\n", g.file, g.name, graph_status_name(g.status),
               g.error_node.empty() ? "" : fmt::format(" at node '{}'", g.error_node), g.error);
  }
  fmt::print("report: graphs={} failed={} bytes={} -> {}\n", all.graphs.size(), failed, page.size(), opt.out);
  return errors.empty() && failed == 0 ? 0 : 1;  // the page is written either way, failures shown in it
}

}  // namespace

void register_report(CLI::App& app) {
  auto opt = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand("report", "One self-contained HTML page with plots of corpus results");
  cmd->add_option("inputs", opt->inputs,
                  "results files (results.fb or JSON) and/or graph files/folders (run through the corpus engine)")
      ->required();
  cmd->add_option("-o,--output", opt->out, "the HTML file, written atomically")->required();
  cmd->add_option("--examples-dir", opt->examples_dir,
                  "folder of the graph files behind results files (adds inputs, spec ranges and example sizes)");
  cmd->add_option("--recompile-limit", opt->recompile_limit, "the limit line of the recompile timeline (default 8)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->callback([opt] { exit_code() = run_report(*opt); });
}

}  // namespace symshape::cli
