// dynamic_shapes specs for Python: the DynamicShapesSpec dictionary form (load, dump,
// spec.fb), a spec applied to a loaded graph, and export's constraint check with its report,
// suggested fixes and corrected spec (docs/specs.md). A spec is given as a dict (the
// dictionary form), JSON text, spec.fb bytes, or a path to either file.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "engine_handle.h"
#include "formats/spec_fb.h"
#include "spec/apply_spec.h"
#include "spec/graph_spec.h"
#include "spec/spec_check.h"
#include "spec/spec_json.h"

namespace pyb = pybind11;

namespace symshape::py {

namespace {

using GraphPtr = std::shared_ptr<GraphHandle>;

bool starts_like_json(std::string_view s) {
  const size_t i = s.find_first_not_of(" \t\r\n");
  return i != std::string_view::npos && s[i] == '{';
}

}  // namespace

spec::DynamicShapes spec_from_python(const pyb::handle& obj) {
  if (pyb::isinstance<pyb::dict>(obj)) {
    const std::string text = pyb::module_::import("json").attr("dumps")(obj).cast<std::string>();
    return spec::load_spec_json(text);
  }
  if (pyb::isinstance<pyb::bytes>(obj)) {
    const std::string bytes = obj.cast<std::string>();
    if (is_spec_fb(bytes)) return load_spec_fb(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    return spec::load_spec_json(bytes);
  }
  if (pyb::isinstance<pyb::str>(obj) || pyb::hasattr(obj, "__fspath__")) {
    const std::string s = pyb::str(pyb::module_::import("os").attr("fspath")(obj)).cast<std::string>();
    return starts_like_json(s) ? spec::load_spec_json(s) : load_spec_file(s);
  }
  throw pyb::type_error("a spec is a dict (DynamicShapesSpec form), JSON text, spec.fb bytes or a file path");
}

void apply_python_spec(GraphHandle& h, const pyb::handle& spec) {
  if (spec.is_none()) return;
  spec::DynamicShapes s = spec_from_python(spec);
  spec::apply_spec(h.graph, s);
  h.spec = std::move(s);
}

namespace {

pyb::object json_object(const std::string& text) { return pyb::module_::import("json").attr("loads")(text); }

// The spec the graph runs under: the one applied at load, else its own spec columns.
spec::DynamicShapes current_spec(const GraphHandle& h) { return h.spec ? *h.spec : spec::spec_of_graph(h.graph); }

pyb::dict check(const GraphHandle& h) {
  const spec::DynamicShapes s = current_spec(h);
  spec::SpecCheckResult r;
  {
    pyb::gil_scoped_release release;
    r = spec::check_spec(h.graph, h.rules, &s);
  }
  if (!r.checked) raise_engine_error(ErrorKind::BadInput, h.source + ": " + r.error);
  static constexpr const char* kKinds[] = {"specialized", "related", "guard", "narrowed"};
  pyb::list violations;
  for (const spec::Violation& v : r.violations) {
    pyb::dict d;
    d["kind"] = kKinds[int(v.kind)];
    d["dim"] = v.dim;
    d["message"] = v.message;
    d["cause"] = v.cause;
    violations.append(d);
  }
  pyb::dict forced;
  for (const auto& [k, v] : r.forced) forced[pyb::str(k)] = v;
  pyb::list conflicts;
  for (const spec::HintConflict& c : r.hint_conflicts) conflicts.append(c.message);
  const std::string report = spec::format_violations(r), hints = spec::format_hint_conflicts(r);
  pyb::dict out;
  out["ok"] = r.ok();
  out["example"] = r.example;
  out["violations"] = violations;
  out["forced_specializations"] = forced;
  out["hint_conflicts"] = conflicts;
  // torch.export's range constraints of every Dim leaf: "<input>[i]" -> [min, max or None] / "static N"
  pyb::dict ranges;
  for (const spec::ExportedRange& e : r.ranges) {
    const std::string key = spec::exported_range_key(h.graph, e);
    if (e.is_static) ranges[pyb::str(key)] = fmt::format("static {}", e.lo);
    else {
      pyb::list lohi;
      lohi.append(e.lo);
      lohi.append(e.hi ? pyb::object(pyb::int_(*e.hi)) : pyb::none());
      ranges[pyb::str(key)] = lohi;
    }
  }
  out["ranges"] = ranges;
  out["report"] = report + (hints.empty() ? "" : (report.empty() ? "" : "\n") + hints);
  out["beyond_pytorch_fixes"] = spec::format_beyond_pytorch_fixes(r);
  out["corrected_spec"] = json_object(spec::dump_spec_json(spec::corrected_spec(h.graph, s, r)));
  return out;
}

}  // namespace

void bind_spec(pyb::module_& m, pyb::class_<GraphHandle, GraphPtr>& graph) {
  m.def("load_spec",
        [](const pyb::object& spec) { return json_object(spec::dump_spec_json(spec_from_python(spec))); },
        pyb::arg("spec"),
        "Validate a spec (dict, JSON text, spec.fb bytes or path) with PyTorch's loader checks; "
        "returns its canonical DynamicShapesSpec dict");
  m.def("dump_spec",
        [](const pyb::object& spec) { return spec::dump_spec_json(spec_from_python(spec)); }, pyb::arg("spec"),
        "The spec's canonical JSON text (identical text for identical specs)");
  m.def("spec_to_fb",
        [](const pyb::object& spec) {
          const std::vector<uint8_t> fb = dump_spec_fb(spec_from_python(spec));
          return pyb::bytes(reinterpret_cast<const char*>(fb.data()), fb.size());
        },
        pyb::arg("spec"), "The spec.fb FlatBuffers bytes of a spec");
  graph.def_property_readonly(
           "spec", [](const GraphHandle& h) { return json_object(spec::dump_spec_json(current_spec(h))); },
           "the dynamic_shapes spec the graph runs under (DynamicShapesSpec dict)")
      .def("check_spec", &check,
           "Export's constraint check of the graph's spec: ok, violations (kind, dim, message, cause), "
           "forced_specializations, hint_conflicts, report (PyTorch's text), corrected_spec");
}

}  // namespace symshape::py
