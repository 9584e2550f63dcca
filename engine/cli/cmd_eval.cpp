// `symshape eval GRAPH --examples FILE`: a stream of observed input sizes against one graph
// (batch/stream.h): which specialisation serves each example, which guard failure created
// each specialisation, which examples are rejected. `symshape examples GRAPH` writes a
// graph's own golden examples as the NDJSON that eval reads.
#include <fmt/core.h>
#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "batch/stream.h"
#include "cli/commands.h"
#include "cli/graph_files.h"
#include "corpus/atomic_file.h"
#include "formats/fb_kind.h"
#include "formats/spec_fb.h"
#include "graph/example_view.h"
#include "spec/apply_spec.h"

namespace symshape::cli {
namespace {

struct EvalOptions {
  std::string graph, examples, policy = "export", out, isa, spec;
  unsigned threads = 0;
  uint32_t recompile_limit = 8;
  bool json = false, program = false;
  std::vector<std::string> sizes_of;  // nodes whose output sizes are computed per example
};

bool load_examples(const Graph& g, const std::string& path, ExampleColumns& ex) {
  std::string error;
  if (path.ends_with(".fb")) {
    if (ExampleColumns::from_example_set_file(g, path, ex, error)) return true;
    fmt::print(stderr, "error: {}\n", error);
    return false;
  }
  Diagnostics problems;
  const bool opened = ExampleColumns::from_ndjson_file(g, path, ex, problems);
  for (const Diagnostic& d : problems.items) fmt::print(stderr, "error: {}\n", d.format());
  return opened;
}

std::string verdict_text(const StreamResult& r, size_t e, size_t& next_rejection) {
  const int32_t v = r.verdict[e];
  if (v >= 0) return fmt::format("{}", v);
  if (v == kUncompiled) return "uncompiled";
  const StreamResult::Rejection& rej = r.rejections[next_rejection++];
  return rej.node.empty() ? fmt::format("rejected\t{}", rej.message) : fmt::format("rejected\t{}: {}", rej.node, rej.message);
}

// Output columns with null where an example has no value.
nlohmann::json outputs_json(const StreamResult& r) {
  nlohmann::json cols = nlohmann::json::array();
  for (const auto& col : r.outputs) {
    nlohmann::json c = nlohmann::json::array();
    for (int64_t v : col) c.push_back(v == kNoOutputValue ? nlohmann::json() : nlohmann::json(v));
    cols.push_back(std::move(c));
  }
  return cols;
}

int run_eval(const EvalOptions& opt) {
  OpTable ops;
  Graph g(ops);
  std::string error;
  if (!load_graph_file(opt.graph, ops, g, error)) {
    fmt::print(stderr, "error: {}\n", error);
    return 2;
  }
  if (!opt.spec.empty()) {  // --spec replaces the graph's own spec before the policy runs
    try {
      spec::apply_spec(g, load_spec_file(opt.spec));
    } catch (const Error& e) {
      fmt::print(stderr, "error: {}: {}\n", opt.spec, e.what());
      return 2;
    }
  }
  RuleTable rules;
  rules.resolve(ops);
  ExampleColumns ex;
  if (!load_examples(g, opt.examples, ex)) return 2;  // loading is not timed
  StreamOptions so;
  so.eval.threads = opt.threads;
  so.policy = opt.policy == "compile" ? RecompilePolicy::Compile : RecompilePolicy::Export;
  so.recompile_limit = opt.recompile_limit;
  if (!opt.isa.empty()) {
    bool found = false;
    for (Isa isa : {Isa::Scalar, Isa::Sse2, Isa::Avx2, Isa::Avx512})
      if (opt.isa == isa_name(isa)) {
        if (!isa_available(isa)) {
          fmt::print(stderr, "error: --isa {}: this CPU does not have it\n", opt.isa);
          return 2;
        }
        so.eval.isa = isa;
        found = true;
      }
    if (!found) {
      fmt::print(stderr, "error: --isa must be scalar, sse2, avx2 or avx512\n");
      return 2;
    }
  }
  for (const std::string& name : opt.sizes_of) {
    uint32_t found = g.num_nodes();
    for (uint32_t i = 0; i < g.num_nodes() && found == g.num_nodes(); ++i)
      if (g.node_name(NodeId(i)) == name) found = i;
    if (found == g.num_nodes()) {
      fmt::print(stderr, "error: --sizes-of: graph '{}' has no node '{}'\n", g.name(), name);
      return 2;
    }
    so.size_nodes.push_back(NodeId(found));
  }
  const StreamResult r = run_stream(g, rules, ex, so);
  const size_t n = ex.num_examples();
  const double gs = r.guard_seconds > 0 ? r.guard_seconds : 1e-9;
  const double examples_per_s = double(n) / gs, clauses_per_s = double(r.clauses) / gs;

  if (!opt.out.empty()) {
    // the requested output sizes as columns before the verdict (its text may hold tabs)
    // example: 0-based, as Python indices; line: the NDJSON line (1-based) it came from
    const bool lines = n > 0 && ex.line_of(0) != 0;
    std::string text = lines ? "example\tline" : "example";
    for (const std::string& name : r.output_names) text += "\t" + name;
    text += "\tverdict\n";
    size_t next = 0;
    for (size_t e = 0; e < n; ++e) {
      text += lines ? fmt::format("{}\t{}", e, ex.line_of(e)) : fmt::format("{}", e);
      for (const auto& col : r.outputs) text += col[e] == kNoOutputValue ? std::string("\t-") : fmt::format("\t{}", col[e]);
      text += fmt::format("\t{}\n", verdict_text(r, e, next));
    }
    if (!write_file_atomically(opt.out, text.data(), text.size(), error)) {
      fmt::print(stderr, "error: {}\n", error);
      return 2;
    }
  }
  if (opt.json) {
    nlohmann::json js = nlohmann::json::array();
    for (size_t k = 0; k < r.specializations.size(); ++k) {
      const StreamSpecialization& s = r.specializations[k];
      js.push_back({{"index", k}, {"first_example", s.first_example}, {"hints", s.hints}, {"accepted", s.accepted},
                    {"guards", s.guards}, {"triggered_by", s.triggered_by}, {"triggered_entries", s.triggered_entries}, {"dynamic_dims", s.dynamic_dims}, {"clauses", s.clauses},
                    {"instructions", s.instructions}});
      if (s.first_line) js.back()["first_line"] = s.first_line;
      if (opt.program) js.back()["program"] = s.program;
    }
    nlohmann::json jr = nlohmann::json::array();
    for (const auto& rej : r.rejections) {
      jr.push_back({{"example", rej.example}, {"node", rej.node}, {"message", rej.message}});
      if (rej.line) jr.back()["line"] = rej.line;
    }
    fmt::print("{}\n", nlohmann::json({{"graph", g.name()}, {"policy", opt.policy}, {"examples", n},
                                       {"specializations", js}, {"rejected", jr}, {"uncompiled", r.uncompiled},
                                       {"verdicts", r.verdict},
                                       {"output_names", r.output_names}, {"outputs", outputs_json(r)},
                                       {"isa", isa_name(so.eval.isa)}, {"clauses", r.clauses},
                                       {"guard_seconds", r.guard_seconds}})
                           .dump());
  } else {
    for (size_t k = 0; k < r.specializations.size(); ++k) {
      const StreamSpecialization& s = r.specializations[k];
      fmt::print("specialization {}: first example {}{}, accepted {} example(s), {} guard clause(s)\n", k, s.first_example,
                 s.first_line ? fmt::format(" (line {})", s.first_line) : std::string(), s.accepted, s.clauses);
      if (!s.triggered_by.empty()) fmt::print("  {}\n", recompile_reason(s));
      if (!s.dynamic_dims.empty()) fmt::print("  dynamic: {}\n", fmt::join(s.dynamic_dims, ", "));
      for (const std::string& line : s.guards) fmt::print("  guard: {}\n", line);
      if (opt.program) {
        fmt::print("  program ({} instructions):\n", s.instructions);
        for (size_t b = 0, e; b < s.program.size(); b = e + 1) {
          e = s.program.find('\n', b);
          fmt::print("    {}\n", std::string_view(s.program).substr(b, e - b));
        }
      }
    }
    size_t shown = 0;
    for (const auto& rej : r.rejections) {
      if (shown++ == 20) {
        fmt::print("... {} more rejected example(s)\n", r.rejections.size() - 20);
        break;
      }
      fmt::print("rejected: example {}{}: {}{}\n", rej.example, rej.line ? fmt::format(" (line {})", rej.line) : std::string(),
                 rej.node.empty() ? "" : rej.node + ": ", rej.message);
    }
  }
  if (r.uncompiled)
    fmt::print("uncompiled: {} example(s) past the recompile limit of {} entries ran without a compiled entry\n",
               r.uncompiled, so.recompile_limit);
  fmt::print("eval: examples={} specializations={} rejected={} examples_per_s={:.0f} clauses_per_s={:.0f}\n", n,
             r.specializations.size(), r.rejections.size(), examples_per_s, clauses_per_s);
  return 0;
}

int run_examples(const std::string& path) {
  OpTable ops;
  Graph g(ops);
  std::string error;
  if (!load_graph_file(path, ops, g, error)) {
    fmt::print(stderr, "error: {}\n", error);
    return 2;
  }
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    nlohmann::ordered_json line = nlohmann::ordered_json::object();
    const ExampleView ex = g.example(e);
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      const auto s = ex.input_sizes(PlaceholderId(p));
      line[std::string(g.node_name(g.placeholder_node(PlaceholderId(p))))] = std::vector<int64_t>(s.begin(), s.end());
    }
    fmt::print("{}\n", line.dump());
  }
  return 0;
}

}  // namespace

