#pragma once
// Semantic equality of two graphs that may live in different OpTables and string pools
// (e.g. one loaded from JSON, one from FlatBuffers): compares names and texts, not ids.
// Floats compare bitwise, so NaN equals NaN and 0.0 differs from -0.0.
#include <string>

#include "graph/graph.h"

namespace symshape {

// Returns "" when equal, else a description of the first difference.
std::string graph_difference(const Graph& a, const Graph& b);

}  // namespace symshape
