#include "graph/validate.h"

#include <fmt/format.h>

#include "spec/dim.h"
#include "spec/spec_error.h"

#include <vector>

#include "core/checked_math.h"
#include "graph/json_error_locator.h"

namespace symshape {
namespace {

std::string q(std::string_view s) {
  std::string p = printable(s.substr(0, 64));
  return s.size() > 64 ? "'" + p + "...'" : "'" + p + "'";
}

bool is_ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

bool is_identifier(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s)
    if (!is_ident_char(c)) return false;
  return true;
}

// "aten.add.Tensor", "operator.getitem": an identifier then one or more .parts.
bool is_op_target(std::string_view s) {
  size_t dot = s.find('.');
  if (dot == std::string_view::npos || !is_identifier(s.substr(0, dot))) return false;
  std::string_view rest = s.substr(dot + 1);
  while (true) {
    size_t next = rest.find('.');
    std::string_view part = rest.substr(0, next);
    if (part.empty()) return false;
    for (char c : part)
      if (!is_ident_char(c)) return false;
    if (next == std::string_view::npos) return true;
    rest = rest.substr(next + 1);
  }
}

// get_attr targets are module paths ("layer1.0.conv1.weight", "block1-0.proj.weight"):
// PyTorch module names are free-form, so only empty segments and control/space bytes
// are rejected.
bool is_module_path(std::string_view s) {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c <= 0x20 || c == 0x7f || (c == '.' && s[i + 1] == '.')) return false;
  }
  return true;
}

class Reporter {
 public:
  Reporter(const Graph& g, std::string_view file, Diagnostics& d) : g_(g), file_(file), d_(d) {}

  bool full() const { return added_ > kMaxDiagnosticsPerGraph; }
  void add(GraphErrc code, int64_t node, std::string field, std::string message) {
    if (full()) return;
    Diagnostic d;
    d.file = std::string(file_);
    d.graph = printable(g_.name());
    if (++added_ > kMaxDiagnosticsPerGraph) {
      d.code = GraphErrc::Limit;
      d.message = fmt::format("more than {} problems; stopping", kMaxDiagnosticsPerGraph);
    } else {
      d.code = code;
      d.node = node;
      if (node >= 0) d.node_name = printable(g_.node_name(NodeId(uint32_t(node))).substr(0, 64));
      d.field = std::move(field);
      d.message = std::move(message);
    }
    d_.add(std::move(d));
  }
  size_t added() const { return added_; }

 private:
  const Graph& g_;
  std::string_view file_;
  Diagnostics& d_;
  size_t added_ = 0;
};

// Where an ARG sits in its node: args[index] or kwargs.<key>. Formatted only on error,
// so validating a correct graph allocates nothing per node.
struct ArgRoot {
  uint32_t index;
  std::string_view kwarg;  // non-empty for a kwarg
  std::string format(const std::vector<uint32_t>& path) const {
    std::string out = kwarg.empty() ? fmt::format("args[{}]", index) : fmt::format("kwargs.{}", kwarg);
    for (uint32_t i : path) fmt::format_to(std::back_inserter(out), "[{}]", i);
    return out;
  }
};

// Where a golden VALUE sits: examples[e].output or examples[e].values.<node>.
struct ValueRoot {
  const Graph& g;
  uint32_t example;
  NodeId node;
  std::string format(const std::vector<uint32_t>& path, std::string_view suffix) const {
    std::string out = node == g.output_node() ? fmt::format("examples[{}].output", example)
                                              : fmt::format("examples[{}].values.{}", example, g.node_name(node));
    for (uint32_t i : path) fmt::format_to(std::back_inserter(out), "[{}]", i);
    out += suffix;
    return out;
  }
};

