#pragma once
// Propagated node values as text for results and the public facade: a tensor's
// symbolic sizes and strides (each dim printed like PyTorch prints a SymInt) and dtype;
// a SymInt/SymBool/SymFloat's expression; a list's items.
#include <vector>

#include "formats/results_fb.h"
#include "graph/graph.h"
#include "prop/propagate.h"

namespace symshape {

NodeShapeResult node_shape_result(const Graph& g, const Propagator& prop, const ExprArena& ar, NodeId n);
// The values the graph returns: every node the output node refers to, in order.
std::vector<NodeShapeResult> output_shapes(const Graph& g, const Propagator& prop, const ExprArena& ar);

}  // namespace symshape
