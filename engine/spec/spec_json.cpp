// Loading and dumping the DynamicShapesSpec dictionary form, with _load_dynamic_shapes's
// checks in its order (F.6): the spec's keys, every dims entry, then symbols, derived
// expressions and the leaves of dynamic_shapes.
#include "spec/spec_json.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "spec/linear_expr.h"
#include "spec/py_text.h"
#include "spec/spec_error.h"
#include "spec/sympy_names.h"

namespace symshape::spec {
namespace {

namespace dom = simdjson::dom;
using T = dom::element_type;

constexpr size_t kMaxDepth = 32;         // nesting of dynamic_shapes containers
constexpr size_t kMaxNodes = 1u << 20;   // leaves + containers

bool is_int(dom::element e) { return e.type() == T::INT64 || e.type() == T::BOOL || e.type() == T::UINT64; }

int64_t int_value(dom::element e, std::string_view what) {
  if (e.type() == T::BOOL) return e.get_bool().value_unsafe() ? 1 : 0;
  if (e.type() == T::UINT64) throw_invalid_input(fmt::format("{} {} does not fit in int64", what, py_text(e, false)));
  return e.get_int64().value_unsafe();
}

bool has_exactly(dom::object o, std::initializer_list<std::string_view> keys) {
  if (o.size() != keys.size()) return false;
  for (std::string_view k : keys)
    if (o.at_key(k).error()) return false;
  return true;
}

struct NamedUse {
  std::string name;  // as written in the file (a root name or a derived string)
  uint32_t use;
};

class Loader {
 public:
  Loader(DynamicShapes& s, const LoadOptions& opt) : s_(s), opt_(opt) {}

  void load(dom::element spec) {
    if (spec.type() != T::OBJECT)
      throw_invalid_input("With from_dict=True, expected `spec` to be a dict, got " + py_type(spec));
    dom::object top = spec.get_object().value_unsafe();
    if (!has_exactly(top, {"dims", "dynamic_shapes"}))
      throw_invalid_input("With from_dict=True, expected `spec` to have keys `dims` and `dynamic_shapes`, instead found " +
                          py_dict_keys(top));
    dom::element dims = top.at_key("dims").value_unsafe();
    if (dims.type() != T::OBJECT)
      throw_invalid_input("Expected `spec['dims']` to be a dict, got " + py_type(dims));
    dom::object dims_obj = dims.get_object().value_unsafe();
    for (auto kv : dims_obj) check_dim_entry(kv.key, kv.value);
    dom::element shapes = top.at_key("dynamic_shapes").value_unsafe();
    if (shapes.type() == T::NULL_VALUE) return;  // F.6: dynamic_shapes None loads as None
    for (auto kv : dims_obj) make_dims(kv.key, kv.value);
    s_.present = true;
    leaf_or_container(shapes, -1, 0);
  }

 private:
  void check_dim_entry(std::string_view k, dom::element v) {
    if (v.type() != T::OBJECT || !has_exactly(v.get_object().value_unsafe(), {"derived", "max", "min"}))
      throw_invalid_input("Expected `spec['dims']` values to have keys `derived`, `max`, and `min`, instead found " +
                          (v.type() == T::OBJECT ? py_dict_keys(v.get_object().value_unsafe()) : py_type(v)));
    dom::object o = v.get_object().value_unsafe();
    dom::element min = o.at_key("min").value_unsafe(), max = o.at_key("max").value_unsafe(),
                 derived = o.at_key("derived").value_unsafe();
    if (!is_int(min))
      throw_invalid_input(fmt::format("Expected dims in `spec['dims']` to map `min` to an int, got {}: {}", k,
                                      py_text(min, false)));
    if (!is_int(max) && (opt_.reject_null_max || max.type() != T::NULL_VALUE))
      throw_invalid_input(fmt::format("Expected dims in `spec['dims']` to map `max` to an int or None, got {}: {}", k,
                                      py_text(max, false)));
    bool strings = derived.type() == T::ARRAY;
    if (strings)
      for (dom::array a = derived.get_array().value_unsafe(); auto d : a) strings &= d.type() == T::STRING;
    if (!strings)
      throw_invalid_input(fmt::format(
          "Expected dims in `spec['dims']` to map `derived` to a list of derived expressions, got {}: {}", k,
          py_text(derived, false)));
  }

