// `symshape prop`, `symshape guards` and `symshape bench-prop`: propagate one graph with
// one example's sizes (or sizes given on the command line) and print the annotated
// graph, the guards, or the propagation speed.
#include <fmt/core.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/graph_files.h"
#include "expr/printer.h"
#include "prop/propagate.h"

namespace symshape::cli {

namespace {

struct PropOptions {
  std::string file;
  std::vector<std::string> paths;
  int example = -1;
  std::vector<std::string> sizes;  // NAME=D0,D1,...
  bool json = false;
  double min_seconds = 1.0;
  uint64_t runs = 0;  // bench-prop: fixed warm runs per graph instead of a time budget
  std::string strides = "eager";  // whose strides where they differ: "eager" or "fake" (ReferenceHost)
  std::string inputs = "symbolic";  // bench-prop: "symbolic" (the spec's Dims) or "static" (meta execution's)
};

// Input sizes: --sizes overrides, else the chosen example, else the first OK example.
bool choose_sizes(const Graph& g, const PropOptions& opt, std::vector<std::vector<int64_t>>& out, std::string& err) {
  out.assign(g.num_placeholders(), {});
  int ex = opt.example;
  if (ex < 0) {
    for (uint32_t e = 0; e < g.num_examples(); ++e)
      if (g.example(ExampleId(e)).ok()) {
        ex = static_cast<int>(e);
        break;
      }
  }
  if (ex >= 0) {
    if (static_cast<uint32_t>(ex) >= g.num_examples()) {
      err = fmt::format("example {} out of range (the graph has {})", ex, g.num_examples());
      return false;
    }
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      auto s = g.example(ExampleId(static_cast<uint32_t>(ex))).input_sizes(PlaceholderId(p));
      out[p].assign(s.begin(), s.end());
    }
  }
  for (const std::string& spec : opt.sizes) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) {
      err = fmt::format("--sizes expects NAME=D0,D1,..., got '{}'", spec);
      return false;
    }
    const std::string name = spec.substr(0, eq);
    const NodeId n = g.find_node(name);
    const PlaceholderId p = n.valid() ? g.placeholder_of(n) : PlaceholderId();
    if (!p.valid()) {
      err = fmt::format("--sizes: the graph has no input named '{}'", name);
      return false;
    }
    std::vector<int64_t> dims;
    size_t pos = eq + 1;
    while (pos <= spec.size()) {
      size_t comma = spec.find(',', pos);
      if (comma == std::string::npos) comma = spec.size();
      const std::string tok = spec.substr(pos, comma - pos);
      try {
        size_t used = 0;
        dims.push_back(std::stoll(tok, &used));
        if (used != tok.size()) throw std::invalid_argument(tok);
      } catch (const std::exception&) {
        err = fmt::format("--sizes: '{}' is not an integer", tok);
        return false;
      }
      pos = comma + 1;
    }
    out[p.index()] = std::move(dims);
  }
  for (uint32_t p = 0; p < g.num_placeholders(); ++p)
    if (out[p].empty() && g.placeholder_rank(PlaceholderId(p)) > 0) {
      err = fmt::format("no sizes for input '{}': pass --example or --sizes",
                        g.node_name(g.placeholder_node(PlaceholderId(p))));
      return false;
    }
  return true;
}

std::vector<std::span<const int64_t>> as_spans(const std::vector<std::vector<int64_t>>& v) {
  return {v.begin(), v.end()};
}

// A node's value as PyTorch prints a SymNode's expr: with the ShapeEnv's replacements as they
// stand at the end of the run (an unbacked size a later runtime assert equated to an input
// size prints as that size).
std::string value_text(const ValueTable& vals, ShapeEnv& env, ValId v) {
  if (!v.valid()) return "-";
  const ExprArena& ar = env.arena();
  auto str = [&](ExprId e) { return to_str(ar, env.replace(e)); };
  switch (vals.kind(v)) {
    case ValKind::None: return "None";
    case ValKind::Tensor: {
      const TensorId t = vals.as_tensor(v);
      std::string s = fmt::format("{}[", dtype_name(vals.dtype(t)));
      auto sizes = vals.sizes(t);
      for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + str(sizes[i]);
      s += "] stride [";
      auto strides = vals.strides(t);
      for (size_t i = 0; i < strides.size(); ++i) s += (i ? ", " : "") + str(strides[i]);
      s += "]";
      if (vals.tensor(t).storage_offset != ar.zero()) s += " offset " + str(vals.tensor(t).storage_offset);
      return s;
    }
    case ValKind::SymInt:
    case ValKind::SymBool:
    case ValKind::SymFloat: return fmt::format("Sym({})", str(vals.as_expr(v)));
    case ValKind::List: {
      std::string s = "(";
      auto items = vals.items(v);
      for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + value_text(vals, env, items[i]);
      return s + ")";
    }
  }
  return "?";
}

