#include "report/report_data.h"

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>

#include <optional>

#include "batch/stream.h"
#include "dynamism/dynamism_report.h"
#include "dynamism/example_json.h"
#include "dynamism/graph_examples.h"
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

// The graph's own examples under torch.compile's recompiles: which entry served each
// example (-1 rejected, -2 uncompiled past the limit) and what created each entry.
nlohmann::json compile_policy_json(const StreamResult& s) {
  nlohmann::json entries = nlohmann::json::array();
  for (const StreamSpecialization& e : s.specializations)
    entries.push_back({{"first_example", e.first_example},
                       {"accepted", e.accepted},
                       {"triggered_by", e.triggered_by},
                       {"dynamic_dims", e.dynamic_dims}});
  return {{"verdicts", s.verdict}, {"uncompiled", s.uncompiled}, {"specializations", std::move(entries)}};
}

// "L['x'].size()[2]" -> (placeholder of x, 2); false for any other position form.
bool parse_position(const Graph& g, const std::string& pos, uint32_t& placeholder, uint32_t& dim) {
  static constexpr std::string_view kOpen = "L['", kMid = "'].size()[";
  if (!pos.starts_with(kOpen)) return false;
  const size_t mid = pos.find(kMid);
  if (mid == std::string::npos || !pos.ends_with("]")) return false;
  const NodeId n = g.find_node(std::string_view(pos).substr(kOpen.size(), mid - kOpen.size()));
  const PlaceholderId p = n.valid() ? g.placeholder_of(n) : PlaceholderId();
  if (!p.valid()) return false;
  const std::string digits = pos.substr(mid + kMid.size(), pos.size() - 1 - mid - kMid.size());
  if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  placeholder = p.index();
  dim = uint32_t(std::stoul(digits));
  return true;
}

// `symshape dynamism` over the graph's own ok examples (on a copy: suggesting rewrites the
// graph's spec columns): the suggested spec, whether it was verified, and each dim's
// suggested range keyed by (placeholder, dim) for the histograms.
struct Suggestion {
  nlohmann::json spec;
  bool verified = false;
  std::vector<std::tuple<uint32_t, uint32_t, int64_t, std::optional<int64_t>>> ranges;
};

std::optional<Suggestion> suggest(const Graph& graph, const RuleTable& rules) {
  Graph g = graph;
  std::vector<uint64_t> ids;
  dynamism::ExampleSet set;
  Diagnostics problems;
  dynamism::read_examples_ndjson(dynamism::graph_examples_ndjson(g, false, ids), g.name(), set, problems);
  if (set.num_examples() == 0) return std::nullopt;
  const dynamism::DynamismReport rep = dynamism::dynamism_report(set, &g, &rules, true, {}, {}, problems);
  if (!rep.error.empty() || rep.spec_text.empty()) return std::nullopt;
  Suggestion s;
  s.spec = nlohmann::json::parse(rep.spec_text);
  s.verified = rep.verified;
  for (const auto& d : rep.json["dims"]) {
    if (!d.contains("range")) continue;
    const int64_t lo = d["range"][0].get<int64_t>();
    const std::optional<int64_t> hi =
        d["range"][1].is_null() ? std::nullopt : std::optional<int64_t>(d["range"][1].get<int64_t>());
    for (const auto& pos : d["positions"]) {
      uint32_t p = 0, k = 0;
      if (parse_position(graph, pos.get<std::string>(), p, k)) s.ranges.emplace_back(p, k, lo, hi);
    }
  }
  return s;
}

}  // namespace

std::string report_data_json(const ReportInputs& in) {
  nlohmann::json doc = nlohmann::json::parse(results_to_json(*in.results, /*with_timing=*/true, /*indent=*/-1));
  doc["recompile_limit"] = in.recompile_limit;
  nlohmann::json& graphs = doc["graphs"];
  std::vector<const Graph*> graph_of(in.results->graphs.size(), nullptr);
  for (size_t i = 0; i < graph_of.size(); ++i) {
    const GraphResults& r = in.results->graphs[i];
    const auto it = in.graphs.find({r.file, r.name});
    if (it != in.graphs.end()) graph_of[i] = it->second;
  }
  std::vector<std::optional<StreamResult>> compiled(graph_of.size());
  std::vector<std::optional<Suggestion>> suggested(graph_of.size());
  if (in.rules) {
    StreamOptions o;
    o.policy = RecompilePolicy::Compile;
    o.recompile_limit = uint32_t(in.recompile_limit);
    o.eval.threads = 1;  // parallel over graphs instead
    tbb::parallel_for(size_t(0), graph_of.size(), [&](size_t i) {
      if (!graph_of[i] || in.results->graphs[i].status != GraphStatus::Ok) return;
      try {
        compiled[i] = run_stream(*graph_of[i], *in.rules, ExampleColumns::from_graph(*graph_of[i]), o);
      } catch (const std::exception&) {
        // a graph the compile policy cannot stream keeps the export-policy timeline
      }
      try {
        suggested[i] = suggest(*graph_of[i], *in.rules);
      } catch (const std::exception&) {
        // no suggestion: the spec view shows the graph's own spec only
      }
    });
  }
  for (size_t i = 0; i < in.results->graphs.size(); ++i) {
    const GraphResults& r = in.results->graphs[i];
    const auto it = in.graphs.find({r.file, r.name});
    if (it == in.graphs.end() || it->second == nullptr) continue;
    const Graph& g = *it->second;
    nlohmann::json inputs = nlohmann::json::array();
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) inputs.push_back(input_json(g, PlaceholderId(p)));
    if (suggested[i]) {
      for (const auto& [p, k, lo, hi] : suggested[i]->ranges)
        if (p < inputs.size() && k < inputs[p]["dims"].size())
          inputs[p]["dims"][k]["suggested"] = {{"min", lo}, {"max", hi ? nlohmann::json(*hi) : nlohmann::json()}};
      graphs[i]["suggested_spec"] = std::move(suggested[i]->spec);
      graphs[i]["suggested_verified"] = suggested[i]->verified;
    }
    graphs[i]["inputs"] = std::move(inputs);
    if (compiled[i]) graphs[i]["compile_policy"] = compile_policy_json(*compiled[i]);
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
