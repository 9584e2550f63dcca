// Graph loading, propagation, node values, guards and conformance for Python.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/core.h>

#include "conform/conform.h"
#include "engine_handle.h"
#include "expr/printer.h"
#include "graph/json_loader.h"
#include "graph_fb_reader.h"
#include "graph_io.h"
#include "guard_batch.h"
#include "infer/infer.h"
#include "infer/infer_json.h"

namespace pyb = pybind11;

namespace symshape::py {

// bind_spec.cpp
void apply_python_spec(GraphHandle& h, const pyb::handle& spec);
void bind_spec(pyb::module_& m, pyb::class_<GraphHandle, std::shared_ptr<GraphHandle>>& graph);

namespace {

using GraphPtr = std::shared_ptr<GraphHandle>;
using PropPtr = std::shared_ptr<PropagationHandle>;

[[noreturn]] void raise_diagnostics(const Diagnostics& diags, const std::string& source) {
  std::string msg;
  for (const Diagnostic& d : diags.items) {  // push_back/append: GCC 12's LTO flags `+` (-Wstringop-overflow)
    if (!msg.empty()) msg.push_back('\n');
    msg.append(d.format());
  }
  raise_engine_error(ErrorKind::BadInput, msg.empty() ? source + ": failed to load" : msg);
}

GraphPtr load_path(const std::string& path, const pyb::object& spec) {
  auto h = std::make_shared<GraphHandle>();
  h->graph = Graph(h->ops);
  h->source = path;
  Diagnostics diags;
  bool ok;
  {
    pyb::gil_scoped_release release;
    JsonGraphLoader json;
    ok = load_graph(path, h->ops, h->graph, json, diags);
  }
  if (!ok) raise_diagnostics(diags, path);
  h->rules.resolve(h->ops);
  apply_python_spec(*h, spec);
  return h;
}

// fx-graph-json text or graph.fb bytes, told apart like files: '{' starts JSON.
GraphPtr load_bytes(const pyb::bytes& data, const std::string& name, const pyb::object& spec) {
  auto h = std::make_shared<GraphHandle>();
  h->graph = Graph(h->ops);
  h->source = name;
  std::string_view view = data;
  size_t i = 0;
  while (i < view.size() && (view[i] == ' ' || view[i] == '\n' || view[i] == '\r' || view[i] == '\t')) ++i;
  Diagnostics diags;
  bool ok;
  {
    pyb::gil_scoped_release release;
    if (i < view.size() && view[i] == '{') {
      JsonGraphLoader json;
      ok = json.load_buffer(view, name, h->ops, h->graph, diags);
    } else {
      ok = load_graph_fb_buffer(reinterpret_cast<const uint8_t*>(view.data()), view.size(), name, h->ops, h->graph,
                                diags);
    }
  }
  if (!ok) raise_diagnostics(diags, name);
  h->rules.resolve(h->ops);
  apply_python_spec(*h, spec);
  return h;
}

std::vector<std::vector<int64_t>> sizes_of(const Graph& g, const pyb::object& sizes, int example) {
  std::vector<std::vector<int64_t>> out(g.num_placeholders());
  if (example >= 0) {
    if (static_cast<uint32_t>(example) >= g.num_examples())
      throw pyb::index_error(fmt::format("example {} out of range (the graph has {})", example, g.num_examples()));
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      auto s = g.example(static_cast<uint32_t>(example)).input_sizes(PlaceholderId(p));
      out[p].assign(s.begin(), s.end());
    }
  }
  if (!sizes.is_none()) {
    for (auto [key, value] : pyb::cast<pyb::dict>(sizes)) {
      const std::string name = pyb::cast<std::string>(key);
      const NodeId n = g.find_node(name);
      const PlaceholderId p = n.valid() ? g.placeholder_of(n) : PlaceholderId();
      if (!p.valid()) raise_engine_error(ErrorKind::BadInput, fmt::format("the graph has no input named '{}'", name));
      out[p.index()] = pyb::cast<std::vector<int64_t>>(value);
    }
  }
  for (uint32_t p = 0; p < g.num_placeholders(); ++p)
    if (out[p].size() != g.placeholder_rank(PlaceholderId(p)))
      raise_engine_error(ErrorKind::BadInput,
                         fmt::format("input '{}' has rank {} but {} sizes were given",
                                     g.node_name(g.placeholder_node(PlaceholderId(p))),
                                     g.placeholder_rank(PlaceholderId(p)), out[p].size()));
  return out;
}

InputPolicy policy_of(const std::string& name) {
  if (name == "spec") return InputPolicy::Spec;
  if (name == "duck") return InputPolicy::Duck;
  if (name == "static") return InputPolicy::Static;
  throw pyb::value_error("policy must be 'spec', 'duck' or 'static', got '" + name + "'");
}

PropPtr propagate(const GraphPtr& g, const pyb::object& sizes, int example, const std::string& policy,
                  const std::string& host, const std::string& strides) {
  // the reference process (prop/reference_host.h): FakeTensorMode / torch.compile, or
  // torch.export's tracing with the backend flags off
  if (host != "fake" && host != "export")
    throw pyb::value_error("host must be 'fake' (FakeTensorMode, torch.compile) or 'export' (torch.export), got '" +
                           host + "'");
  if (strides != "eager" && strides != "fake")
    throw pyb::value_error("strides must be 'eager' (the eager kernels') or 'fake' (FakeTensorMode's), got '" +
                           strides + "'");
  auto p = std::make_shared<PropagationHandle>();
  p->g = g;
  p->sizes = sizes_of(g->graph, sizes, example);
  p->spec.env = std::make_unique<ShapeEnv>();
  p->spec.prop = std::make_unique<Propagator>(g->graph, g->rules);
  p->spec.prop->set_input_policy(policy_of(policy));
  ReferenceHost reference = host == "export" ? kExportTracingHost : kFakeTensorModeHost;
  reference.fake_strides = strides == "fake";
  p->spec.prop->set_reference_host(reference);
  PropStatus st;
  std::string guard_error;
  {
    pyb::gil_scoped_release release;
    std::vector<std::span<const int64_t>> spans(p->sizes.begin(), p->sizes.end());
    st = p->spec.prop->run(*p->spec.env, spans);
    if (st.ok) {
      try {
        ProduceGuardsOptions opts;
        opts.ignore_static = false;
        p->spec.guards = p->spec.env->produce_guards(p->spec.prop->tracked_inputs(), opts);
      } catch (const Error& e) {
        st.ok = false;
        st.kind = e.kind();
        st.message = std::string("produce_guards: ") + e.what();
      }
    }
  }
  if (!st.ok)
    raise_engine_error(st.kind, fmt::format("{}: graph '{}': {}", g->source, g->graph.name(), st.message));
  return p;
}

std::vector<std::string> texts(const ExprArena& ar, std::span<const ExprId> es) {
  std::vector<std::string> out;
  for (ExprId e : es) out.push_back(to_str(ar, e));
  return out;
}

// A node's value as Python data: tensors as a dict with symbolic shape/stride (strings),
// SymInt/SymBool/SymFloat as their expression text, lists recursively.
pyb::object value_object(const PropagationHandle& p, ValId v, bool concrete) {
  if (!v.valid()) return pyb::none();
  const ValueTable& vals = p.prop().values();
  ShapeEnv& env = p.env();
  const ExprArena& ar = env.arena();
  // symbolic text as PyTorch prints a SymNode's expr: with the replacements as they stand at
  // the end of the run (an unbacked size a later runtime assert equated to an input size)
  auto text = [&](ExprId e) { return pyb::str(to_str(ar, env.replace(e))); };
  auto expr = [&](ExprId e) -> pyb::object {
    if (!concrete) return text(e);
    if (!env.has_hint(e)) return pyb::none();  // unbacked: no value at these sizes
    return pyb::int_(env.size_hint(e));
  };
  switch (vals.kind(v)) {
    case ValKind::None: return pyb::none();
    case ValKind::Tensor: {
      const TensorId t = vals.as_tensor(v);
      pyb::list shape, stride;
      for (ExprId e : vals.sizes(t)) shape.append(expr(e));
      for (ExprId e : vals.strides(t)) stride.append(expr(e));
      pyb::dict d;
      d["shape"] = shape;
      d["stride"] = stride;
      d["dtype"] = std::string(dtype_name(vals.dtype(t)));
      d["storage_offset"] = expr(vals.tensor(t).storage_offset);
      return d;
    }
    case ValKind::SymInt: return expr(vals.as_expr(v));
    case ValKind::SymBool:
    case ValKind::SymFloat: return text(vals.as_expr(v));
    case ValKind::List: {
      pyb::list l;
      for (ValId item : vals.items(v)) l.append(value_object(p, item, concrete));
      return l;
    }
  }
  return pyb::none();
}

pyb::list node_list(const PropagationHandle& p, bool concrete) {
  const Graph& g = p.g->graph;
  pyb::list out;
  for (uint32_t i = 0; i < g.num_nodes(); ++i) {
    const NodeId n(i);
    pyb::dict d;
    d["name"] = std::string(g.node_name(n));
    d["target"] = std::string(g.node_target(n));
    d["value"] = value_object(p, p.prop().node_values()[i], concrete);
    out.append(d);
  }
  return out;
}

pyb::dict conform_dict(const GraphResult& r) {
  pyb::list examples;
  for (const ExampleResult& e : r.examples) {
    pyb::dict d;
    d["outcome"] = outcome_name(e.outcome);
    d["accepted"] = e.engine_accepted;
    d["specialization"] = e.specialization;
    d["detail"] = e.detail;
    examples.append(d);
  }
  pyb::dict d;
  d["file"] = r.file;
  d["graph"] = r.graph;
  d["loaded"] = r.loaded;
  d["unsupported"] = r.unsupported;
  d["error"] = r.error;
  d["specializations"] = r.specializations;
  d["examples"] = examples;
  return d;
}

// Column pointers of a (rows x columns) int64 array: in place when each column is
// contiguous (Fortran order), else one transposed copy into `scratch`.
std::vector<const int64_t*> column_pointers(const pyb::array_t<int64_t>& a, size_t ncols, std::vector<int64_t>& scratch,
                                            size_t& rows) {
  if (a.ndim() != 2 || static_cast<size_t>(a.shape(1)) != ncols)
    throw pyb::value_error(fmt::format("expected an int64 array of shape (rows, {}), got ndim {}", ncols, a.ndim()));
  if (a.shape(0) > 0 && ncols == 0) throw pyb::value_error("the graph has no input sizes");
  rows = static_cast<size_t>(a.shape(0));
  std::vector<const int64_t*> col(ncols);
  const int64_t* base = a.data();
  if (rows <= 1 || a.strides(0) == static_cast<pyb::ssize_t>(sizeof(int64_t))) {
    for (size_t c = 0; c < ncols; ++c) col[c] = reinterpret_cast<const int64_t*>(reinterpret_cast<const char*>(base) + c * a.strides(1));
    return col;
  }
  scratch.resize(rows * ncols);
  for (size_t r = 0; r < rows; ++r) {
    const int64_t* row = reinterpret_cast<const int64_t*>(reinterpret_cast<const char*>(base) + r * a.strides(0));
    for (size_t c = 0; c < ncols; ++c)
      scratch[c * rows + r] = *reinterpret_cast<const int64_t*>(reinterpret_cast<const char*>(row) + c * a.strides(1));
  }
  for (size_t c = 0; c < ncols; ++c) col[c] = scratch.data() + c * rows;
  return col;
}

// Verdicts of every row (kPass, kRankFail or the first failing clause), GIL released.
pyb::array_t<int32_t> run_guards(const GuardBatch& gb, const pyb::array_t<int64_t>& a, bool scalar, unsigned threads) {
  size_t rows = 0;
  std::vector<int64_t> scratch;
  std::vector<const int64_t*> col = column_pointers(a, gb.num_columns(), scratch, rows);
  pyb::array_t<int32_t> out(static_cast<pyb::ssize_t>(rows));
  int32_t* v = out.mutable_data();
  {
    pyb::gil_scoped_release release;
    if (scalar) gb.evaluate_scalar(col, rows, v);
    else gb.evaluate(col, rows, v, threads);
  }
  return out;
}

// `symshape infer` on a loaded graph: from `sizes`, example `example`, or the first example
// PyTorch ran; the result is infer --json's object as Python data.
pyb::object infer(const GraphPtr& g, const pyb::object& sizes, int example, bool shared_batch, uint32_t max_traces) {
  if (sizes.is_none() && example < 0)
    for (uint32_t i = 0; i < g->graph.num_examples() && example < 0; ++i)
      if (g->graph.example(i).ok()) example = int(i);
  if (sizes.is_none() && example < 0)
    raise_engine_error(ErrorKind::BadInput, fmt::format("{}: graph '{}' has no accepted example; give sizes",
                                                        g->source, g->graph.name()));
  const std::vector<std::vector<int64_t>> start = sizes_of(g->graph, sizes, example);
  infer::InferOptions opt;
  opt.shared_batch = shared_batch;
  opt.max_traces = max_traces;
  std::string text;
  {
    pyb::gil_scoped_release release;
    std::vector<std::span<const int64_t>> spans(start.begin(), start.end());
    text = infer::infer_result_json(g->graph, infer::infer_shapes(g->graph, g->rules, spans, opt)).dump();
  }
  return pyb::module_::import("json").attr("loads")(text);
}

pyb::array_t<bool> accepted(const pyb::array_t<int32_t>& verdicts) {
  pyb::array_t<bool> out(verdicts.size());
  const int32_t* v = verdicts.data();
  bool* o = out.mutable_data();
  for (pyb::ssize_t i = 0; i < verdicts.size(); ++i) o[i] = v[i] == kPass;
  return out;
}

}  // namespace

