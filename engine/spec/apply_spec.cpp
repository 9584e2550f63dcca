// Writing a DynamicShapes spec into a graph's spec columns (sym_* and spec_dims).
#include "spec/apply_spec.h"

#include <fmt/format.h>

#include <charconv>

#include "spec/spec_error.h"

namespace symshape::spec {
namespace {

class Applier {
 public:
  Applier(Graph& g, const DynamicShapes& spec) : g_(g), s_(g.mutable_store()), spec_(spec) {}

  void run() {
    s_.sym_name.clear();
    s_.sym_min.clear();
    s_.sym_max.clear();
    s_.sym_has_max.clear();
    s_.spec_dims.clear();
    s_.spec_dim_fn.clear();
    s_.spec_of_ph.assign(g_.num_placeholders(), Span32{});
    if (!spec_.present) return;  // dynamic_shapes None: every input static
    const SpecNode& top = spec_.nodes[0];
    if (top.kind == NodeKind::None) return;
    if (top.kind == NodeKind::Dict) return by_name();
    if (top.kind != NodeKind::List)
      throw_invalid_input("Expected `dynamic_shapes` to be a dict keyed by input name or a list/tuple matching inputs");
    if (top.children != g_.num_placeholders())
      throw_invalid_input(fmt::format(
          "Detected mismatch between the structure of `inputs` and `dynamic_shapes`: `inputs` has {} elements, but "
          "`dynamic_shapes` has {} elements",
          g_.num_placeholders(), top.children));
    size_t i = 1;
    for (uint32_t p = 0; p < top.children; ++p) {
      tensor(PlaceholderId(p), i, fmt::format("[{}]", p));
      i = spec_.subtree_end(i);
    }
  }

 private:
  std::string_view ph_name(uint32_t p) const { return g_.node_name(g_.placeholder_node(PlaceholderId(p))); }

  void by_name() {
    const SpecNode& top = spec_.nodes[0];
    std::vector<std::string> extra;
    size_t i = 1;
    for (uint32_t c = 0; c < top.children; ++c) {
      const std::string& key = spec_.keys[size_t(spec_.nodes[i].key)];
      uint32_t p = 0;
      while (p < g_.num_placeholders() && ph_name(p) != key) ++p;
      if (p == g_.num_placeholders()) extra.push_back(key);
      else tensor(PlaceholderId(p), i, fmt::format("['{}']", key));
      i = spec_.subtree_end(i);
    }
    if (extra.empty()) return;
    auto py_list = [](auto&& names) {
      std::string out = "[";
      for (size_t k = 0; k < names.size(); ++k) out += fmt::format("{}'{}'", k ? ", " : "", names[k]);
      return out + "]";
    };
    std::vector<std::string> args;
    for (uint32_t p = 0; p < g_.num_placeholders(); ++p) args.emplace_back(ph_name(p));
    throw_invalid_input(fmt::format(
        "`dynamic_shapes` was specified as a dict, but found top-level keys {} that weren't present in the arg names "
        "of `inputs`: {}. Alternatively, you could also ignore arg names entirely and specify `dynamic_shapes` as a "
        "list/tuple matching `inputs`.",
        py_list(extra), py_list(args)));
  }