void check_refs(Reporter& r, const Graph& g, NodeId n, ArgId a, const ArgRoot& root, std::vector<uint32_t>& path) {
  if (r.full()) return;
  switch (g.arg_kind(a)) {
    case ArgKind::Node: {
      NodeId ref = g.arg_node(a);
      if (ref == n) {
        r.add(GraphErrc::SelfRef, n.index(), root.format(path), "node refers to itself");
      } else if (ref.index() > n.index()) {
        r.add(GraphErrc::ForwardRef, n.index(), root.format(path),
              fmt::format("reference to node {} (#{}) which is defined later; nodes must be in topological order",
                          q(g.node_name(ref)), ref.index()));
      }
      return;
    }
    case ArgKind::List: {
      uint32_t i = 0;
      for (ArgId item : g.list_items(a)) {
        path.push_back(i++);
        check_refs(r, g, n, item, root, path);
        path.pop_back();
      }
      return;
    }
    default: return;
  }
}

void check_nonnegative(Reporter& r, int64_t node, std::span<const int64_t> v, std::string_view field,
                       const char* what) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] < 0) r.add(GraphErrc::BadValue, node, fmt::format("{}[{}]", field, i), fmt::format("negative {} {}", what, v[i]));
}

void check_value(Reporter& r, const Graph& g, ValueId v, const ValueRoot& root, std::vector<uint32_t>& path) {
  if (r.full()) return;
  if (g.value_kind(v) == ValueKind::Tensor) {
    for (int which = 0; which < 2; ++which) {
      std::span<const int64_t> dims = which == 0 ? g.value_shape(v) : g.value_stride(v);
      for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] >= 0) continue;
        r.add(GraphErrc::BadValue, -1, root.format(path, fmt::format(".{}[{}]", which == 0 ? "shape" : "stride", i)),
              fmt::format("negative {} {}", which == 0 ? "size" : "stride", dims[i]));
      }
    }
  } else if (g.value_kind(v) == ValueKind::List) {
    uint32_t i = 0;
    for (ValueId item : g.value_items(v)) {
      path.push_back(i++);
      check_value(r, g, item, root, path);
      path.pop_back();
    }
  }
}

void check_node(Reporter& r, const Graph& g, NodeId n, std::vector<uint32_t>& path) {
  const GraphStore& s = g.store();
  const int64_t ni = n.index();
  const std::string_view name = g.node_name(n);
  const std::string_view target = g.node_target(n);
  if (!is_identifier(name))
    r.add(GraphErrc::BadValue, ni, "name", fmt::format("invalid node name {} (must match [A-Za-z_][A-Za-z0-9_]*)", q(name)));
  NodeId first = g.find_node(name);
  if (first != n)
    r.add(GraphErrc::DuplicateName, ni, "name", fmt::format("duplicate node name {} (first defined at node #{})", q(name), first.index()));
  switch (g.node_kind(n)) {
    case NodeKind::Placeholder: {
      if (target != name) r.add(GraphErrc::BadValue, ni, "target", fmt::format("placeholder target {} differs from its name", q(target)));
      PlaceholderId p = g.placeholder_of(n);
      if (auto range = g.placeholder_range(p); range && range->lo >= range->hi)
        r.add(GraphErrc::BadValue, ni, "meta.range", fmt::format("empty range [{}, {})", range->lo, range->hi));
      break;
    }
    case NodeKind::GetAttr: {
      if (!is_module_path(target))
        r.add(GraphErrc::BadValue, ni, "target", fmt::format("invalid get_attr target {} (expected a dotted module path without empty parts or spaces)", q(target)));
      if (const Graph* sub = g.subgraph_of(n)) {
        if (&sub->ops() != &g.ops())
          r.add(GraphErrc::Inconsistent, ni, "target", fmt::format("subgraph {} does not share the graph's op table", q(target)));
        break;
      }
      AttrId a = g.attr_of(n);
      check_nonnegative(r, ni, g.attr_shape(a), "meta.shape", "size");
      check_nonnegative(r, ni, g.attr_stride(a), "meta.stride", "stride");
      int64_t numel = 1;
      bool overflow = false;
      for (int64_t d : g.attr_shape(a)) {
        auto m = try_mul(numel, d < 0 ? 0 : d);
        overflow = overflow || !m;
        numel = m.value_or(0);
      }
      if (overflow) r.add(GraphErrc::IntRange, ni, "meta.shape", "number of elements overflows int64");
      if (g.attr_has_data(a)) {
        std::span<const int64_t> data = g.attr_data(a);
        if (!overflow && int64_t(data.size()) != numel)
          r.add(GraphErrc::Inconsistent, ni, "meta.data", fmt::format("data has {} elements but the shape has {}", data.size(), numel));
        int64_t lo, hi;
        dtype_int_range(g.attr_dtype(a), lo, hi);
        for (size_t i = 0; i < data.size(); ++i) {
          if (data[i] < lo || data[i] > hi) {
            r.add(GraphErrc::IntRange, ni, fmt::format("meta.data[{}]", i),
                  fmt::format("value {} is outside the range of {}", data[i], dtype_name(g.attr_dtype(a))));
            break;
          }
        }
      }
      break;
    }
    case NodeKind::CallFunction:
      if (!is_op_target(target))
        r.add(GraphErrc::BadValue, ni, "target",
              fmt::format("invalid call_function target {} (expected 'aten.<op>.<overload>' or 'operator.<name>')", q(target)));
      break;
    case NodeKind::Output:
      if (target != "output") r.add(GraphErrc::BadValue, ni, "target", fmt::format("output target {} must be 'output'", q(target)));
      if (g.node_args(n).size() != 1)
        r.add(GraphErrc::Output, ni, "args", fmt::format("the output node must have exactly one ARG, not {}", g.node_args(n).size()));
      break;
  }
  std::span<const ArgId> args = g.node_args(n);
  for (uint32_t i = 0; i < args.size(); ++i) check_refs(r, g, n, args[i], ArgRoot{i, {}}, path);
  for (const Kwarg& kw : g.node_kwargs(n)) check_refs(r, g, n, kw.value, ArgRoot{0, s.ops->key_name(kw.key)}, path);
}

