#pragma once
// Graph -> fx-graph-json text, through nlohmann::ordered_json (keys in FORMAT.md order).
// Lossless with respect to JsonGraphLoader: ints stay ints, floats keep a '.' or an
// exponent and round-trip exactly, non-finite floats become {"float": "inf"|"-inf"|"nan"},
// absent optional fields stay absent.
#include <string>

#include "graph/graph.h"

namespace symshape {

// indent < 0: compact, one line (the corpus style). Throws Error(Unsupported) for a graph
// with subgraphs (GraphBuilder only), which the format cannot carry.
std::string write_graph_json(const Graph& g, int indent = -1);

// Returns false and sets `error` when the file cannot be written.
bool write_graph_json_file(const Graph& g, const std::string& path, std::string& error, int indent = -1);

}  // namespace symshape
