#include "graph/json_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "spec/dim.h"

namespace symshape {
namespace {

using ojson = nlohmann::ordered_json;
using ObjectVec = std::vector<std::pair<const std::string, ojson>>;

// ordered_map::operator[] scans for an existing key; a `values` object with one entry
// per node would be quadratic, so keys known to be unique are appended directly.
void append_unique(ojson& obj, std::string_view key, ojson value) {
  static_cast<ObjectVec&>(obj.get_ref<ojson::object_t&>()).emplace_back(std::string(key), std::move(value));
}

const char* nonfinite_name(double v) { return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"); }

ojson ints(std::span<const int64_t> v) {
  ojson a = ojson::array();
  for (int64_t x : v) a.push_back(x);
  return a;
}

ojson arg_json(const Graph& g, ArgId a) {
  switch (g.arg_kind(a)) {
    case ArgKind::None: return nullptr;
    case ArgKind::Node: return ojson{{"node", g.node_name(g.arg_node(a))}};
    case ArgKind::Int: return g.arg_int(a);
    case ArgKind::Float: {
      double v = g.arg_float(a);
      return std::isfinite(v) ? ojson(v) : ojson{{"float", nonfinite_name(v)}};
    }
    case ArgKind::Bool: return g.arg_bool(a);
    case ArgKind::String: return std::string(g.arg_string(a));
    case ArgKind::DType: return ojson{{"dtype", dtype_name(g.arg_dtype(a))}};
    case ArgKind::Device: return ojson{{"device", g.arg_string(a)}};
    case ArgKind::Layout: return ojson{{"layout", g.arg_string(a)}};
    case ArgKind::MemoryFormat: return ojson{{"memory_format", memory_format_name(g.arg_memory_format(a))}};
    case ArgKind::List: {
      ojson arr = ojson::array();
      for (ArgId item : g.list_items(a)) arr.push_back(arg_json(g, item));
      return arr;
    }
  }
  return nullptr;
}

ojson value_json(const Graph& g, ValueId v) {
  switch (g.value_kind(v)) {
    case ValueKind::Null: return nullptr;
    case ValueKind::Tensor: {
      ojson t = ojson::object();
      t["shape"] = ints(g.value_shape(v));
      t["stride"] = ints(g.value_stride(v));
      t["dtype"] = dtype_name(g.value_dtype(v));
      return t;
    }
    case ValueKind::Int: return ojson{{"int", g.value_int(v)}};
    case ValueKind::Bool: return ojson{{"bool", g.value_bool(v)}};
    case ValueKind::Float: {
      double x = g.value_float(v);
      return ojson{{"float", std::isfinite(x) ? ojson(x) : ojson(nonfinite_name(x))}};
    }
    case ValueKind::List: {
      ojson arr = ojson::array();
      for (ValueId item : g.value_items(v)) arr.push_back(value_json(g, item));
      return arr;
    }
  }
  return nullptr;
}

ojson node_json(const Graph& g, NodeId n) {
  ojson j = ojson::object();
  j["name"] = g.node_name(n);
  j["op"] = node_kind_name(g.node_kind(n));
  j["target"] = g.node_target(n);
  const GraphStore& s = g.store();
  if (s.node_args[n.index()].present()) {
    ojson args = ojson::array();
    for (ArgId a : g.node_args(n)) args.push_back(arg_json(g, a));
    j["args"] = std::move(args);
  }
  if (s.node_kwargs[n.index()].present()) {
    ojson kw = ojson::object();
    for (const Kwarg& k : g.node_kwargs(n)) append_unique(kw, g.ops().key_name(k.key), arg_json(g, k.value));
    j["kwargs"] = std::move(kw);
  }
  if (PlaceholderId p = g.placeholder_of(n); p.valid()) {
    ojson meta = ojson::object();
    meta["dtype"] = dtype_name(g.placeholder_dtype(p));
    meta["rank"] = g.placeholder_rank(p);
    if (auto r = g.placeholder_range(p)) meta["range"] = ojson::array({r->lo, r->hi});
    j["meta"] = std::move(meta);
  }
  if (g.subgraph_of(n))
    throw_error(ErrorKind::Unsupported,
                fmt::format("get_attr {} names a subgraph, which fx-graph-json cannot carry", g.node_name(n)));
  if (AttrId a = g.attr_of(n); a.valid()) {
    ojson meta = ojson::object();
    meta["shape"] = ints(g.attr_shape(a));
    meta["dtype"] = dtype_name(g.attr_dtype(a));
    meta["stride"] = ints(g.attr_stride(a));
    if (g.attr_has_data(a)) {
      ojson data = ojson::array();
      for (int64_t x : g.attr_data(a)) {
        if (g.attr_dtype(a) == DType::Bool) data.push_back(x != 0);
        else data.push_back(x);
      }
      meta["data"] = std::move(data);
    }
    j["meta"] = std::move(meta);
  }
  return j;
}

// A derived dim is written as DynamicShapesSpec does: the leaf is its text (`b + 1`) and
// its root's `derived` lists the texts the inputs use, sorted.
ojson spec_json(const Graph& g) {
  std::vector<std::vector<std::string>> derived(g.num_syms());
  ojson shapes = ojson::object();
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    PlaceholderId ph(p);
    if (!g.spec_has(ph)) continue;
    ojson dims = ojson::array();
    std::span<const SpecDim> spec = g.spec_dims(ph);
    for (uint32_t k = 0; k < spec.size(); ++k) {
      const SpecDim& d = spec[k];
      if (!d.sym.valid()) {
        dims.push_back(d.size);
        continue;
      }
      const SpecDimFn fn = g.spec_dim_fn(ph, k);
      if (fn.identity()) {
        dims.push_back(g.sym_name(d.sym));
        continue;
      }
      std::string text = spec::derived_name(g.sym_name(d.sym), spec::LinearFn{fn.mul, fn.add});
      derived[d.sym.index()].push_back(text);
      dims.push_back(std::move(text));
    }
    append_unique(shapes, g.node_name(g.placeholder_node(ph)), std::move(dims));
  }
  ojson dims = ojson::object();
  for (uint32_t i = 0; i < g.num_syms(); ++i) {
    SymId sym(i);
    ojson d = ojson::object();
    d["min"] = g.sym_min(sym);
    d["max"] = g.sym_max(sym) ? ojson(*g.sym_max(sym)) : ojson(nullptr);
    std::vector<std::string>& names = derived[i];
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    d["derived"] = ojson::array();
    for (std::string& n : names) d["derived"].push_back(std::move(n));
    append_unique(dims, g.sym_name(sym), std::move(d));
  }
  ojson spec = ojson::object();
  spec["dynamic_shapes"] = std::move(shapes);
  spec["dims"] = std::move(dims);
  return spec;
}

ojson example_json(const Graph& g, ExampleId e) {
  const GraphStore& s = g.store();
  ExampleView ex = g.example(e);
  ojson j = ojson::object();
  ojson inputs = ojson::object();
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    if (!s.ex_inputs[size_t(e.index()) * g.num_placeholders() + p].present()) continue;
    append_unique(inputs, g.node_name(g.placeholder_node(PlaceholderId(p))), ints(ex.input_sizes(PlaceholderId(p))));
  }
  j["inputs"] = std::move(inputs);
  j["seed"] = ex.seed();
  j["in_spec"] = ex.in_spec();
  j["ok"] = ex.ok();
  if (ex.output().valid()) j["output"] = value_json(g, ex.output());
  if (s.ex_has_values[e.index()]) {
    ojson values = ojson::object();
    for (uint32_t i = 0; i < g.num_nodes(); ++i) {
      NodeId n(i);
      ValueId v = ex.golden(n);
      if (n != g.output_node() && v.valid()) append_unique(values, g.node_name(n), value_json(g, v));
    }
    j["values"] = std::move(values);
  }
  if (ex.has_error()) j["error"] = ex.error();
  if (ex.error_kind() != ExampleErrorKind::None) j["error_kind"] = example_error_kind_name(ex.error_kind());
  if (ex.error_node().valid()) j["error_node"] = g.node_name(ex.error_node());
  return j;
}

}  // namespace

std::string write_graph_json(const Graph& g, int indent) {
  ojson root = ojson::object();
  root["format"] = "fx-graph-json";
  root["version"] = g.store().format_version;
  root["name"] = g.name();
  if (!g.producer_json().empty()) root["producer"] = ojson::parse(g.producer_json());
  ojson nodes = ojson::array();
  for (uint32_t i = 0; i < g.num_nodes(); ++i) nodes.push_back(node_json(g, NodeId(i)));
  root["nodes"] = std::move(nodes);
  root["dynamic_shapes"] = spec_json(g);
  ojson examples = ojson::array();
  for (uint32_t e = 0; e < g.num_examples(); ++e) examples.push_back(example_json(g, ExampleId(e)));
  root["examples"] = std::move(examples);
  // The loader guarantees valid UTF-8, so `strict` never throws on loaded graphs.
  return root.dump(indent, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::strict);
}

bool write_graph_json_file(const Graph& g, const std::string& path, std::string& error, int indent) {
  std::string text = write_graph_json(g, indent);
  text += '\n';
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    error = "cannot open for writing";
    return false;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) error = "write failed";
  return ok;
}

}  // namespace symshape