void register_eval(CLI::App& app) {
  auto opt = std::make_shared<EvalOptions>();
  CLI::App* eval = app.add_subcommand("eval", "Run a stream of example input sizes against one graph's guards");
  eval->add_option("graph", opt->graph, "graph file (fx-graph-json or graph.fb)")->required();
  eval->add_option("--examples", opt->examples, "NDJSON (one {\"input\": [sizes]} per line) or examples.fb")->required();
  eval->add_option("--policy", opt->policy,
                   "export: the graph's dynamic_shapes spec decides the dynamic dims; compile: torch.compile's "
                   "automatic dynamic recompiles (static first, changed dims dynamic, at most --recompile-limit entries)")
      ->check(CLI::IsMember({"export", "compile"}));
  eval->add_option("--spec", opt->spec, "export policy: this dynamic_shapes spec (DynamicShapesSpec JSON or spec.fb) instead of the graph's own");
  eval->add_option("--recompile-limit", opt->recompile_limit, "compile policy: cache entries before the rest run uncompiled");
  eval->add_option("--threads", opt->threads, "worker threads for guard evaluation (0: all cores)");
  eval->add_option("--isa", opt->isa, "force the instruction set: scalar, sse2, avx2, avx512 (default: the best, or $SYMSHAPE_ISA)");
  eval->add_option("--out", opt->out, "write per-example verdicts (tab-separated) to this file");
  eval->add_flag("--program", opt->program, "also print each specialisation's compiled guard program, one instruction per line");
  eval->add_flag("--json", opt->json, "print specialisations, rejections and verdicts as one JSON object");
  eval->add_option("--sizes-of", opt->sizes_of,
                   "also compute these nodes' output sizes for every example served (--out columns, JSON outputs)")
      ->delimiter(',');
  eval->callback([opt] { exit_code() = run_eval(*opt); });

  auto path = std::make_shared<std::string>();
  CLI::App* examples = app.add_subcommand("examples", "Print a graph's golden example input sizes as NDJSON (eval's input)");
  examples->add_option("graph", *path, "graph file")->required();
  examples->callback([path] { exit_code() = run_examples(*path); });
}

}  // namespace symshape::cli