  void make_dims(std::string_view k, dom::element v) {
    // sympify(k) must be a Symbol: sympy's own names (`gamma`, `E`) are not.
    if (!is_identifier(k) || sympify_is_not_symbol(k))
      throw_invalid_input(fmt::format("Expected `spec['dims']` keys to be symbols, got {}", k));
    for (const RootDim& r : s_.roots)
      if (r.name == k) throw_invalid_input(fmt::format("Duplicate key {} in `spec['dims']`", k));
    dom::object o = v.get_object().value_unsafe();
    dom::element max = o.at_key("max").value_unsafe();
    std::optional<int64_t> max_value;
    if (max.type() != T::NULL_VALUE) max_value = int_value(max, "max");
    dom::element min = o.at_key("min").value_unsafe();
    const int64_t min_value = int_value(min, "min");
    // Dim's assertion prints the values as given: a JSON true stays `True` in PyTorch's text.
    if (max_value && min_value >= *max_value && (min.type() == T::BOOL || max.type() == T::BOOL))
      throw_spec(PyException::AssertionError, fmt::format("Cannot create Dim with inconsistent min={}, max={}",
                                                          py_text(min, false), py_text(max, false)));
    RootDim root = make_dim(k, min_value, max_value);
    const uint32_t root_index = uint32_t(s_.roots.size());
    s_.roots.push_back(root);
    add_name(std::string(k), DimUse{root_index, {}});
    dom::array derived = o.at_key("derived").value_unsafe().get_array().value_unsafe();
    for (auto d : derived) {
      std::string_view text = d.get_string().value_unsafe();
      LinearFn fn = parse_derived(text, k);
      // Built as PyTorch does, `A*root` then `+ B`, so a non-positive A gets Dim's own error.
      DimRef ref{root, {}};
      if (fn.mul != 1) ref = ref * PyNumber(fn.mul);
      if (fn.add != 0) ref = ref + PyNumber(fn.add);
      add_name(std::string(text), DimUse{root_index, ref.fn});
    }
  }

  void add_name(std::string name, DimUse use) {
    names_.push_back(NamedUse{std::move(name), uint32_t(s_.uses.size())});
    s_.uses.push_back(use);
  }

  SpecNode& push(NodeKind kind, int32_t key) {
    if (s_.nodes.size() >= kMaxNodes) throw_invalid_input(fmt::format("`spec['dynamic_shapes']` has more than {} entries", kMaxNodes));
    SpecNode n;
    n.kind = kind;
    n.key = key;
    s_.nodes.push_back(n);
    return s_.nodes.back();
  }

  void leaf_or_container(dom::element e, int32_t key, size_t depth) {
    if (depth > kMaxDepth)
      throw_invalid_input(fmt::format("`spec['dynamic_shapes']` is nested deeper than {} levels", kMaxDepth));
    switch (e.type()) {
      case T::OBJECT: {
        const size_t at = s_.nodes.size();
        push(NodeKind::Dict, key);
        dom::object o = e.get_object().value_unsafe();
        for (auto kv : o) {
          s_.keys.emplace_back(kv.key);
          ++s_.nodes[at].children;
          leaf_or_container(kv.value, int32_t(s_.keys.size() - 1), depth + 1);
        }
        return;
      }
      case T::ARRAY: {
        const size_t at = s_.nodes.size();
        push(NodeKind::List, key);
        dom::array a = e.get_array().value_unsafe();
        for (auto x : a) {
          ++s_.nodes[at].children;
          leaf_or_container(x, -1, depth + 1);
        }
        return;
      }
      case T::NULL_VALUE: push(NodeKind::None, key); return;
      case T::STRING: string_leaf(e.get_string().value_unsafe(), key); return;
      default:
        if (is_int(e)) {
          push(NodeKind::Int, key).value = int_value(e, "size");
          return;
        }
        throw_invalid_input(
            "Expected leaves in `spec['dynamic_shapes']` to be ints, None, Dim.AUTO/STATIC, symbols,  or derived "
            "expressions, got " +
            py_text(e, false));
    }
  }

