// `symshape dynamism` for Python: which dims vary across examples and the suggested,
// verified dynamic_shapes spec (engine/dynamism, docs/dynamism.md). The graph is loaded
// here from its path, not taken from a Graph object: suggesting a spec rewrites the graph's
// spec columns, and a caller's Graph must keep the spec it was loaded with.
#include <pybind11/pybind11.h>

#include <fmt/core.h>

#include "dynamism/dynamism_report.h"
#include "dynamism/example_json.h"
#include "dynamism/graph_examples.h"
#include "engine_handle.h"
#include "graph/json_loader.h"
#include "graph_io.h"

namespace pyb = pybind11;

namespace symshape::py {

namespace {

std::string problems_text(const Diagnostics& d) {
  std::string out;
  for (const Diagnostic& x : d.items) {  // appended piecewise: GCC 12 misreads `"\n" + string` (-Wstringop-overflow)
    if (!out.empty()) out += '\n';
    out += x.format();
  }
  return out;
}

// graph: a path or None; examples: None (the graph's own ok examples), an NDJSON path, or a
// list of dicts in the NDJSON form (one example each).
pyb::object dynamism(const pyb::object& graph_path, const pyb::object& examples, bool with_self, bool derived) {
  if (graph_path.is_none() && examples.is_none())
    throw pyb::value_error("give a graph path, examples, or both");
  const pyb::module_ json = pyb::module_::import("json");
  std::string graph_file, examples_file = "<examples>", lines;
  bool examples_from_file = false;
  if (!graph_path.is_none()) graph_file = pyb::str(pyb::module_::import("os").attr("fspath")(graph_path));
  if (!examples.is_none()) {
    if (pyb::isinstance<pyb::str>(examples) || pyb::hasattr(examples, "__fspath__")) {
      examples_file = pyb::str(pyb::module_::import("os").attr("fspath")(examples));
      examples_from_file = true;
    } else {
      for (const pyb::handle e : examples) lines += json.attr("dumps")(e).cast<std::string>() + "\n";
    }
  }
  std::string text;
  Diagnostics problems;
  std::string error;
  {
    pyb::gil_scoped_release release;
    OpTable ops;
    Graph graph(ops);
    if (!graph_file.empty()) {
      JsonGraphLoader loader;
      Diagnostics diags;
      if (!load_graph(graph_file, ops, graph, loader, diags)) error = problems_text(diags);
    }
    dynamism::ExampleSet set;
    std::vector<uint64_t> ids;
    const bool graph_examples = examples.is_none();
    if (error.empty()) {
      if (graph_examples) {
        dynamism::read_examples_ndjson(dynamism::graph_examples_ndjson(graph, with_self, ids), graph_file, set, problems);
        if (set.num_examples() == 0)
          error = fmt::format("{}: graph '{}' has no example PyTorch ran (\"ok\": true)", graph_file, graph.name());
      } else if (examples_from_file) {
        if (!dynamism::read_examples_file(examples_file, set, problems)) error = problems_text(problems);
      } else {
        dynamism::read_examples_ndjson(lines, examples_file, set, problems);
      }
      if (error.empty() && set.num_examples() == 0) error = examples_file + ": no usable example\n" + problems_text(problems);
    }
    if (error.empty()) {
      RuleTable rules;
      if (!graph_file.empty()) rules.resolve(ops);
      dynamism::SuggestOptions opt;
      opt.derived_dims = derived;
      const dynamism::DynamismReport rep = dynamism::dynamism_report(
          set, graph_file.empty() ? nullptr : &graph, &rules, graph_examples, examples_file, opt, problems);
      if (!rep.error.empty()) error = rep.error;
      text = rep.json.dump();
    }
  }
  if (!error.empty()) raise_engine_error(ErrorKind::BadInput, error);
  pyb::object out = json.attr("loads")(text);
  pyb::list reported;
  for (const Diagnostic& d : problems.items) reported.append(d.format());
  out["problems"] = reported;  // malformed examples: reported, the rest used
  return out;
}

}  // namespace

void bind_dynamism(pyb::module_& m) {
  m.def("dynamism", &dynamism, pyb::arg("graph") = pyb::none(), pyb::arg("examples") = pyb::none(),
        pyb::arg("with_self") = false, pyb::arg("derived") = true,
        "`symshape dynamism`: {'dynamism', 'suggested_spec', 'verified', 'dims', 'relations', ...} for a graph's "
        "own examples, an NDJSON file or a list of example dicts (docs/dynamism.md)");
}

}  // namespace symshape::py
