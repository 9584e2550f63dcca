#include "infer/infer_json.h"

#include "spec/spec_json.h"

namespace symshape::infer {

nlohmann::ordered_json infer_result_json(const Graph& g, const InferResult& r) {
  nlohmann::ordered_json out;
  out["sizes"] = nlohmann::ordered_json::object();
  for (size_t p = 0; p < r.sizes.size(); ++p)
    out["sizes"][std::string(g.node_name(g.placeholder_node(PlaceholderId(uint32_t(p)))))] = r.sizes[p];
  out["spec"] = r.spec ? nlohmann::ordered_json::parse(spec::dump_spec_json(*r.spec)) : nlohmann::ordered_json();
  out["constraints"] = nlohmann::ordered_json::array();
  for (const Constraint& c : r.constraints)
    out["constraints"].push_back({{"kind", predicate_kind_name(c.kind)},
                                  {"node", c.node},
                                  {"check", c.text},
                                  {"trace", c.trace},
                                  {"set_aside", c.set_aside}});
  out["status"] = infer_status_name(r.status);
  out["conflict"] = r.conflict;
  out["traces"] = r.traces;
  out["budget"] = r.budget;
  if (!r.error.empty()) out["error"] = r.error;
  if (!r.spec_note.empty()) out["spec_note"] = r.spec_note;
  // eager's region beside the spec, never in its place: export rejects what spans branches
  out["validity"] = r.validity ? nlohmann::ordered_json::parse(spec::dump_spec_json(*r.validity)) : nlohmann::ordered_json();
  if (!r.validity_note.empty()) out["validity_note"] = r.validity_note;
  return out;
}

}  // namespace symshape::infer