  void string_leaf(std::string_view s, int32_t key) {
    for (HintKind h : {HintKind::Auto, HintKind::Static, HintKind::Dynamic})
      if (s == hint_string(h)) {
        push(NodeKind::Hint, key).value = int64_t(h);
        return;
      }
    for (const NamedUse& n : names_)
      if (n.name == s) {
        push(NodeKind::Dim, key).value = n.use;
        return;
      }
    std::string keys = "dict_keys([";
    for (size_t i = 0; i < s_.roots.size(); ++i) keys += (i ? ", '" : "'") + s_.roots[i].name + "'";
    throw_invalid_input(fmt::format(
        "Expected dims in `spec['dynamic_shapes']` to be tracked in `spec['dims']`, got {} which is not in {}])", s,
        keys));
  }

  DynamicShapes& s_;
  const LoadOptions& opt_;
  std::vector<NamedUse> names_;
};

std::string json_string(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

void dump_node(const DynamicShapes& s, size_t& i, std::string& out) {
  const SpecNode& n = s.nodes[i++];
  switch (n.kind) {
    case NodeKind::None: out += "null"; return;
    case NodeKind::Int: out += std::to_string(n.value); return;
    case NodeKind::Hint: out += json_string(hint_string(HintKind(n.value))); return;
    case NodeKind::Dim: out += json_string(dim_name(s.dim(n))); return;
    case NodeKind::List:
    case NodeKind::Dict: {
      const bool dict = n.kind == NodeKind::Dict;
      out += dict ? '{' : '[';
      for (uint32_t c = 0; c < n.children; ++c) {
        if (c) out += ", ";
        if (dict) out += json_string(s.keys[size_t(s.nodes[i].key)]) + ": ";
        dump_node(s, i, out);
      }
      out += dict ? '}' : ']';
      return;
    }
  }
}

}  // namespace

DynamicShapes load_spec_json(std::string_view json_text, const LoadOptions& opt) {
  dom::parser parser;
  simdjson::padded_string padded(json_text);
  dom::element root;
  if (auto err = parser.parse(padded).get(root))
    throw_invalid_input(fmt::format("malformed JSON in the spec: {}", simdjson::error_message(err)));
  DynamicShapes s;
  Loader(s, opt).load(root);
  return s;
}

std::string dump_spec_json(const DynamicShapes& s) {
  std::string out = "{\"dynamic_shapes\": ";
  if (!s.present || s.nodes.empty()) {
    out += "null";
  } else {
    size_t i = 0;
    dump_node(s, i, out);
  }
  // F.5: one entry per root used (directly or through a derived dim), sorted by name; derived
  // names sorted as strings.
  std::vector<std::pair<std::string, std::vector<std::string>>> used;  // root name -> derived
  std::vector<uint32_t> root_of_used;
  for (const SpecNode& n : s.nodes) {
    if (n.kind != NodeKind::Dim) continue;
    const DimUse& u = s.uses[size_t(n.value)];
    size_t j = 0;
    while (j < used.size() && root_of_used[j] != u.root) ++j;
    if (j == used.size()) {
      used.emplace_back(s.roots[u.root].name, std::vector<std::string>{});
      root_of_used.push_back(u.root);
    }
    if (!u.fn.identity()) used[j].second.push_back(derived_name(s.roots[u.root].name, u.fn));
  }
  std::vector<size_t> order(used.size());
  for (size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return used[a].first < used[b].first; });
  out += ", \"dims\": {";
  for (size_t k = 0; k < order.size(); ++k) {
    auto& [name, derived] = used[order[k]];
    const RootDim& r = s.roots[root_of_used[order[k]]];
    std::sort(derived.begin(), derived.end());
    derived.erase(std::unique(derived.begin(), derived.end()), derived.end());
    if (k) out += ", ";
    out += json_string(name) + ": {\"min\": " + std::to_string(r.min) +
           ", \"max\": " + (r.has_max ? std::to_string(r.max) : std::string("null")) + ", \"derived\": [";
    for (size_t d = 0; d < derived.size(); ++d) out += (d ? ", " : "") + json_string(derived[d]);
    out += "]}";
  }
  out += "}}";
  return out;
}

}  // namespace symshape::spec
