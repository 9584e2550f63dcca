// The dynamic_shapes SPEC: symbols with bounds, their derived dims (torch.export's
// `b + 1`, `2*b`, in DynamicShapesSpec's text form), and per placeholder a static size, a
// symbol or a derived dim for every dimension.
#include <fmt/format.h>

#include <unordered_map>

#include "graph/json_context.h"
#include "spec/dim.h"
#include "spec/linear_expr.h"
#include "spec/spec_error.h"

namespace symshape::json_detail {
namespace {

// One entry of a root's `derived` list.
struct Derived {
  SymId root;
  SpecDimFn fn;
  uint32_t index = 0;  // position in the root's `derived` array
  bool used = false;
};

bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

void JsonContext::load_spec(dom::element spec) {
  static constexpr std::array<std::string_view, 2> kFields = {"dynamic_shapes", "dims"};
  Fields<2> f = read_fields(spec, kFields);
  require(f, kFields, 0);
  require(f, kFields, 1);
  std::vector<SymId> sym_of_str;  // indexed by StrId; one lookup table per load
  // Derived expressions by their text (views into the DOM, alive for the whole load).
  std::unordered_map<std::string_view, Derived> derived;
  std::vector<std::pair<std::string_view, dom::array>> derived_lists;  // root name, its `derived`
  std::vector<std::string_view> derived_order;                         // file order
  {
    PathScope p(*this, "dims");
    dom::object dims = read_object(f.value[1]);
    for (dom::key_value_pair kv : dims) {
      PathScope at(*this, kv.key);
      if (kv.key.empty() || kv.key.size() > lim.max_name_bytes) fail(GraphErrc::BadValue, "invalid symbol name");
      if (s.sym_name.size() >= lim.max_nodes) fail(GraphErrc::Limit, "too many symbols");
      StrId name = s.strings.intern(kv.key);
      if (sym_of_str.size() <= name.index()) sym_of_str.resize(name.index() + 1);
      if (sym_of_str[name.index()].valid()) fail(GraphErrc::DuplicateKey, "duplicate symbol " + quoted(kv.key));
      sym_of_str[name.index()] = SymId(uint32_t(s.sym_name.size()));
      static constexpr std::array<std::string_view, 3> kDimFields = {"min", "max", "derived"};
      Fields<3> d = read_fields(kv.value, kDimFields);
      for (size_t i = 0; i < 3; ++i) require(d, kDimFields, i);
      int64_t min, max = 0;
      {
        PathScope q(*this, "min");
        min = read_int(d.value[0]);
      }
      const bool has_max = d.value[1].type() != dom::element_type::NULL_VALUE;
      if (has_max) {
        PathScope q(*this, "max");
        max = read_int(d.value[1]);
      }
      {
        PathScope q(*this, "derived");
        derived_lists.emplace_back(kv.key, read_array(d.value[2]));
      }
      s.sym_name.push_back(name);
      s.sym_min.push_back(min);
      s.sym_max.push_back(max);
      s.sym_has_max.push_back(has_max);
    }
    // Each root's derived dims: PyTorch's text of an increasing affine function of the root
    // (Dim._derived_name: str(fn(sympify(root))), e.g. `b + 1`, `b - 1`, `2*b`, `2*b + 2`).
    // _load_dynamic_shapes' checks and messages first (parse_derived), then the
    // reconstruction's (`A*root` needs A >= 1), then the text must be the one PyTorch prints,
    // so that the writer reproduces it.
    for (uint32_t r = 0; r < derived_lists.size(); ++r) {
      const auto& [root, list] = derived_lists[r];
      PathScope at(*this, root);
      PathScope q(*this, "derived");
      uint32_t i = 0;
      for (dom::element e : list) {
        PathScope item(*this, int64_t(i));
        if (e.type() != dom::element_type::STRING)
          fail(GraphErrc::WrongType, fmt::format("expected a derived expression (string), got {}", type_name(e)));
        const std::string_view text = e.get_string().value_unsafe();
        if (text.size() > lim.max_name_bytes) fail(GraphErrc::Limit, "derived expression too long");
        if (derived.size() >= lim.max_nodes) fail(GraphErrc::Limit, "too many derived dims");
        spec::LinearFn fn;
        try {
          fn = spec::parse_derived(text, root);
          spec::DimRef d{spec::RootDim{std::string(root), 0, 0, false}, {}};
          if (fn.mul != 1) d = d * spec::PyNumber(fn.mul);  // NotImplementedError for mul < 1
          (void)d;
        } catch (const spec::SpecError& err) {
          fail(GraphErrc::BadValue, err.what());
        }
        if (fn.identity())
          fail(GraphErrc::BadValue, fmt::format("{} is the root {} itself, not a derived dim", quoted(text), quoted(root)));
        const std::string printed = spec::derived_name(root, fn);
        if (printed != text)
          fail(GraphErrc::BadValue, fmt::format("derived expression {} is not in PyTorch's printed form {}", quoted(text),
                                                json_detail::quoted(printed)));
        auto [it, fresh] = derived.try_emplace(text, Derived{SymId(r), SpecDimFn{fn.mul, fn.add}, i, false});
        if (!fresh) fail(GraphErrc::DuplicateKey, "duplicate derived expression " + quoted(text));
        derived_order.push_back(text);
        ++i;
      }
    }
  }
  s.spec_of_ph.assign(s.num_placeholders(), Span32{});
  std::vector<SpecDimFn> fns;  // parallel to spec_dims; kept only when a dim is derived
  bool any_derived = false;
  {
    PathScope p(*this, "dynamic_shapes");
    dom::object shapes = read_object(f.value[0]);
    for (dom::key_value_pair kv : shapes) {
      PathScope at(*this, kv.key);
      StrId id = s.strings.find(kv.key);
      NodeId n = id.valid() && id.index() < s.node_by_name.size() ? s.node_by_name[id.index()] : NodeId();
      if (!n.valid()) fail(GraphErrc::DanglingRef, "unknown placeholder " + quoted(kv.key));
      if (s.node_kind[n.index()] != NodeKind::Placeholder)
        fail(GraphErrc::BadValue, quoted(kv.key) + " is not a placeholder");
      Span32& slot = s.spec_of_ph[s.node_meta[n.index()]];
      if (slot.present()) fail(GraphErrc::DuplicateKey, "duplicate key " + quoted(kv.key));
      dom::array dims = read_array(kv.value);
      slot.first = uint32_t(s.spec_dims.size());
      for (dom::element d : dims) {
        if (slot.count == lim.max_rank) fail(GraphErrc::Limit, fmt::format("more than {} dimensions", lim.max_rank));
        PathScope q(*this, int64_t(slot.count));
        SpecDim dim;
        SpecDimFn fn;
        if (d.type() == dom::element_type::STRING) {
          std::string_view name = d.get_string().value_unsafe();
          StrId sid = s.strings.find(name);
          dim.sym = sid.valid() && sid.index() < sym_of_str.size() ? sym_of_str[sid.index()] : SymId();
          if (!dim.sym.valid()) {
            if (auto it = derived.find(name); it != derived.end()) {
              dim.sym = it->second.root;
              fn = it->second.fn;
              it->second.used = true;
              any_derived = true;
            }
          }
          if (!dim.sym.valid()) undefined_spec_name(name, sym_of_str);
        } else if (d.type() == dom::element_type::INT64 || d.type() == dom::element_type::UINT64) {
          dim.size = read_int(d);
        } else {
          fail(GraphErrc::WrongType, fmt::format("expected a static size (int) or a symbol name (string), got {}", type_name(d)));
        }
        s.spec_dims.push_back(dim);
        fns.push_back(fn);
        ++slot.count;
      }
    }
  }
  // PyTorch's dump lists exactly the derived dims the inputs use, so an unused entry would
  // not survive a round trip: refused, named.
  for (std::string_view text : derived_order) {
    const Derived& d = derived.at(text);
    if (d.used) continue;
    PathScope p(*this, "dims");
    PathScope at(*this, derived_lists[d.root.index()].first);
    PathScope q(*this, "derived");
    PathScope item(*this, int64_t(d.index));
    fail(GraphErrc::Inconsistent, fmt::format("derived dim {} is not used by any input (a DynamicShapesSpec lists only "
                                              "the derived dims its inputs use)",
                                              quoted(text)));
  }
  if (any_derived) s.spec_dim_fn = std::move(fns);
}

// A dynamic_shapes leaf that names neither a root nor a listed derived dim. When it is a
// derived expression of a root (`b + 1` with `b` in dims), the message says where it belongs.
void JsonContext::undefined_spec_name(std::string_view name, const std::vector<SymId>& sym_of_str) {
  auto alpha = [](char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  for (size_t i = 0; i < name.size();) {
    if (!alpha(name[i])) {  // an operator, a space or a number
      ++i;
      while (i < name.size() && ident_char(name[i]) && ident_char(name[i - 1])) ++i;
      continue;
    }
    size_t j = i;
    while (j < name.size() && ident_char(name[j])) ++j;
    const std::string_view token = name.substr(i, j - i);
    i = j;
    const StrId sid = s.strings.find(token);
    if (!sid.valid() || sid.index() >= sym_of_str.size() || !sym_of_str[sid.index()].valid()) continue;
    try {
      (void)spec::parse_derived(name, token);
    } catch (const spec::SpecError&) {
      continue;
    }
    fail(GraphErrc::DanglingRef, fmt::format("derived dim {} is not listed in dims.{}.derived", quoted(name), token));
  }
  fail(GraphErrc::DanglingRef, "symbol " + quoted(name) + " is not defined in dims");
}

}  // namespace symshape::json_detail
