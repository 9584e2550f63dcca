// `symshape spec check GRAPH [SPEC.json] [--json]`: propagate under a spec and report the
// dims the graph specialises, relates or narrows, with suggested fixes. Exit 0: no
// violation, 1: violations, 2: bad input.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.h"
#include "cli/graph_files.h"
#include "prop/rules.h"
#include "spec/apply_spec.h"
#include "spec/spec_check.h"
#include "spec/spec_error.h"
#include "spec/spec_json.h"

namespace symshape::cli {
namespace {

struct SpecCheckArgs {
  std::string graph, spec;
  bool json = false;
};

ExitCode run_spec_check(const SpecCheckArgs& a) {
  OpTable ops;
  Graph graph;
  std::string error;
  if (!load_graph_file(a.graph, ops, graph, error)) {
    fmt::print(stderr, "{}\n", error);
    return 2;
  }
  if (!a.spec.empty()) {
    std::ifstream in(a.spec, std::ios::binary);
    if (!in) {
      fmt::print(stderr, "{}: cannot open\n", a.spec);
      return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
      spec::apply_spec(graph, spec::load_spec_json(text.str()));
    } catch (const Error& e) {
      fmt::print(stderr, "{}: {}\n", a.spec, e.what());
      return 2;
    }
  }
  RuleTable rules;
  rules.resolve(ops);
  const spec::SpecCheckResult r = spec::check_spec(graph, rules);
  if (!r.checked) {
    fmt::print(stderr, "{}: {}\n", a.graph, r.error);
    return 2;
  }
  if (a.json) {
    nlohmann::ordered_json out;
    out["graph"] = std::string(graph.name());
    out["example"] = r.example;
    out["violations"] = nlohmann::ordered_json::array();
    static constexpr const char* kKinds[] = {"specialized", "related", "narrowed"};
    for (const spec::Violation& v : r.violations)
      out["violations"].push_back({{"kind", kKinds[int(v.kind)]}, {"dim", v.dim}, {"message", v.message}, {"fix", v.fix}});
    fmt::print("{}\n", out.dump(2));
  } else if (r.violations.empty()) {
    fmt::print("{}: no violation (example {})\n", graph.name(), r.example);
  } else {
    fmt::print("{}", spec::format_violations(r));
  }
  return r.violations.empty() ? 0 : 1;
}

}  // namespace

void register_spec(CLI::App& app) {
  CLI::App* spec = app.add_subcommand("spec", "dynamic_shapes specs");
  spec->require_subcommand(1);
  auto args = std::make_shared<SpecCheckArgs>();
  CLI::App* check = spec->add_subcommand("check", "propagate under a spec and report violations with fixes");
  check->add_option("graph", args->graph, "fx-graph-json or graph.fb")->required();
  check->add_option("spec", args->spec, "DynamicShapesSpec JSON (default: the graph's own spec)");
  check->add_flag("--json", args->json, "print the violations as JSON");
  check->callback([args] { exit_code() = run_spec_check(*args); });
}

}  // namespace symshape::cli
