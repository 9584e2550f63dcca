// `symshape spec check GRAPH [SPEC] [--json] [--fixed-spec OUT.json]`: propagate under a spec
// and report what export would (constraint violations, forced specialisations, suggested
// fixes, hint conflicts), plus the corrected spec as DynamicShapesSpec JSON. Exit 0: no
// violation, 1: violations, 2: bad input. SPEC is the JSON or the spec.fb form.
#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <simdjson.h>
#include <sstream>

#include "cli/commands.h"
#include "cli/graph_files.h"
#include "corpus/atomic_file.h"
#include "formats/spec_fb.h"
#include "prop/rules.h"
#include "spec/apply_spec.h"
#include "spec/graph_spec.h"
#include "spec/spec_check.h"
#include "spec/spec_error.h"
#include "spec/spec_json.h"

namespace symshape::cli {
namespace {

struct SpecCheckArgs {
  std::string graph, spec, fixed_spec;
  bool json = false;
};

// The graph file's own `dynamic_shapes` (fx-graph-json); none for graph.fb.
std::optional<spec::DynamicShapes> own_spec(const std::string& path) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.load(path).get(doc)) return std::nullopt;
  simdjson::dom::element s;
  if (doc["dynamic_shapes"].get(s)) return std::nullopt;
  return spec::load_spec_json(simdjson::minify(s));
}

ExitCode run_spec_check(const SpecCheckArgs& a) {
  OpTable ops;
  Graph graph;
  std::string error;
  if (!load_graph_file(a.graph, ops, graph, error)) {
    fmt::print(stderr, "{}\n", error);
    return 2;
  }
  std::optional<spec::DynamicShapes> spec;
  try {
    if (!a.spec.empty()) {
      spec = load_spec_file(a.spec);
      spec::apply_spec(graph, *spec);
    } else {
      spec = own_spec(a.graph);
      if (!spec) spec = spec::spec_of_graph(graph);  // graph.fb: its spec columns
    }
  } catch (const Error& e) {
    fmt::print(stderr, "{}: {}\n", a.spec.empty() ? a.graph : a.spec, e.what());
    return 2;
  }
  RuleTable rules;
  rules.resolve(ops);
  const spec::SpecCheckResult r = spec::check_spec(graph, rules, spec ? &*spec : nullptr);
  if (!r.checked) {
    fmt::print(stderr, "{}: {}\n", a.graph, r.error);
    return 2;
  }
  std::optional<std::string> corrected;
  if (spec) {
    try {
      corrected = spec::dump_spec_json(spec::corrected_spec(graph, *spec, r));
    } catch (const Error& e) {
      fmt::print(stderr, "{}: the suggested fixes do not make a spec: {}\n", a.graph, e.what());
    }
  }
  if (!a.fixed_spec.empty()) {
    if (!corrected) return 2;  // the reason is printed above
    const std::string text = *corrected + "\n";
    if (!write_file_atomically(a.fixed_spec, text.data(), text.size(), error)) {
      fmt::print(stderr, "{}: {}\n", a.fixed_spec, error);
      return 2;
    }
  }
  const std::string report = spec::format_violations(r), hints = spec::format_hint_conflicts(r);
  const std::string beyond = spec::format_beyond_pytorch_fixes(r);
  if (a.json) {
    nlohmann::ordered_json out;
    out["graph"] = std::string(graph.name());
    out["example"] = r.example;
    out["violations"] = nlohmann::ordered_json::array();
    static constexpr const char* kKinds[] = {"specialized", "related", "guard", "narrowed"};
    for (const spec::Violation& v : r.violations)
      out["violations"].push_back({{"kind", kKinds[int(v.kind)]}, {"dim", v.dim}, {"message", v.message}, {"cause", v.cause}});
    out["forced_specializations"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : r.forced) out["forced_specializations"][k] = v;
    out["hint_conflicts"] = nlohmann::ordered_json::array();
    for (const spec::HintConflict& h : r.hint_conflicts) out["hint_conflicts"].push_back(h.message);
    out["report"] = report + (hints.empty() ? "" : (report.empty() ? "" : "\n") + hints);
    if (!beyond.empty()) out["beyond_pytorch_fixes"] = beyond;
    out["ranges"] = nlohmann::ordered_json::object();  // the exported program's, per Dim leaf
    for (const spec::ExportedRange& e : r.ranges) {
      const std::string key = spec::exported_range_key(graph, e);
      if (e.is_static) out["ranges"][key] = fmt::format("static {}", e.lo);
      else out["ranges"][key] = {e.lo, e.hi ? nlohmann::ordered_json(*e.hi) : nlohmann::ordered_json(nullptr)};
    }
    if (corrected) out["corrected_spec"] = nlohmann::ordered_json::parse(*corrected);
    fmt::print("{}\n", out.dump(2));
  } else if (r.ok()) {
    fmt::print("{}: no violation (example {})\n", graph.name(), r.example);
  } else {
    if (!report.empty()) fmt::print("{}\n", report);
    if (!hints.empty()) fmt::print("{}{}\n", report.empty() ? "" : "\n", hints);
    if (!beyond.empty()) fmt::print("\n{}\n", beyond);
    if (corrected) fmt::print("\nCorrected spec:\n{}\n", *corrected);
  }
  return r.ok() ? 0 : 1;
}