struct Loaded {
  OpTable ops;
  RuleTable rules;
  Graph graph;
};

bool load(const std::string& file, Loaded& l) {
  l.graph = Graph(l.ops);
  std::string err;
  if (!load_graph_file(file, l.ops, l.graph, err)) {
    fmt::print(stderr, "error: {}\n", err);
    return false;
  }
  l.rules.resolve(l.ops);
  return true;
}

int run_prop(const PropOptions& opt, bool guards_only) {
  Loaded l;
  if (!load(opt.file, l)) return 1;
  std::vector<std::vector<int64_t>> sizes;
  std::string err;
  if (!choose_sizes(l.graph, opt, sizes, err)) {
    fmt::print(stderr, "error: {}: {}\n", opt.file, err);
    return 1;
  }
  ShapeEnv env;
  Propagator prop(l.graph, l.rules);
  ReferenceHost host = kFakeTensorModeHost;
  host.fake_strides = opt.strides == "fake";
  prop.set_reference_host(host);
  const PropStatus st = prop.run(env, as_spans(sizes));
  if (!st.ok) {
    fmt::print(stderr, "error: {}: graph '{}': {}: {}\n", opt.file, l.graph.name(), error_kind_name(st.kind),
               st.message);
    return 2;
  }
  ProduceGuardsOptions gopts;
  gopts.ignore_static = false;
  const ShapeEnv::ProducedGuards guards = env.produce_guards(prop.tracked_inputs(), gopts);
  if (guards_only) {
    for (const std::string& line : guards.text) fmt::print("{}\n", line);
    return 0;
  }
  const ExprArena& ar = env.arena();
  if (opt.json) {
    nlohmann::json nodes = nlohmann::json::array();
    for (uint32_t i = 0; i < l.graph.num_nodes(); ++i) {
      const NodeId n(i);
      nodes.push_back({{"name", l.graph.node_name(n)},
                       {"target", l.graph.node_target(n)},
                       {"value", value_text(prop.values(), env, prop.node_values()[i])}});
    }
    nlohmann::json j = {{"graph", l.graph.name()}, {"nodes", nodes}, {"guards", guards.text}};
    std::vector<std::string> asserts;
    for (const RuntimeAssert& ra : env.runtime_asserts()) asserts.push_back(to_str(ar, ra.expr));
    j["runtime_asserts"] = asserts;
    fmt::print("{}\n", j.dump(1));
    return 0;
  }
  fmt::print("graph {}\n", l.graph.name());
  for (uint32_t i = 0; i < l.graph.num_nodes(); ++i) {
    const NodeId n(i);
    fmt::print("  {} = {}: {}\n", l.graph.node_name(n), l.graph.node_target(n),
               value_text(prop.values(), env, prop.node_values()[i]));
  }
  fmt::print("guards:\n");
  for (const std::string& line : guards.text) fmt::print("  {}\n", line);
  if (!env.runtime_asserts().empty()) {
    fmt::print("runtime asserts:\n");
    for (const RuntimeAssert& ra : env.runtime_asserts()) fmt::print("  {}\n", to_str(ar, ra.expr));
  }
  return 0;
}