void check_output(Reporter& r, const Graph& g) {
  const uint32_t n = g.num_nodes();
  if (!g.output_node().valid()) {
    r.add(GraphErrc::Output, -1, "nodes", "missing output node (the last node must have op 'output')");
    return;
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (g.node_kind(NodeId(i)) != NodeKind::Output) continue;
    if (NodeId(i) != g.output_node())
      r.add(GraphErrc::Output, i, "op", fmt::format("extra output node (a graph has exactly one; the first is #{})", g.output_node().index()));
    else if (i + 1 != n)
      r.add(GraphErrc::Output, i, "op", fmt::format("the output node must be the last node, but {} node(s) follow it", n - 1 - i));
  }
}

void check_spec(Reporter& r, const Graph& g) {
  for (uint32_t i = 0; i < g.num_syms(); ++i) {
    SymId sym(i);
    std::string field = fmt::format("dynamic_shapes.dims.{}", printable(g.sym_name(sym)));
    if (g.sym_min(sym) < 0) r.add(GraphErrc::BadValue, -1, field + ".min", fmt::format("negative min {}", g.sym_min(sym)));
    if (auto max = g.sym_max(sym); max && *max < g.sym_min(sym))
      r.add(GraphErrc::BadValue, -1, field + ".max", fmt::format("max {} is below min {}", *max, g.sym_min(sym)));
  }
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    PlaceholderId ph(p);
    if (!g.spec_has(ph)) continue;
    std::string_view name = g.node_name(g.placeholder_node(ph));
    std::string field = fmt::format("dynamic_shapes.dynamic_shapes.{}", name);
    std::span<const SpecDim> dims = g.spec_dims(ph);
    if (dims.size() != g.placeholder_rank(ph))
      r.add(GraphErrc::Inconsistent, -1, field,
            fmt::format("{} dimensions given but placeholder {} has rank {}", dims.size(), q(name), g.placeholder_rank(ph)));
    for (size_t d = 0; d < dims.size(); ++d) {
      if (!dims[d].sym.valid() && dims[d].size < 0)
        r.add(GraphErrc::BadValue, -1, fmt::format("{}[{}]", field, d), fmt::format("negative size {}", dims[d].size));
      const SpecDimFn fn = g.spec_dim_fn(ph, uint32_t(d));
      if (!dims[d].sym.valid() || fn.identity()) continue;
      // a derived dim's bounds, as _DerivedDim.min / .max assert them (F.2)
      const SymId sym = dims[d].sym;
      const std::optional<int64_t> max = g.sym_max(sym);
      const spec::DimRef ref{spec::RootDim{std::string(g.sym_name(sym)), g.sym_min(sym), max.value_or(0), max.has_value()},
                             spec::LinearFn{fn.mul, fn.add}};
      try {
        (void)spec::dim_min(ref);
        (void)spec::dim_max(ref);
      } catch (const spec::SpecError& e) {
        r.add(GraphErrc::BadValue, -1, fmt::format("{}[{}]", field, d), e.what());
      }
    }
  }
}

