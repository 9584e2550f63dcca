#pragma once
// The whole `symshape dynamism` answer for one set of examples, as the CLI prints it and the
// Python binding returns it: {"dynamism": ..., "suggested_spec": ..., "verified": ...,
// "dims": [...], "relations": [...], "violations": [...], "rejected_examples": [...],
// "notes": [...]} (docs/dynamism.md).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "graph/diagnostic.h"
#include "dynamism/example_values.h"
#include "dynamism/suggest_spec.h"
#include "graph/graph.h"
#include "prop/rules.h"

namespace symshape::dynamism {

struct DynamismReport {
  nlohmann::ordered_json json;
  std::string spec_text;  // the suggested spec's DynamicShapesSpec JSON ("" when none)
  bool verified = false;
  std::string error;      // set: nothing to report (no example gives every graph input)
};

// `graph` (and `rules`, resolved for its OpTable) may be null: examples only, the spec is
// suggested but never verified. `graph_examples`: `set` holds the graph's own ok examples
// (graph_examples_ndjson); otherwise `set` was read from `examples_file`, whose examples are
// matched to the graph's inputs (problems receive the ones that do not fit). The graph's spec
// columns are left as the suggested spec's.
DynamismReport dynamism_report(const ExampleSet& set, Graph* graph, const RuleTable* rules, bool graph_examples,
                               std::string_view examples_file, const SuggestOptions& options, Diagnostics& problems);

}  // namespace symshape::dynamism
