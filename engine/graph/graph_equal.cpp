#include "graph/graph_equal.h"

#include <fmt/format.h>

namespace symshape {
namespace {

struct Differ {
  const Graph& a;
  const Graph& b;
  std::string diff;

  bool fail(std::string what) {
    if (diff.empty()) diff = std::move(what);
    return false;
  }

  bool args(ArgId x, ArgId y, const std::string& where) {
    if (a.arg_kind(x) != b.arg_kind(y)) return fail(where + ": ARG kinds differ");
    switch (a.arg_kind(x)) {
      case ArgKind::None: return true;
      case ArgKind::Node: return a.arg_node(x) == b.arg_node(y) || fail(where + ": node reference differs");
      case ArgKind::Int: return a.arg_int(x) == b.arg_int(y) || fail(where + ": int differs");
      case ArgKind::Float:
        return a.store().arg_payload[x.index()] == b.store().arg_payload[y.index()] || fail(where + ": float differs");
      case ArgKind::Bool: return a.arg_bool(x) == b.arg_bool(y) || fail(where + ": bool differs");
      case ArgKind::String:
      case ArgKind::Device:
      case ArgKind::Layout: return a.arg_string(x) == b.arg_string(y) || fail(where + ": string differs");
      case ArgKind::DType: return a.arg_dtype(x) == b.arg_dtype(y) || fail(where + ": dtype differs");
      case ArgKind::MemoryFormat:
        return a.arg_memory_format(x) == b.arg_memory_format(y) || fail(where + ": memory format differs");
      case ArgKind::List: {
        auto xs = a.list_items(x), ys = b.list_items(y);
        if (xs.size() != ys.size()) return fail(where + ": list lengths differ");
        for (size_t i = 0; i < xs.size(); ++i)
          if (!args(xs[i], ys[i], fmt::format("{}[{}]", where, i))) return false;
        return true;
      }
    }
    return fail(where + ": bad ARG kind");
  }

  template <class T>
  static bool same(std::span<const T> x, std::span<const T> y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end());
  }

  bool values(ValueId x, ValueId y, const std::string& where) {
    if (x.valid() != y.valid()) return fail(where + ": present in only one graph");
    if (!x.valid()) return true;
    if (a.value_kind(x) != b.value_kind(y)) return fail(where + ": VALUE kinds differ");
    const uint64_t px = a.store().value_payload[x.index()], py = b.store().value_payload[y.index()];
    switch (a.value_kind(x)) {
      case ValueKind::Null: return true;
      case ValueKind::Int:
      case ValueKind::Bool:
      case ValueKind::Float: return px == py || fail(where + ": scalar differs");
      case ValueKind::Tensor:
        return (same(a.value_shape(x), b.value_shape(y)) && same(a.value_stride(x), b.value_stride(y)) &&
                a.value_dtype(x) == b.value_dtype(y)) ||
               fail(where + ": tensor differs");
      case ValueKind::List: {
        auto xs = a.value_items(x), ys = b.value_items(y);
        if (xs.size() != ys.size()) return fail(where + ": list lengths differ");
        for (size_t i = 0; i < xs.size(); ++i)
          if (!values(xs[i], ys[i], fmt::format("{}[{}]", where, i))) return false;
        return true;
      }
    }
    return fail(where + ": bad VALUE kind");
  }

