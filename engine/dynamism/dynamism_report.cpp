#include "dynamism/dynamism_report.h"

#include "dynamism/dynamism.h"
#include "dynamism/graph_examples.h"
#include "spec/spec_json.h"

namespace symshape::dynamism {

namespace {

nlohmann::ordered_json bound(std::optional<int64_t> v) { return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(); }

}  // namespace

DynamismReport dynamism_report(const ExampleSet& set, Graph* graph, const RuleTable* rules, bool graph_examples,
                               std::string_view examples_file, const SuggestOptions& options, Diagnostics& problems) {
  DynamismReport rep;
  nlohmann::ordered_json& out = rep.json;
  out["dynamism"] = dynamism_object(track_dynamism(set));

  SuggestOptions opt = options;
  opt.graph_examples = graph_examples;
  std::vector<uint64_t> spec_ids;
  SpecSuggestion s;
  if (!graph) {
    std::vector<std::string> names;
    const ExampleColumns columns = tensor_inputs(set, names, spec_ids);
    if (names.empty())
      s.check_error = "no top-level tensor that every example gives with one rank: no spec to suggest";
    else
      s = suggest_spec_from_examples(names, columns, spec_ids, opt);
  } else {
    ExampleColumns columns = graph_examples ? ok_examples(*graph, spec_ids)
                                            : graph_columns(set, *graph, examples_file, spec_ids, problems);
    if (columns.num_examples() == 0) {
      rep.error = "no example gives every input of graph '" + std::string(graph->name()) +
                  "' (nothing to suggest a spec from)";
      return rep;
    }
    s = suggest_spec(*graph, *rules, columns, spec_ids, opt);
  }
  rep.spec_text = s.spec.present ? spec::dump_spec_json(s.spec) : std::string();
  rep.verified = s.verified;
  out["suggested_spec"] = rep.spec_text.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json::parse(rep.spec_text);
  out["verified"] = s.verified;
  if (graph) {
    out[graph_examples ? "checked_example" : "checked_line"] = s.checked_example;
    out["check_rounds"] = s.rounds;
  }
  out["dims"] = nlohmann::ordered_json::array();
  for (const SuggestedDim& d : s.dims) {
    nlohmann::ordered_json j = {{"name", d.name}, {"positions", d.positions}, {"as", d.written_as},
                                {"examples", {d.example_min, d.example_max}}};
    if (d.min) j["range"] = {*d.min, bound(d.max)};
    if (d.has_guard_range) j["guard_range"] = {d.guard_min, bound(d.guard_max)};
    if (!d.why.empty()) j["why"] = d.why;
    if (!d.left_out.empty()) j["left_out"] = d.left_out;
    out["dims"].push_back(std::move(j));
  }
  out["relations"] = nlohmann::ordered_json::array();
  for (const DimRelation& r : s.relations) {
    nlohmann::ordered_json j = {{"dim", r.dim}, {"expr", r.expr}, {"in_spec", r.in_spec}};
    if (!r.note.empty()) j["note"] = r.note;
    out["relations"].push_back(std::move(j));
  }
  out["violations"] = s.violations;
  if (!s.check_error.empty()) out["check_error"] = s.check_error;
  out["rejected_examples"] = s.rejected;
  out["outside_examples"] = s.outside;
  out["notes"] = s.notes;
  return rep;
}

}  // namespace symshape::dynamism
