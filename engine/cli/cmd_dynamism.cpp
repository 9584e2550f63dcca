// `symshape dynamism GRAPH_OR_EXAMPLES [--graph GRAPH] [--examples FILE]`: which dims vary
// across examples (semantics.md G, track_dynamism_across_examples) and a dynamic_shapes spec
// suggested from them, checked against the graph (`spec check`) before it is printed:
//   {"dynamism": {...}, "suggested_spec": {...}, "verified": true, ...}
// Exit 0: verified spec, 1: printed but not verified (or no graph to verify against),
// 2: bad input (unreadable file, no usable example, a graph that does not load).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/graph_files.h"
#include "corpus/atomic_file.h"
#include "dynamism/dynamism_report.h"
#include "dynamism/example_json.h"
#include "dynamism/graph_examples.h"
#include "dynamism/py_json.h"
#include "prop/rules.h"

namespace symshape::cli {
namespace {

struct DynamismArgs {
  std::string input, graph, examples, out, spec_out;
  bool with_self = false, compact = false, no_derived = false;
};

bool is_examples_file(const std::string& path) {
  return path.ends_with(".ndjson") || path.ends_with(".jsonl");
}

void print_problems(const Diagnostics& problems) {
  for (const Diagnostic& d : problems.items) fmt::print(stderr, "error: {}\n", d.format());
}

bool write_whole(const std::string& path, const std::string& text) {
  std::string error;
  if (write_file_atomically(path, text.data(), text.size(), error)) return true;
  fmt::print(stderr, "error: {}: {}\n", path, error);
  return false;
}

ExitCode run_dynamism(DynamismArgs a) {
  if (!a.input.empty()) {
    if (is_examples_file(a.input)) {
      if (!a.examples.empty()) {
        fmt::print(stderr, "error: two examples files given ({} and --examples {})\n", a.input, a.examples);
        return 2;
      }
      a.examples = a.input;
    } else {
      if (!a.graph.empty()) {
        fmt::print(stderr, "error: two graphs given ({} and --graph {})\n", a.input, a.graph);
        return 2;
      }
      a.graph = a.input;
    }
  }
  if (a.graph.empty() && a.examples.empty()) {
    fmt::print(stderr, "error: give a graph (.graph.json / .graph.fb) or an examples file (.ndjson)\n");
    return 2;
  }

  OpTable ops;
  Graph graph(ops);
  const bool have_graph = !a.graph.empty();
  if (have_graph) {
    std::string error;
    if (!load_graph_file(a.graph, ops, graph, error)) {
      fmt::print(stderr, "error: {}\n", error);
      return 2;
    }
  }

  // The examples: the NDJSON file, or the graph's own that PyTorch ran.
  dynamism::ExampleSet set;
  Diagnostics problems;
  std::vector<uint64_t> ids;
  const bool graph_examples = a.examples.empty();
  if (graph_examples) {
    const std::string lines = dynamism::graph_examples_ndjson(graph, a.with_self, ids);
    dynamism::read_examples_ndjson(lines, a.graph, set, problems);
    if (set.num_examples() == 0) {
      print_problems(problems);
      fmt::print(stderr, "error: {}: graph '{}' has no example PyTorch ran (\"ok\": true)\n", a.graph, graph.name());
      return 2;
    }
  } else {
    if (!dynamism::read_examples_file(a.examples, set, problems)) {
      print_problems(problems);
      return 2;
    }
    if (set.num_examples() == 0) {
      print_problems(problems);
      fmt::print(stderr, "error: {}: no usable example\n", a.examples);
      return 2;
    }
  }
  print_problems(problems);  // malformed lines: reported, the rest is used
  problems.items.clear();

  RuleTable rules;
  if (have_graph) rules.resolve(ops);
  dynamism::SuggestOptions opt;
  opt.derived_dims = !a.no_derived;
  const dynamism::DynamismReport rep = dynamism::dynamism_report(set, have_graph ? &graph : nullptr, &rules,
                                                                 graph_examples, a.examples, opt, problems);
  print_problems(problems);
  if (!rep.error.empty()) {
    fmt::print(stderr, "error: {}\n", rep.error);
    return 2;
  }
  const nlohmann::ordered_json& out = rep.json;
  const std::string& spec_text = rep.spec_text;
  if (!a.spec_out.empty() && !spec_text.empty() && !write_whole(a.spec_out, spec_text + "\n")) return 2;
  const ExitCode code = rep.verified ? 0 : 1;
  const std::string text = (a.compact ? dynamism::py_dumps(out) : dynamism::py_dumps_lines(out)) + "\n";
  if (!a.out.empty()) {
    if (!write_whole(a.out, text)) return 2;
  } else {
    fmt::print("{}", text);
  }
  return code;
}

}  // namespace

void register_dynamism(CLI::App& app) {
  auto args = std::make_shared<DynamismArgs>();
  CLI::App* cmd = app.add_subcommand(
      "dynamism", "which dims vary across examples (track_dynamism_across_examples) and a verified dynamic_shapes spec");
  cmd->add_option("input", args->input, "a graph (.graph.json / .graph.fb: its ok examples) or examples (.ndjson / .jsonl)");
  cmd->add_option("--graph", args->graph, "the graph to suggest and check the spec against");
  cmd->add_option("--examples", args->examples, "NDJSON examples, one object of named inputs per line (docs/dynamism.md)");
  cmd->add_flag("--self", args->with_self, "graph examples: also track the module attributes the graph records (get_attr) under \"self\"");
  cmd->add_option("--out", args->out, "write the JSON here (whole or not at all) instead of stdout");
  cmd->add_option("--spec-out", args->spec_out, "also write the suggested spec (DynamicShapesSpec JSON) here");
  cmd->add_flag("--compact", args->compact, "one-line JSON");
  cmd->add_flag("--no-derived", args->no_derived, "report linear relations but write them as separate Dims");
  cmd->callback([args] { exit_code() = run_dynamism(*args); });
}

}  // namespace symshape::cli
