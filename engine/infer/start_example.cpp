// The example `symshape infer` starts from when none is given.
#include "infer/infer.h"

namespace symshape::infer {
namespace {

// Every dimension the graph's spec makes dynamic (every dimension without a spec) is >= 2:
// a 0/1 size would be specialised by export's trace, so spec check passes such examples over.
bool dynamic_dims_at_least_2(const Graph& g, uint32_t e) {
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    const std::span<const int64_t> sizes = g.example(e).input_sizes(PlaceholderId(p));
    const bool has_spec = g.spec_has(PlaceholderId(p));
    const std::span<const SpecDim> dims = has_spec ? g.spec_dims(PlaceholderId(p)) : std::span<const SpecDim>();
    for (uint32_t d = 0; d < sizes.size(); ++d) {
      const bool dynamic = !has_spec || (d < dims.size() && dims[d].sym.valid());
      if (dynamic && sizes[d] < 2) return false;
    }
  }
  return true;
}

}  // namespace

std::optional<uint32_t> default_start_example(const Graph& g) {
  std::optional<uint32_t> first;
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    if (!g.example(e).ok()) continue;
    if (dynamic_dims_at_least_2(g, e)) return e;
    if (!first) first = e;
  }
  return first;
}

}  // namespace symshape::infer