  bool node(NodeId n) {
    const std::string where = fmt::format("node #{} '{}'", n.index(), a.node_name(n));
    if (a.node_kind(n) != b.node_kind(n) || a.node_name(n) != b.node_name(n) || a.node_target(n) != b.node_target(n))
      return fail(where + ": kind, name or target differs");
    const GraphStore &sa = a.store(), &sb = b.store();
    if (sa.node_args[n.index()].present() != sb.node_args[n.index()].present() ||
        sa.node_kwargs[n.index()].present() != sb.node_kwargs[n.index()].present())
      return fail(where + ": args/kwargs presence differs");
    auto xa = a.node_args(n), ya = b.node_args(n);
    if (xa.size() != ya.size()) return fail(where + ": argument counts differ");
    for (size_t i = 0; i < xa.size(); ++i)
      if (!args(xa[i], ya[i], fmt::format("{}: args[{}]", where, i))) return false;
    auto xk = a.node_kwargs(n), yk = b.node_kwargs(n);
    if (xk.size() != yk.size()) return fail(where + ": kwarg counts differ");
    for (const Kwarg& k : xk) {
      std::string_view key = a.ops().key_name(k.key);
      ArgId other = b.kwarg(n, key);
      if (!other.valid()) return fail(fmt::format("{}: kwarg '{}' missing", where, key));
      if (!args(k.value, other, fmt::format("{}: kwargs.{}", where, key))) return false;
    }
    if (PlaceholderId p = a.placeholder_of(n); p.valid()) {
      PlaceholderId q = b.placeholder_of(n);
      auto ra = a.placeholder_range(p), rb = b.placeholder_range(q);
      if (a.placeholder_dtype(p) != b.placeholder_dtype(q) || a.placeholder_rank(p) != b.placeholder_rank(q) ||
          ra.has_value() != rb.has_value() || (ra && (ra->lo != rb->lo || ra->hi != rb->hi)))
        return fail(where + ": placeholder meta differs");
      if (a.spec_has(p) != b.spec_has(q)) return fail(where + ": spec presence differs");
      auto da = a.spec_dims(p), db = b.spec_dims(q);
      if (da.size() != db.size()) return fail(where + ": spec rank differs");
      for (size_t i = 0; i < da.size(); ++i) {
        const SpecDimFn fa = a.spec_dim_fn(p, uint32_t(i)), fb = b.spec_dim_fn(q, uint32_t(i));
        bool eq = da[i].sym.valid() == db[i].sym.valid() &&
                  (da[i].sym.valid() ? a.sym_name(da[i].sym) == b.sym_name(db[i].sym) && fa.mul == fb.mul &&
                                           fa.add == fb.add
                                     : da[i].size == db[i].size);
        if (!eq) return fail(fmt::format("{}: spec dim {} differs", where, i));
      }
    }
    const Graph *suba = a.subgraph_of(n), *subb = b.subgraph_of(n);
    if ((suba == nullptr) != (subb == nullptr)) return fail(where + ": one get_attr names a subgraph, the other does not");
    if (suba) {
      std::string d = graph_difference(*suba, *subb);
      if (!d.empty()) return fail(where + ": subgraphs differ: " + d);
    }
    if (AttrId t = a.attr_of(n); t.valid()) {
      AttrId u = b.attr_of(n);
      if (a.attr_dtype(t) != b.attr_dtype(u) || !same(a.attr_shape(t), b.attr_shape(u)) ||
          !same(a.attr_stride(t), b.attr_stride(u)) || a.attr_has_data(t) != b.attr_has_data(u) ||
          !same(a.attr_data(t), b.attr_data(u)))
        return fail(where + ": get_attr meta differs");
    }
    return true;
  }

  bool graphs() {
    if (a.name() != b.name()) return fail("graph names differ");
    if (a.producer_json() != b.producer_json()) return fail("producer differs");
    if (a.num_nodes() != b.num_nodes()) return fail("node counts differ");
    for (uint32_t i = 0; i < a.num_nodes(); ++i)
      if (!node(NodeId(i))) return false;
    if (a.num_syms() != b.num_syms()) return fail("symbol counts differ");
    for (uint32_t i = 0; i < a.num_syms(); ++i) {
      SymId s(i);
      if (a.sym_name(s) != b.sym_name(s) || a.sym_min(s) != b.sym_min(s) || a.sym_max(s) != b.sym_max(s))
        return fail(fmt::format("symbol '{}' differs", a.sym_name(s)));
    }
    if (a.num_examples() != b.num_examples()) return fail("example counts differ");
    for (uint32_t e = 0; e < a.num_examples(); ++e) {
      ExampleView x = a.example(ExampleId(e)), y = b.example(ExampleId(e));
      const std::string where = fmt::format("examples[{}]", e);
      if (x.seed() != y.seed() || x.in_spec() != y.in_spec() || x.ok() != y.ok() || x.has_error() != y.has_error() ||
          x.error() != y.error() || x.error_kind() != y.error_kind() || x.error_node() != y.error_node() ||
          a.store().ex_has_values[e] != b.store().ex_has_values[e])
        return fail(where + ": outcome differs");
      for (uint32_t p = 0; p < a.num_placeholders(); ++p) {
        const size_t at = size_t(e) * a.num_placeholders() + p;
        if (a.store().ex_inputs[at].present() != b.store().ex_inputs[at].present() ||
            !same(x.input_sizes(PlaceholderId(p)), y.input_sizes(PlaceholderId(p))))
          return fail(where + ": inputs differ");
      }
      for (uint32_t i = 0; i < a.num_nodes(); ++i)
        if (!values(x.golden(NodeId(i)), y.golden(NodeId(i)), fmt::format("{}: value of '{}'", where, a.node_name(NodeId(i)))))
          return false;
    }
    return true;
  }
};

}  // namespace

std::string graph_difference(const Graph& a, const Graph& b) {
  Differ d{a, b, {}};
  d.graphs();
  return d.diff;
}

}  // namespace symshape