  // Placeholder p's entry at node i; `path` is the `dynamic_shapes{path}` of F.3's messages.
  void tensor(PlaceholderId p, size_t i, const std::string& path) {
    const SpecNode& n = spec_.nodes[i];
    const uint32_t rank = g_.placeholder_rank(p);
    if (n.kind == NodeKind::None) return;  // every dim static
    std::vector<size_t> entry(rank, SIZE_MAX);  // node of each dim; SIZE_MAX: static
    if (n.kind == NodeKind::List) {
      if (n.children != rank)
        throw_invalid_input(fmt::format(
            "Expected dynamic shape spec specified at `dynamic_shapes{}` to have the same length as the actual tensor "
            "rank {} (expected {}, but got {} instead)",
            path, rank, rank, n.children));
      size_t j = i + 1;
      for (uint32_t d = 0; d < rank; ++d, j = spec_.subtree_end(j)) entry[d] = j;
    } else if (n.kind == NodeKind::Dict) {
      size_t j = i + 1;
      for (uint32_t c = 0; c < n.children; ++c, j = spec_.subtree_end(j)) {
        const std::string& key = spec_.keys[size_t(spec_.nodes[j].key)];
        uint32_t d = 0;
        auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), d);
        if (ec != std::errc() || end != key.data() + key.size() || d >= rank)
          throw_invalid_input(fmt::format(
              "Unexpected dimension index {} in the dict specified at `dynamic_shapes{}` (the tensor has rank {})", key,
              path, rank));
        entry[d] = j;
      }
    } else {
      throw_invalid_input(fmt::format(
          "Unexpected input tensor shape specified at `dynamic_shapes{}` (expected either a list/tuple of dimensions, "
          "or a dict mapping indices to dimensions, where each dimension is an int, a Dim, Dim.AUTO, Dim.STATIC, or "
          "Dim.DYNAMIC)",
          path));
    }
    Span32& slot = s_.spec_of_ph[p.index()];
    slot.first = uint32_t(s_.spec_dims.size());
    slot.count = rank;
    for (uint32_t d = 0; d < rank; ++d) {
      SpecDimFn fn;
      s_.spec_dims.push_back(dim(entry[d], d, path, fn));
      // the column exists once a derived dim does (identity for the dims before it)
      if (!fn.identity() || !s_.spec_dim_fn.empty()) {
        s_.spec_dim_fn.resize(s_.spec_dims.size() - 1);
        s_.spec_dim_fn.push_back(fn);
      }
    }
  }

  // `fn` receives the function of a derived dim (identity otherwise).
  SpecDim dim(size_t node, uint32_t d, const std::string& path, SpecDimFn& fn) {
    SpecDim out;
    out.size = -1;  // no static size constraint (per-dim None or a missing dict entry)
    if (node == SIZE_MAX) return static_of_example(out);
    const SpecNode& n = spec_.nodes[node];
    switch (n.kind) {
      case NodeKind::None: return static_of_example(out);
      case NodeKind::Int: out.size = n.value; return out;
      case NodeKind::Hint:
        if (HintKind(n.value) == HintKind::Static) return static_of_example(out);
        out.sym = new_sym("", 0, std::nullopt);
        return out;
      case NodeKind::Dim: {
        const DimRef ref = spec_.dim(n);
        if (!ref.fn.identity()) {
          // A derived dim `mul*root + add` (F.2): the root's symbol with the function. Dim
          // arithmetic already refuses a multiplier < 1; a spec built from raw values gets
          // the same NotImplementedError. Its bounds are checked as PyTorch's properties do.
          if (ref.fn.mul < 1)
            throw_spec(PyException::NotImplementedError,
                       fmt::format("Attempted to multiply {} with {}, where a positive integer was expected. (Only "
                                   "increasing linear operations with integer coefficients are supported.)",
                                   ref.fn.mul, ref.root.name));
          dim_min(ref);
          dim_max(ref);
          fn = SpecDimFn{ref.fn.mul, ref.fn.add};
        }
        for (uint32_t s = 0; s < s_.sym_name.size(); ++s)
          if (g_.str(s_.sym_name[s]) == ref.root.name) {
            out.sym = SymId(s);
            return out;
          }
        out.sym = new_sym(ref.root.name, ref.root.min,
                          ref.root.has_max ? std::optional<int64_t>(ref.root.max) : std::nullopt);
        return out;
      }
      default:
        throw_invalid_input(fmt::format(
            "Unexpected dimension #{} in input tensor shape specified at `dynamic_shapes{}` (expected None, an int, a "
            "Dim, Dim.AUTO, Dim.STATIC, or Dim.DYNAMIC, but got a list/dict instead)",
            d, path));
    }
  }

  // Static at the example's size (F.5: a per-dim None dumps as the example size).
  static SpecDim static_of_example(SpecDim out) {
    out.any_size = 1;
    return out;
  }

  SymId new_sym(std::string_view name, int64_t min, std::optional<int64_t> max) {
    s_.sym_name.push_back(s_.strings.intern(name));
    s_.sym_min.push_back(min);
    s_.sym_max.push_back(max.value_or(0));
    s_.sym_has_max.push_back(max.has_value());
    return SymId(uint32_t(s_.sym_name.size() - 1));
  }

 private:
  Graph& g_;
  GraphStore& s_;
  const DynamicShapes& spec_;
};

}  // namespace

void apply_spec(Graph& graph, const DynamicShapes& spec) { Applier(graph, spec).run(); }

}  // namespace symshape::spec
