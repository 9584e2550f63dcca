// `symshape infer GRAPH [--example I] [--sizes ...] [--shared-batch] [--max-traces N] [--json]`:
// shape inference with constraints as data (engine/infer, semantics.md E.6): the nearest valid
// sizes to an example, the most general spec export accepts (the DynamicShapesSpec form `spec
// check` and `eval --spec` read; `spec check` clean on it), the wider region where eager runs
// (`validity`) and every failing check learned, each with its node. Exit 0: valid
// sizes found, 1: unsatisfiable / not inferable, 2: bad input.
#include <fmt/format.h>

#include <charconv>
#include "cli/commands.h"
#include "cli/graph_files.h"
#include "core/error.h"
#include "infer/infer.h"
#include "infer/infer_json.h"
#include "spec/spec_json.h"

namespace symshape::cli {
namespace {

struct InferArgs {
  std::string graph;
  int64_t example = -1;
  std::vector<std::string> sizes;
  bool json = false, shared_batch = false;
  uint32_t max_traces = 0;
};

// "2,3,64,64" or "x=2,3,64,64" (an empty list for a 0-d input: "x=").
bool parse_sizes(const Graph& g, const std::vector<std::string>& args, std::vector<std::vector<int64_t>>& out,
                 std::string& error) {
  out.assign(g.num_placeholders(), {});
  std::vector<uint8_t> given(g.num_placeholders(), 0);
  uint32_t next = 0;
  for (const std::string& a : args) {
    std::string_view list = a;
    uint32_t p = next;
    if (const size_t eq = a.find('='); eq != std::string::npos) {
      const std::string_view name = std::string_view(a).substr(0, eq);
      p = g.num_placeholders();
      for (uint32_t q = 0; q < g.num_placeholders(); ++q)
        if (g.node_name(g.placeholder_node(PlaceholderId(q))) == name) p = q;
      if (p == g.num_placeholders()) {
        error = fmt::format("--sizes {}: graph '{}' has no input '{}'", a, g.name(), name);
        return false;
      }
      list = list.substr(eq + 1);
    }
    if (p >= g.num_placeholders()) {
      error = fmt::format("--sizes {}: graph '{}' has only {} inputs", a, g.name(), g.num_placeholders());
      return false;
    }
    while (!list.empty()) {
      const size_t comma = list.find(',');
      const std::string_view item = list.substr(0, comma);
      int64_t v = 0;
      const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
      if (ec != std::errc() || ptr != item.data() + item.size() || item.empty()) {
        error = fmt::format("--sizes {}: '{}' is not an integer size", a, item);
        return false;
      }
      out[p].push_back(v);
      if (comma == std::string_view::npos) break;
      list = list.substr(comma + 1);
    }
    given[p] = 1;
    next = p + 1;
  }
  for (uint32_t p = 0; p < g.num_placeholders(); ++p)
    if (!given[p]) {
      error = fmt::format("--sizes: no sizes for input '{}' of graph '{}'", g.node_name(g.placeholder_node(PlaceholderId(p))),
                          g.name());
      return false;
    }
  return true;
}

ExitCode run_infer(const InferArgs& a) {
  OpTable ops;
  Graph g(ops);
  std::string error;
  if (!load_graph_file(a.graph, ops, g, error)) {
    fmt::print(stderr, "error: {}\n", error);
    return 2;
  }
  std::vector<std::vector<int64_t>> sizes;
  if (!a.sizes.empty()) {
    if (a.example >= 0) {
      fmt::print(stderr, "error: give --example or --sizes, not both\n");
      return 2;
    }
    if (!parse_sizes(g, a.sizes, sizes, error)) {
      fmt::print(stderr, "error: {}\n", error);
      return 2;
    }
  } else {
    // the given example, or the first one PyTorch accepted (one with no 0/1 dynamic size first)
    int64_t e = a.example;
    if (e < 0) e = infer::default_start_example(g).value_or(-1);
    if (e < 0 || e >= int64_t(g.num_examples())) {
      fmt::print(stderr, "error: {}: {}\n", a.graph,
                 a.example >= 0 ? fmt::format("--example {}: graph '{}' has {} examples", a.example, g.name(), g.num_examples())
                                : fmt::format("graph '{}' has no accepted example; give --sizes", g.name()));
      return 2;
    }
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      const auto s = g.example(uint32_t(e)).input_sizes(PlaceholderId(p));
      sizes.emplace_back(s.begin(), s.end());
    }
  }
  RuleTable rules;
  rules.resolve(ops);
  infer::InferOptions opt;
  opt.shared_batch = a.shared_batch;
  opt.max_traces = a.max_traces;
  std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
  infer::InferResult r;
  try {
    r = infer::infer_shapes(g, rules, spans, opt);
  } catch (const Error& e) {
    fmt::print(stderr, "error: {}: {}\n", a.graph, e.what());
    return 2;
  }
  auto input_name = [&](size_t p) { return std::string(g.node_name(g.placeholder_node(PlaceholderId(uint32_t(p))))); };
  const std::string spec_text = r.spec ? spec::dump_spec_json(*r.spec) : "";
  if (a.json) {
    fmt::print("{}\n", infer::infer_result_json(g, r).dump(2));
  } else {
    fmt::print("{}: {} after {} trace(s) of at most {} ({} unknowns)\n", g.name(), infer::infer_status_name(r.status),
               r.traces, r.budget, r.unknowns);
    for (size_t p = 0; p < r.sizes.size(); ++p) fmt::print("  {} = [{}]\n", input_name(p), fmt::join(r.sizes[p], ", "));
    if (!r.constraints.empty()) fmt::print("constraints:\n");
    for (size_t i = 0; i < r.constraints.size(); ++i) {
      const infer::Constraint& c = r.constraints[i];
      fmt::print("  [{}] {:<7} {:<24} {}{}\n", i, infer::predicate_kind_name(c.kind), c.node, c.text,
                 c.set_aside ? "  (set aside: learned under another trace's branches)" : "");
    }
    if (r.status == infer::InferStatus::Unsatisfiable) {
      fmt::print("unsatisfiable: these checks cannot hold together:\n");
      for (uint32_t i : r.conflict)
        fmt::print("  [{}] {}: {}\n", i, r.constraints[i].node, r.constraints[i].text);
    }
    if (!r.error.empty()) fmt::print("stopped: {}\n", r.error);
    if (r.spec) fmt::print("spec ({}):\n{}\n", r.spec_note, spec_text);
    else if (!r.spec_note.empty()) fmt::print("no spec: {}\n", r.spec_note);
    if (r.validity && r.spec && *r.validity == *r.spec) fmt::print("validity: the same as the spec\n");
    else if (r.validity) fmt::print("validity ({}):\n{}\n", r.validity_note, spec::dump_spec_json(*r.validity));
  }
  return r.status == infer::InferStatus::Valid ? 0 : 1;
}

}  // namespace

void register_infer(CLI::App& app) {
  auto args = std::make_shared<InferArgs>();
  CLI::App* cmd = app.add_subcommand("infer", "shape inference: nearest valid sizes, most general spec, constraints with nodes");
  cmd->add_option("graph", args->graph, "fx-graph-json or graph.fb")->required();
  cmd->add_option("--example", args->example,
                  "start from this example's sizes (default: the first accepted one with no 0/1 dynamic size, else the "
                  "first accepted one)");
  cmd->add_option("--sizes", args->sizes, "start from these sizes: NAME=2,3,64,64 or 2,3,64,64 per input in order");
  cmd->add_flag("--shared-batch", args->shared_batch, "dim 0 of every input is one unknown (infer_shape's batch)");
  cmd->add_option("--max-traces", args->max_traces, "trace budget (default 2 x unknowns)");
  cmd->add_flag("--json", args->json, "print {\"sizes\", \"spec\", \"constraints\", ...} as JSON");
  cmd->callback([args] { exit_code() = run_infer(*args); });
}

}  // namespace symshape::cli