int run_bench(const PropOptions& opt) {
  std::vector<std::string> errors;
  const std::vector<std::string> files = expand_graph_paths(opt.paths, errors);
  for (const std::string& e : errors) fmt::print(stderr, "error: {}\n", e);
  uint64_t graphs = 0, nodes = 0;
  double total_ns_per_node_weighted = 0;  // sum over graphs of (ns per run)
  uint64_t total_nodes_per_run = 0;
  int status = errors.empty() ? 0 : 1;
  for (const std::string& file : files) {
    Loaded l;
    if (!load(file, l)) {
      status = 1;
      continue;
    }
    PropOptions o = opt;
    o.example = -1;
    std::vector<std::vector<int64_t>> sizes;
    std::string err;
    if (!choose_sizes(l.graph, o, sizes, err)) {
      fmt::print(stderr, "error: {}: {}\n", file, err);
      status = 1;
      continue;
    }
    auto spans = as_spans(sizes);
    ShapeEnv env;
    Propagator prop(l.graph, l.rules);
    if (opt.inputs == "static") prop.set_input_policy(InputPolicy::Static);
    const PropStatus first = prop.run(env, spans);
    if (!first.ok) {
      fmt::print(stderr, "error: {}: {}\n", file, first.message);
      status = 1;
      continue;
    }
    using clock = std::chrono::steady_clock;
    uint64_t runs = 0;
    const auto start = clock::now();
    double elapsed = 0;
    do {
      env.reset();
      prop.run(env, spans);
      ++runs;
      elapsed = std::chrono::duration<double>(clock::now() - start).count();
    } while (opt.runs ? runs < opt.runs : elapsed < opt.min_seconds);
    const double ns_per_run = elapsed * 1e9 / static_cast<double>(runs);
    const uint32_t n = l.graph.num_nodes();
    fmt::print("{}: nodes={} runs={} us_per_run={:.1f} ns_per_node={:.1f}\n", l.graph.name(), n, runs,
               ns_per_run / 1e3, ns_per_run / n);
    ++graphs;
    nodes += n;
    total_ns_per_node_weighted += ns_per_run;
    total_nodes_per_run += n;
  }
  const double x = total_nodes_per_run ? total_ns_per_node_weighted / static_cast<double>(total_nodes_per_run) : 0.0;
  fmt::print("bench-prop: graphs={} nodes={} ns_per_node={:.1f}\n", graphs, nodes, x);
  return status;
}

}  // namespace

void register_prop_commands(CLI::App& app) {
  auto opt = std::make_shared<PropOptions>();
  CLI::App* prop = app.add_subcommand("prop", "Propagate a graph and print each node's symbolic value and the guards");
  prop->add_option("file", opt->file, "fx-graph-json file")->required();
  prop->add_option("--example", opt->example, "use the sizes of example I (default: the first OK example)");
  prop->add_option("--sizes", opt->sizes, "NAME=D0,D1,... sizes of an input (repeatable)");
  prop->add_flag("--json", opt->json, "JSON output");
  const auto strides_option = [&](CLI::App* cmd) {
    cmd->add_option("--strides", opt->strides,
                    "whose strides where the eager kernels and FakeTensorMode differ: eager (default, the goldens') "
                    "or fake (FakeTensorProp / export's, what python -m symshape.torchref compares)")
        ->check(CLI::IsMember({"eager", "fake"}));
  };
  strides_option(prop);
  prop->callback([opt] { exit_code() = run_prop(*opt, false); });

  CLI::App* guards = app.add_subcommand("guards", "Print the produce_guards text, one guard per line");
  guards->add_option("file", opt->file, "fx-graph-json file")->required();
  guards->add_option("--example", opt->example, "use the sizes of example I (default: the first OK example)");
  guards->add_option("--sizes", opt->sizes, "NAME=D0,D1,... sizes of an input (repeatable)");
  strides_option(guards);
  guards->callback([opt] { exit_code() = run_prop(*opt, true); });

  CLI::App* bench = app.add_subcommand("bench-prop", "Time propagation per node (single thread), symbolic by default");
  bench->add_option("paths", opt->paths, "fx-graph-json files or folders")->required();
  bench->add_option("--min-seconds", opt->min_seconds, "minimum time per graph (default 1)");
  bench->add_option("--runs", opt->runs,
                    "exactly N warm runs per graph instead of --min-seconds (repeatable instruction counts under callgrind)");
  bench->add_option("--inputs", opt->inputs,
                    "symbolic (default: the spec's dims symbolic, every guard recorded, as export and FakeTensorProp) "
                    "or static (every size a constant: what PyTorch's meta-tensor execution computes)")
      ->check(CLI::IsMember({"symbolic", "static"}));
  bench->callback([opt] { exit_code() = run_bench(*opt); });
}

}  // namespace symshape::cli