void bind_graph(pyb::module_& m) {
  m.def("supported_targets", [] {
    std::vector<std::string> out;
    for (std::string_view t : RuleTable::supported_targets()) out.emplace_back(t);
    return out;
  }, "every call_function target the engine has a rule for");
  pyb::class_<GraphHandle, GraphPtr> graph(m, "Graph", "A loaded fx-graph-json / graph.fb graph");
  graph.def_static("load", &load_path, pyb::arg("path"), pyb::arg("spec") = pyb::none(),
                   "Load a *.graph.json or *.graph.fb file; `spec` (a dynamic_shapes spec) replaces its own")
      .def_static("from_bytes", &load_bytes, pyb::arg("data"), pyb::arg("name") = "<bytes>",
                  pyb::arg("spec") = pyb::none(), "Load fx-graph-json text or graph.fb bytes")
      .def_property_readonly("name", [](const GraphHandle& h) { return std::string(h.graph.name()); })
      .def_property_readonly("num_examples", [](const GraphHandle& h) { return h.graph.num_examples(); })
      .def_property_readonly("nodes",
                             [](const GraphHandle& h) {
                               std::vector<std::string> out;
                               for (uint32_t i = 0; i < h.graph.num_nodes(); ++i)
                                 out.emplace_back(h.graph.node_name(NodeId(i)));
                               return out;
                             })
      .def_property_readonly("inputs",
                             [](const GraphHandle& h) {
                               pyb::list out;
                               for (uint32_t p = 0; p < h.graph.num_placeholders(); ++p) {
                                 const PlaceholderId ph(p);
                                 out.append(pyb::make_tuple(std::string(h.graph.node_name(h.graph.placeholder_node(ph))),
                                                            h.graph.placeholder_rank(ph),
                                                            std::string(dtype_name(h.graph.placeholder_dtype(ph)))));
                               }
                               return out;
                             })
      .def("propagate", &propagate, pyb::arg("sizes") = pyb::none(), pyb::arg("example") = -1,
           pyb::arg("policy") = "spec", pyb::arg("host") = "fake", pyb::arg("strides") = "eager",
           "Propagate with input sizes ({name: [d0, ...]}) or example i's sizes; policy spec|duck|static; "
           "host fake (FakeTensorMode, torch.compile: the default) | export (torch.export: mkldnn off); "
           "strides eager (the eager kernels', the default) | fake (FakeTensorMode's where they differ: a "
           "view's size-1 dims)")
      .def("conform",
           [](const GraphPtr& g) {
             GraphResult r;
             {
               pyb::gil_scoped_release release;
               r = conform_graph(g->graph, g->rules);
             }
             r.file = g->source;
             return conform_dict(r);
           },
           "Run every golden example through the specialisation cache (`symshape conform` for one graph)");
  graph.def("infer", &infer, pyb::arg("sizes") = pyb::none(), pyb::arg("example") = -1,
            pyb::arg("shared_batch") = false, pyb::arg("max_traces") = 0u,
            "Shape inference (`symshape infer --json`): nearest valid sizes, the most general spec, every "
            "constraint learned with its node, or the minimal conflicting checks");
  bind_spec(m, graph);

  pyb::class_<PropagationHandle, PropPtr>(m, "Propagation", "One propagation: node values and guards")
      .def_property_readonly("nodes", [](const PropagationHandle& p) { return node_list(p, false); },
                             "every node: name, target, value (symbolic shape/stride/dtype or expression)")
      .def("concrete_nodes", [](const PropagationHandle& p) { return node_list(p, true); },
           "every node's value evaluated at the propagated sizes")
      .def_property_readonly("symbol_sources",
                             [](const PropagationHandle& p) {
                               // symbol name -> the input sources it was created for, in order
                               // (what the differential harness matches PyTorch's symbols by)
                               ShapeEnv& env = p.env();
                               const ExprArena& ar = env.arena();
                               pyb::dict out;
                               for (uint32_t i = 0; i < ar.symbol_count(); ++i) {
                                 const ExprId sym = ar.symbol_expr(SymbolId(i));
                                 pyb::list names;
                                 for (SourceId s : env.symbol_sources(sym)) names.append(env.sources().name(s));
                                 out[pyb::str(std::string(ar.symbol_name(sym)))] = names;
                               }
                               return out;
                             })
      .def_property_readonly("guards", [](const PropagationHandle& p) { return p.guards().text; })
      .def_property_readonly("runtime_asserts",
                             [](const PropagationHandle& p) {
                               std::vector<std::string> out;
                               for (const RuntimeAssert& ra : p.env().runtime_asserts())
                                 out.push_back(to_str(p.env().arena(), ra.expr));
                               return out;
                             })
      .def_property_readonly("guard_exprs",
                             [](const PropagationHandle& p) {
                               std::vector<ExprId> es;
                               for (ExprId e : p.guards().exprs)
                                 if (e.valid()) es.push_back(e);
                               return texts(p.env().arena(), es);
                             })
      .def("compile_guards", [](const PropPtr& p) { return std::make_shared<GuardBatch>(p); },
           "Compile the guards for batch verdicts over NumPy size arrays");

  pyb::class_<GuardBatch, std::shared_ptr<GuardBatch>>(m, "GuardProgram",
                                                       "Guards compiled for batch evaluation over size columns")
      .def_property_readonly("columns", &GuardBatch::column_names,
                             "the column order of the (rows x columns) int64 size array")
      .def_property_readonly("clauses", [](const GuardBatch& gb) { return gb.program().clause_text; },
                             "the guard text of each clause (first_failing indexes this)")
      .def_property_readonly("instructions", [](const GuardBatch& gb) { return gb.program().num_instructions(); })
      .def("evaluate",
           [](const GuardBatch& gb, const pyb::array_t<int64_t>& a, unsigned threads) {
             return accepted(run_guards(gb, a, false, threads));
           },
           pyb::arg("sizes"), pyb::arg("threads") = 0,
           "Accepted? (bool array) for every row; the array is read in place when Fortran-ordered; GIL released")
      .def("first_failing",
           [](const GuardBatch& gb, const pyb::array_t<int64_t>& a, unsigned threads) {
             return run_guards(gb, a, false, threads);
           },
           pyb::arg("sizes"), pyb::arg("threads") = 0,
           "int32 per row: -1 accepted, -2 wrong rank, else the index of the first failing clause")
      .def("evaluate_scalar",
           [](const GuardBatch& gb, const pyb::array_t<int64_t>& a) { return accepted(run_guards(gb, a, true, 1)); },
           pyb::arg("sizes"), "The same verdicts from the scalar evaluator, row by row (the C++ reference)")
      .def("first_failing_scalar",
           [](const GuardBatch& gb, const pyb::array_t<int64_t>& a) { return run_guards(gb, a, true, 1); },
           pyb::arg("sizes"), "first_failing from the scalar reference");
}

}  // namespace symshape::py