void check_example(Reporter& r, const Graph& g, ExampleId e, std::vector<uint32_t>& path) {
  const GraphStore& s = g.store();
  ExampleView ex = g.example(e);
  const std::string base = fmt::format("examples[{}]", e.index());
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    std::string_view name = g.node_name(g.placeholder_node(PlaceholderId(p)));
    if (!s.ex_inputs[size_t(e.index()) * g.num_placeholders() + p].present()) {
      r.add(GraphErrc::MissingField, -1, base + ".inputs", fmt::format("missing input for placeholder {}", q(name)));
      continue;
    }
    check_nonnegative(r, -1, ex.input_sizes(PlaceholderId(p)), base + ".inputs." + std::string(name), "size");
  }
  const bool has_output = ex.output().valid();
  const bool has_values = s.ex_has_values[e.index()] != 0;
  // Without an output node the output VALUE had nowhere to go; check_output reported it.
  const bool has_output_node = g.output_node().valid();
  if (ex.ok()) {
    if (!has_output && has_output_node) r.add(GraphErrc::MissingField, -1, base, "missing field 'output' (required when ok is true)");
    if (!has_values) r.add(GraphErrc::MissingField, -1, base, "missing field 'values' (required when ok is true)");
    if (ex.has_error()) r.add(GraphErrc::Inconsistent, -1, base + ".error", "a successful example must not have an error");
    if (has_values) {
      uint32_t missing = 0;
      NodeId first_missing;
      for (uint32_t i = 0; i < g.num_nodes(); ++i) {
        if (g.node_kind(NodeId(i)) == NodeKind::Output || ex.golden(NodeId(i)).valid()) continue;
        if (missing++ == 0) first_missing = NodeId(i);
      }
      if (missing)
        r.add(GraphErrc::MissingField, -1, base + ".values",
              fmt::format("no value for {} node(s), first {} (every node except output needs one)", missing,
                          q(g.node_name(first_missing))));
    }
  } else {
    if (!ex.has_error()) r.add(GraphErrc::MissingField, -1, base, "missing field 'error' (required when ok is false)");
    if (has_output) r.add(GraphErrc::Inconsistent, -1, base + ".output", "a failed example must not have an output");
    if (has_values) r.add(GraphErrc::Inconsistent, -1, base + ".values", "a failed example must not have values");
  }
  for (uint32_t i = 0; i < g.num_nodes() && !r.full(); ++i) {
    ValueId v = ex.golden(NodeId(i));
    if (!v.valid()) continue;
    check_value(r, g, v, ValueRoot{g, e.index(), NodeId(i)}, path);
  }
}

}  // namespace

bool validate_graph(const Graph& g, std::string_view file, Diagnostics& diags) {
  Reporter r(g, file, diags);
  std::vector<uint32_t> path;  // list indices below the current ARG/VALUE, reused
  check_output(r, g);
  for (uint32_t i = 0; i < g.num_nodes() && !r.full(); ++i) check_node(r, g, NodeId(i), path);
  check_spec(r, g);
  for (uint32_t e = 0; e < g.num_examples() && !r.full(); ++e) check_example(r, g, ExampleId(e), path);
  return r.added() == 0;
}

}  // namespace symshape
