#include "report/report_data.h"

#include <nlohmann/json.hpp>

#include "corpus/results_json.h"

namespace symshape {
namespace {

// One placeholder: its name, its spec dims ({"size": n} static, {"sym", "min", "max"}
// dynamic; max null = unbounded) and every example's sizes for it.
nlohmann::json input_json(const Graph& g, PlaceholderId p) {
  nlohmann::json in;
  in["name"] = std::string(g.node_name(g.placeholder_node(p)));
  nlohmann::json dims = nlohmann::json::array();
  if (g.spec_has(p)) {
    for (const SpecDim& d : g.spec_dims(p)) {
      if (!d.sym.valid()) {
        dims.push_back({{"size", d.size}});
        continue;
      }
      const std::optional<int64_t> hi = g.sym_max(d.sym);
      dims.push_back({{"sym", std::string(g.sym_name(d.sym))},
                      {"min", g.sym_min(d.sym)},
                      {"max", hi ? nlohmann::json(*hi) : nlohmann::json()}});
    }
  }
  nlohmann::json sizes = nlohmann::json::array();
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    const auto s = g.example(e).input_sizes(p);
    sizes.push_back(nlohmann::json(std::vector<int64_t>(s.begin(), s.end())));
  }
  if (!g.spec_has(p)) {  // no spec: every dim static, at the first example's size
    if (!sizes.empty())
      for (const auto& v : sizes.front()) dims.push_back({{"size", v}});
  }
  in["dims"] = std::move(dims);
  in["sizes"] = std::move(sizes);
  return in;
}

}  // namespace

std::string report_data_json(const ReportInputs& in) {
  nlohmann::json doc = nlohmann::json::parse(results_to_json(*in.results, /*with_timing=*/true, /*indent=*/-1));
  doc["recompile_limit"] = in.recompile_limit;
  nlohmann::json& graphs = doc["graphs"];
  for (size_t i = 0; i < in.results->graphs.size(); ++i) {
    const GraphResults& r = in.results->graphs[i];
    const auto it = in.graphs.find({r.file, r.name});
    if (it == in.graphs.end() || it->second == nullptr) continue;
    const Graph& g = *it->second;
    nlohmann::json inputs = nlohmann::json::array();
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) inputs.push_back(input_json(g, PlaceholderId(p)));
    graphs[i]["inputs"] = std::move(inputs);
    // The op a failed graph stopped at, for the op-coverage view.
    if (!r.error_node.empty()) {
      for (uint32_t n = 0; n < g.num_nodes(); ++n)
        if (g.node_name(NodeId(n)) == r.error_node) {
          graphs[i]["error_op"] = std::string(g.node_target(NodeId(n)));
          break;
        }
    }
  }
  return doc.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

}  // namespace symshape
