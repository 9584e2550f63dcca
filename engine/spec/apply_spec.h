#pragma once
// Replaces a graph's own dynamic_shapes spec by a DynamicShapes spec, so propagation (the
// Propagator's InputPolicy::Spec) runs under it: named Dims become the graph's symbols with
// their ranges (one symbol per name: equal sizes), ints and per-dimension None are static,
// a tensor-level None makes every dim static, Dim.AUTO / Dim.DYNAMIC get an unnamed DYNAMIC
// symbol each. The spec's top level is a dict keyed by placeholder name or a list in
// placeholder order; per tensor a list (one entry per dim) or a dict {"<dim index>": entry}.
// Validation errors are F.3's (UserError INVALID_INPUT).
#include "graph/graph.h"
#include "spec/dynamic_shapes.h"

namespace symshape::spec {

// A derived dim (`dx + 1`, `2*dx`) is its root's symbol with the function (Graph::spec_dim_fn):
// propagation makes that size `mul*root + add` (a root no dim uses directly is a phantom
// symbol, as export's _PhantomRoot). Errors: F.3's, a multiplier < 1 (NotImplementedError),
// a negative derived min (AssertionError).
void apply_spec(Graph& graph, const DynamicShapes& spec);

}  // namespace symshape::spec
