// The graph's spec columns as a DynamicShapes spec.
#include "spec/graph_spec.h"

namespace symshape::spec {

DynamicShapes spec_of_graph(const Graph& g) {
  SpecBuilder b;
  b.begin_dict();
  for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
    const std::string_view name = g.node_name(g.placeholder_node(PlaceholderId(p)));
    std::span<const SpecDim> dims = g.spec_dims(PlaceholderId(p));
    if (dims.empty()) {
      b.none(name);
      continue;
    }
    b.begin_list(name);
    for (uint32_t k = 0; k < dims.size(); ++k) {
      const SpecDim& d = dims[k];
      const SpecDimFn fn = g.spec_dim_fn(PlaceholderId(p), k);
      if (!d.sym.valid()) {
        d.any_size ? b.none() : b.size(d.size);
      } else if (g.sym_name(d.sym).empty()) {
        b.hint(HintKind::Auto);
      } else {
        b.dim(DimRef{make_dim(g.sym_name(d.sym), g.sym_min(d.sym), g.sym_max(d.sym)), LinearFn{fn.mul, fn.add}});
      }
    }
    b.end();
  }
  b.end();
  return b.build();
}

}  // namespace symshape::spec
