#pragma once
// `symshape conform`: runs every example of a graph through the specialisation cache and
// compares every recorded golden value (shape, stride, dtype, int, bool, float) with the
// propagated symbolic values evaluated at the example's sizes.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "prop/propagate.h"
#include "prop/rules.h"

namespace symshape {

enum class Outcome : uint8_t { Correct, Mismatch, Rejected, Unsound, ValueError, Unsupported };
const char* outcome_name(Outcome o);

struct ExampleResult {
  Outcome outcome = Outcome::Correct;
  int32_t specialization = -1;  // index used (or created), -1 when the engine rejected
  bool engine_accepted = false;
  std::string detail;           // first differing node and values, or the engine's error
};

struct GraphResult {
  std::string file;
  std::string graph;
  bool loaded = false;
  bool unsupported = false;
  std::string error;  // load error or unsupported op
  uint32_t specializations = 0;
  std::vector<ExampleResult> examples;
};

// `inputs`: how examples are made fake. Spec (the default) is torch.export's: the spec's dims
// symbolic, examples outside the spec must be refused. Static is meta-tensor execution's:
// every example at its own constant sizes, the spec ignored (an example outside it runs as
// eager runs it), so every golden checks the static path too.
GraphResult conform_graph(const Graph& graph, const RuleTable& rules, InputPolicy inputs = InputPolicy::Spec);

}  // namespace symshape
