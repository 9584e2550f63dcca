#pragma once
// A dynamic_shapes spec suggested from examples (beyond PyTorch, docs/dynamism.md):
//   - a dim that varies among the examples becomes a named Dim (the graph's own name for that
//     position when it has one, else `x_dim0`); a dim that does not vary stays its int;
//   - dims equal in every example share one Dim;
//   - a dim that is exactly a*d + b (integer a >= 1) of another varying dim d on every
//     example becomes the derived dim `a*d + b` (the dim with the smaller spread is the root);
//   - ranges start at the examples' min/max widened to the graph's own spec range (min 2 when
//     the graph has no Dim there and no example is 0/1, max unbounded when the graph gives
//     none), then `spec check` (spec/spec_check.h) runs and its corrected spec's ranges are
//     taken, check -> correct -> check again, at most `max_rounds` times;
//   - verified: the last check reports nothing, every example lies inside the spec (static
//     dims, shared and derived dims, ranges) and every example propagates under it (the
//     export-policy example stream, batch/stream.h, rejects none).
// A relation is first written as a derived dim; if apply_spec refuses it (a propagation
// without derived dims) the relation falls back to separate Dims, and if the check then
// relates them, to Dim.DYNAMIC; DimRelation::in_spec / note say which happened.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "batch/example_columns.h"
#include "dynamism/example_values.h"
#include "graph/graph.h"
#include "prop/rules.h"
#include "spec/dynamic_shapes.h"

namespace symshape::dynamism {

struct SuggestOptions {
  uint32_t max_rounds = 8;
  // The examples are the graph's own: check with check_spec exactly as `symshape spec check`
  // does (its candidate example order). Otherwise the check propagates the first given
  // example whose dynamic dims are all >= 2.
  bool graph_examples = true;
  // false: relations are reported but written as separate Dims (for a torch.export without
  // derived dims, or to see which Dims the graph itself relates).
  bool derived_dims = true;
};

struct DimRelation {
  std::string dim;   // the derived dim's position name ("y_dim0")
  std::string expr;  // "x_dim0 + 1", "2*x_dim0"
  bool in_spec = false;  // written as a derived dim in the suggested spec
  std::string note;      // why not, when !in_spec
};

// One Dim of the suggestion: the dims equal in every example, how the spec writes them.
struct SuggestedDim {
  std::string name;                    // "height", "x_dim0"
  std::vector<std::string> positions;  // "L['x'].size()[2]", ...
  std::string written_as;              // "height", "x_dim0 + 1", "_DimHint.DYNAMIC", "_DimHint.AUTO"
  int64_t example_min = 0, example_max = 0;
  std::optional<int64_t> min, max;     // a Dim's range (max: nullopt = int_oo)
  std::string why;                     // a hint: why no range is written
  std::string left_out;                // a Dim: the examples its range leaves out ("example 2 (32)")
  bool has_guard_range = false;        // a hint: the range the graph's guards allow
  int64_t guard_min = 0;
  std::optional<int64_t> guard_max;
};

struct SpecSuggestion {
  spec::DynamicShapes spec;
  bool verified = false;
  std::vector<SuggestedDim> dims;
  std::vector<DimRelation> relations;
  std::vector<std::string> violations;  // of the last spec check (export's messages)
  std::string check_error;              // the last check could not propagate (why)
  std::vector<std::string> rejected;    // examples the spec does not accept, with the reason
  // Examples outside a Dim's range: the one trace's guards (spec check's fixes) leave them out,
  // so one export does not take them (PyTorch would need another trace); not a failure.
  std::vector<std::string> outside;
  std::vector<std::string> notes;       // what the rounds changed
  uint32_t rounds = 0;                  // spec checks run
  int64_t checked_example = -1;         // the example the last check propagated
};

// `examples`: the examples the spec must accept, every one of the graph's declared ranks;
// `example_ids[e]`: how to name example e in messages (graph example index or NDJSON line).
// The graph's spec columns are left as the suggested spec's (apply_spec).
SpecSuggestion suggest_spec(Graph& graph, const RuleTable& rules, const ExampleColumns& examples,
                            const std::vector<uint64_t>& example_ids, const SuggestOptions& options = {});

// Without a graph: the same Dims, relations and starting ranges (the examples' span, min
// widened to 2), never checked, so never verified (check_error says why). `inputs` names
// the inputs in column order.
SpecSuggestion suggest_spec_from_examples(const std::vector<std::string>& inputs, const ExampleColumns& examples,
                                          const std::vector<uint64_t>& example_ids, const SuggestOptions& options = {});

// The top-level tensors every example of `set` gives with one rank, as columns; `names`
// receives their names, `example_ids` each example's source line.
ExampleColumns tensor_inputs(const ExampleSet& set, std::vector<std::string>& names, std::vector<uint64_t>& example_ids);

// The examples of `graph` PyTorch ran (ok == true) with the graph's declared ranks, and their
// indices in the graph.
ExampleColumns ok_examples(const Graph& graph, std::vector<uint64_t>& example_ids);

}  // namespace symshape::dynamism
