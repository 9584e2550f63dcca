#pragma once
// A graph's own spec columns written back as a DynamicShapes spec (for graph.fb files,
// which keep the columns but not the JSON text): a dict keyed by placeholder name, per
// tensor a list with a named Dim (its name and range), an int, or None (static at the
// example's size) per dim; an unnamed symbol (a Dim.AUTO / Dim.DYNAMIC hint, which the
// columns do not tell apart) becomes Dim.AUTO; a tensor without an entry is None.
#include "graph/graph.h"
#include "spec/dynamic_shapes.h"

namespace symshape::spec {

DynamicShapes spec_of_graph(const Graph& graph);

}  // namespace symshape::spec
