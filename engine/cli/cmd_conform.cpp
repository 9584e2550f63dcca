// `symshape conform [--json] PATH...`: conformance of the engine against the golden
// examples of fx-graph-json files (see engine/conform/conform.h for the outcomes).
#include <fmt/core.h>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/graph_files.h"
#include "conform/conform.h"

namespace symshape::cli {

namespace {

struct ConformOptions {
  std::vector<std::string> paths;
  bool json = false;
  bool verbose = false;
  std::string inputs = "spec";  // "spec" (torch.export's symbolic inputs) or "static" (meta execution's)
};

int run_conform(const ConformOptions& opt) {
  std::vector<std::string> errors;
  const std::vector<std::string> files = expand_graph_paths(opt.paths, errors);
  OpTable ops;
  RuleTable rules;
  uint64_t graphs = 0, examples = 0, specializations = 0, unsupported = 0;
  uint64_t count[6] = {};
  bool load_failed = !errors.empty();
  nlohmann::json report = nlohmann::json::array();
  for (const std::string& e : errors) fmt::print(stderr, "error: {}\n", e);
  for (const std::string& file : files) {
    Graph graph(ops);
    std::string err;
    if (!load_graph_file(file, ops, graph, err)) {
      fmt::print(stderr, "error: {}\n", err);
      load_failed = true;
      if (opt.json) report.push_back({{"file", file}, {"loaded", false}, {"error", err}});
      continue;
    }
    rules.resolve(ops);
    GraphResult r = conform_graph(graph, rules, opt.inputs == "static" ? InputPolicy::Static : InputPolicy::Spec);
    r.file = file;
    ++graphs;
    examples += r.examples.size();
    specializations += r.specializations;
    if (r.unsupported) ++unsupported;
    uint64_t local[6] = {};
    for (const ExampleResult& ex : r.examples) ++local[static_cast<int>(ex.outcome)];
    for (int i = 0; i < 6; ++i) count[i] += local[i];
    if (!opt.json) {
      fmt::print("{}: examples={} correct={} mismatch={} rejected={} unsound={} value_errors={} specializations={}{}\n",
                 r.graph, r.examples.size(), local[0], local[1], local[2], local[3], local[4], r.specializations,
                 r.unsupported ? " unsupported" : "");
      if (opt.verbose || local[1] || local[2] || local[3] || r.unsupported) {
        for (size_t i = 0; i < r.examples.size(); ++i) {
          const ExampleResult& ex = r.examples[i];
          if (ex.outcome == Outcome::Correct || ex.outcome == Outcome::ValueError) {
            if (!opt.verbose) continue;
          }
          fmt::print("  example {}: {} (specialization {}) {}\n", i, outcome_name(ex.outcome), ex.specialization,
                     ex.detail);
        }
      }
    } else {
      nlohmann::json g = {{"file", file},
                          {"graph", r.graph},
                          {"loaded", true},
                          {"unsupported", r.unsupported},
                          {"specializations", r.specializations}};
      if (!r.error.empty()) g["error"] = r.error;
      nlohmann::json exs = nlohmann::json::array();
      for (const ExampleResult& ex : r.examples)
        exs.push_back({{"outcome", outcome_name(ex.outcome)},
                       {"specialization", ex.specialization},
                       {"engine_accepted", ex.engine_accepted},
                       {"detail", ex.detail}});
      g["examples"] = std::move(exs);
      report.push_back(std::move(g));
    }
  }
  if (opt.json) fmt::print("{}\n", report.dump(1));
  fmt::print("conform: graphs={} examples={} correct={} mismatch={} rejected={} unsound={} value_errors={} "
             "specializations={} unsupported={}\n",
             graphs, examples, count[0], count[1], count[2], count[3], count[4], specializations, unsupported);
  const bool clean = count[1] == 0 && count[2] == 0 && count[3] == 0 && unsupported == 0 && !load_failed;
  return clean ? 0 : 1;
}

}  // namespace

void register_conform(CLI::App& app) {
  auto opt = std::make_shared<ConformOptions>();
  CLI::App* cmd = app.add_subcommand("conform", "Check propagation against the golden examples of graph files");
  cmd->add_option("paths", opt->paths, "fx-graph-json files or folders of *.graph.json")->required();
  cmd->add_flag("--json", opt->json, "per-graph, per-example detail as JSON");
  cmd->add_flag("-v,--verbose", opt->verbose, "list every example");
  cmd->add_option("--inputs", opt->inputs,
                  "spec (default: the spec's dims symbolic, as torch.export) or static (each example at its own "
                  "constant sizes, as meta-tensor execution; the spec is ignored)")
      ->check(CLI::IsMember({"spec", "static"}));
  cmd->callback([opt] { exit_code() = run_conform(*opt); });
}

}  // namespace symshape::cli
