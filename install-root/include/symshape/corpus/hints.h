#pragma once
// The sizes a corpus run propagates a graph with first (its hints): the first example
// PyTorch ran successfully within the spec, or, for a graph without one, sizes
// synthesised from the dynamic_shapes spec — distinct values inside each dim's range
// that avoid 0 and 1 (which specialise) and accidental equalities (two symbols, or a
// symbol and a static size, with one value would make the trace decide they are equal).
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace symshape {

struct GraphHints {
  std::vector<std::vector<int64_t>> sizes;  // per placeholder
  int64_t example = -1;                     // the example they came from, -1 synthesised
};

GraphHints choose_hints(const Graph& g);
// The spec-synthesised hints alone (what choose_hints falls back to).
GraphHints synthesise_hints(const Graph& g);
// "example 3" or "synthesised".
std::string hints_origin(const GraphHints& h);
// "x=[2, 3, 64, 64]" per placeholder, for results.
std::vector<std::string> hints_text(const Graph& g, const GraphHints& h);

}  // namespace symshape
