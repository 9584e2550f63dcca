#include "corpus/hints.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace symshape {
namespace {

bool usable_example(const Graph& g, uint32_t e) {
  const ExampleView ex = g.example(e);
  if (!ex.ok() || !ex.in_spec()) return false;
  for (uint32_t p = 0; p < g.num_placeholders(); ++p)
    if (ex.input_sizes(PlaceholderId(p)).size() != g.placeholder_rank(PlaceholderId(p))) return false;
  return true;
}

// Picks values for symbols one by one, never reusing a taken value.
class ValuePicker {
 public:
  // Static sizes seen anywhere in the graph (spec and weights) are taken from the start.
  explicit ValuePicker(const Graph& g) {
    for (uint32_t p = 0; p < g.num_placeholders(); ++p)
      if (g.spec_has(PlaceholderId(p)))
        for (const SpecDim& d : g.spec_dims(PlaceholderId(p)))
          if (!d.sym.valid()) taken_.push_back(d.size);
    for (uint32_t a = 0; a < g.num_attrs(); ++a)
      for (int64_t s : g.attr_shape(AttrId(a))) taken_.push_back(s);
  }

  // A value in [lo, hi] (hi < 0: unbounded). Prefers multiples of 8 from 64 up (room for
  // downsampling convolutions and divisible reshapes), then any free value in range.
  int64_t pick(int64_t lo, int64_t hi) {
    const int64_t top = hi < 0 ? int64_t(1) << 40 : hi;
    const int64_t first = std::max<int64_t>(lo, 2);
    if (first > top) return take(lo);  // a range of only 0 and 1 (or empty): its minimum
    for (int64_t v = std::max<int64_t>(64, (first + 7) / 8 * 8); v <= top && v < 64 + 8 * 4096; v += 8)
      if (free(v)) return take(v);
    for (int64_t v = first; v <= top && v < first + 8 * 4096; ++v)
      if (free(v)) return take(v);
    return take(first);  // every value of a tiny range taken: equal to something, still in range
  }

 private:
  bool free(int64_t v) const { return std::find(taken_.begin(), taken_.end(), v) == taken_.end(); }
  int64_t take(int64_t v) {
    taken_.push_back(v);
    return v;
  }
  std::vector<int64_t> taken_;
};

}  // namespace

GraphHints synthesise_hints(const Graph& g) {
  GraphHints h;
  ValuePicker picker(g);
  // spec symbols first, in dims-table order, so shared names get one value
  std::vector<int64_t> sym_value(g.num_syms());
  for (uint32_t s = 0; s < g.num_syms(); ++s) {
    const std::optional<int64_t> max = g.sym_max(SymId(s));
    sym_value[s] = picker.pick(g.sym_min(SymId(s)), max ? *max : -1);
  }
  h.sizes.resize(g.num_placeholders());
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    const PlaceholderId ph(p);
    std::vector<int64_t>& sizes = h.sizes[p];
    sizes.resize(g.placeholder_rank(ph));
    const std::span<const SpecDim> spec = g.spec_has(ph) ? g.spec_dims(ph) : std::span<const SpecDim>();
    for (uint32_t d = 0; d < sizes.size(); ++d) {
      if (d < spec.size() && spec[d].sym.valid()) {
        const SpecDimFn fn = g.spec_dim_fn(ph, d);  // a derived dim: mul*root + add, in its range
        sizes[d] = fn.mul * sym_value[spec[d].sym.index()] + fn.add;
      } else if (d < spec.size()) {
        sizes[d] = spec[d].size;
      }
      else sizes[d] = picker.pick(2, -1);  // no spec: a static dim of unknown size
    }
  }
  return h;
}

GraphHints choose_hints(const Graph& g) {
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    if (!usable_example(g, e)) continue;
    GraphHints h;
    h.example = e;
    const ExampleView ex = g.example(e);
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      std::span<const int64_t> s = ex.input_sizes(PlaceholderId(p));
      h.sizes.emplace_back(s.begin(), s.end());
    }
    return h;
  }
  return synthesise_hints(g);
}

std::string hints_origin(const GraphHints& h) {
  return h.example >= 0 ? fmt::format("example {}", h.example) : std::string("synthesised");
}

std::vector<std::string> hints_text(const Graph& g, const GraphHints& h) {
  std::vector<std::string> out;
  for (uint32_t p = 0; p < g.num_placeholders() && p < h.sizes.size(); ++p)
    out.push_back(fmt::format("{}=[{}]", g.node_name(g.placeholder_node(PlaceholderId(p))), fmt::join(h.sizes[p], ", ")));
  return out;
}

}  // namespace symshape
