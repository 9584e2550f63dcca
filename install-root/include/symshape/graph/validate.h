#pragma once
// Semantic validation of a loaded graph, shared by the JSON and FlatBuffers loaders so
// both accept exactly the same graphs. Collects every problem (up to a cap) with its
// location; an empty result means the graph satisfies the invariants documented in
// graph.h. Precondition: check_graph_integrity passed (all ids/spans in range), which
// holds by construction for the JSON loader.
#include <string_view>

#include "graph/diagnostic.h"
#include "graph/graph.h"
#include "graph/limits.h"

namespace symshape {

inline constexpr size_t kMaxDiagnosticsPerGraph = 50;

// Returns true when no problem was added.
bool validate_graph(const Graph& g, std::string_view file, Diagnostics& diags);

// Structural checks for columns that came from an untrusted binary file: every enum,
// id and span in range, list items acyclic and nested at most limits.max_list_depth.
// Stops at the first problem (a corrupt file has no meaningful second error).
bool check_graph_integrity(const Graph& g, std::string_view file, const GraphLimits& limits, Diagnostics& diags);

}  // namespace symshape