// `symshape spec convert IN OUT`: between the JSON form and spec.fb (by OUT's extension);
// the output is re-read and compared before it replaces OUT.
ExitCode run_spec_convert(const std::string& in, const std::string& out) {
  try {
    const spec::DynamicShapes s = load_spec_file(in);
    std::string bytes;
    if (out.ends_with(".fb")) {
      const std::vector<uint8_t> fb = dump_spec_fb(s);
      bytes.assign(fb.begin(), fb.end());
      if (!(load_spec_fb(fb.data(), fb.size()) == s)) throw Error(ErrorKind::Internal, "spec.fb does not read back equal");
    } else {
      bytes = spec::dump_spec_json(s) + "\n";
      if (!(spec::load_spec_json(bytes) == s)) throw Error(ErrorKind::Internal, "JSON does not read back equal");
    }
    std::string error;
    if (!write_file_atomically(out, bytes.data(), bytes.size(), error)) {
      fmt::print(stderr, "{}: {}\n", out, error);
      return 2;
    }
  } catch (const Error& e) {
    fmt::print(stderr, "{}: {}\n", in, e.what());
    return 2;
  }
  return 0;
}

}  // namespace

void register_spec(CLI::App& app) {
  CLI::App* spec = app.add_subcommand("spec", "dynamic_shapes specs");
  spec->require_subcommand(1);
  auto args = std::make_shared<SpecCheckArgs>();
  CLI::App* check = spec->add_subcommand("check", "propagate under a spec and report violations with fixes");
  check->add_option("graph", args->graph, "fx-graph-json or graph.fb")->required();
  check->add_option("spec", args->spec, "DynamicShapesSpec JSON or spec.fb (default: the graph's own spec)");
  check->add_flag("--json", args->json, "print the report, the violations and the corrected spec as JSON");
  check->add_option("--fixed-spec", args->fixed_spec, "write the corrected spec (DynamicShapesSpec JSON) here");
  check->callback([args] { exit_code() = run_spec_check(*args); });
  auto conv = std::make_shared<std::pair<std::string, std::string>>();
  CLI::App* convert = spec->add_subcommand("convert", "convert a spec between DynamicShapesSpec JSON and spec.fb");
  convert->add_option("input", conv->first, "spec (JSON or spec.fb)")->required();
  convert->add_option("output", conv->second, "*.fb: spec.fb, otherwise JSON")->required();
  convert->callback([conv] { exit_code() = run_spec_convert(conv->first, conv->second); });
}

}  // namespace symshape::cli
