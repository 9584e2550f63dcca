#include "report/report_data.h"

#include <nlohmann/json.hpp>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "batch/stream.h"
#include "dynamism/dynamism_report.h"
#include "dynamism/example_json.h"
#include "dynamism/graph_examples.h"

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

// Graph i's section data (report_data.h). Every guard text once: "guard_text" holds the
// graph's distinct guards (its hint propagation's first, in order), "guards" and each
// specialisation's "guards" index into it (a corpus's specialisations repeat most guards).
nlohmann::json detail_json(const GraphResults& r) {
  nlohmann::json d;
  d["hints"] = r.hints;
  d["hints_from"] = r.hints_from;
  if (!r.error.empty()) d["error"] = r.error;
  if (!r.error_node.empty()) d["error_node"] = r.error_node;
  std::vector<std::string_view> text;
  std::unordered_map<std::string_view, uint32_t> index;
  const auto intern = [&](const std::string& guard) {
    const auto [it, added] = index.emplace(guard, uint32_t(text.size()));
    if (added) text.push_back(guard);
    return it->second;
  };
  std::vector<uint32_t> guards;
  for (const std::string& guard : r.guards) guards.push_back(intern(guard));
  nlohmann::json entries = nlohmann::json::array();
  for (const SpecializationEntryResult& e : r.entries) {
    std::vector<uint32_t> ids;
    for (const std::string& guard : e.guards) ids.push_back(intern(guard));
    entries.push_back({{"first_example", e.first_example}, {"accepted", e.accepted}, {"created_by", e.created_by},
                       {"guards", std::move(ids)}});
  }
  d["guard_text"] = text;
  d["guards"] = std::move(guards);
  d["specializations"] = std::move(entries);
  // Verdicts as two columns (example, the specialisation that served it or -1), and the
  // examples that failed with their node and message.
  std::vector<uint32_t> example;
  std::vector<int32_t> specialization;
  nlohmann::json failed = nlohmann::json::array();
  for (const VerdictResult& v : r.verdicts) {
    example.push_back(v.example);
    specialization.push_back(v.specialization);
    if (!v.message.empty()) failed.push_back({{"example", v.example}, {"error_node", v.error_node}, {"message", v.message}});
  }
  d["verdict_example"] = std::move(example);
  d["verdict_spec"] = std::move(specialization);
  d["failed_examples"] = std::move(failed);
  return d;
}

// Graph i's row of the summary: what the overview, the distributions and the table show.
nlohmann::json summary_json(const GraphResults& r, const Graph* g, const std::string& error_op) {
  uint32_t accepted = 0, rejected = 0, mismatches = 0;
  for (const VerdictResult& v : r.verdicts) {
    (v.specialization >= 0 ? accepted : rejected) += 1;
    mismatches += v.has_expected && !v.matches;
  }
  nlohmann::json s = {{"name", r.name},
                      {"file", r.file},
                      {"status", graph_status_name(r.status)},
                      {"library", graph_library(r.name)},
                      {"family", graph_family(r.name)},
                      {"nodes", r.nodes},
                      {"examples", r.examples},
                      {"specializations", r.entries.size()},
                      {"accepted", accepted},
                      {"rejected", rejected},
                      {"mismatches", mismatches},
                      {"guards", r.guards.size()},
                      {"time_ns", {r.timing.propagate_ns, r.timing.compile_ns, r.timing.eval_ns}}};
  if (g != nullptr) {  // input dims the spec makes dynamic; unknown without the graph file
    uint32_t dynamic = 0;
    for (uint32_t p = 0; p < g->num_placeholders(); ++p)
      if (g->spec_has(PlaceholderId(p)))
        for (const SpecDim& d : g->spec_dims(PlaceholderId(p))) dynamic += d.sym.valid();
    s["dynamic_dims"] = dynamic;
  }
  // The op a failed graph stopped at (the failing node's target), else its node.
  if (r.status != GraphStatus::Ok)
    s["blocked_by"] = !error_op.empty() ? error_op : !r.error_node.empty() ? r.error_node : std::string("(graph)");
  return s;
}

std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

bool ascii_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

}  // namespace

std::string graph_library(std::string_view name) {
  const size_t dot = name.find('.');
  return dot == std::string_view::npos || dot == 0 ? std::string("other") : std::string(name.substr(0, dot));
}

std::string graph_family(std::string_view name) {
  const size_t dot = name.rfind('.');
  const std::string_view model = dot == std::string_view::npos ? name : name.substr(dot + 1);
  size_t n = 0;
  while (n < model.size() && ascii_alpha(model[n])) ++n;
  size_t stem = n;
  if (stem >= 1 && n < model.size() && model[n] >= '0' && model[n] <= '9' && ascii_lower(model[stem - 1]) == 'v') --stem;
  std::string out;
  if (stem >= 2) {
    out = model.substr(0, stem);
  } else {
    out = model.substr(0, std::min(model.find('_'), model.find('-')));
  }
  for (char& c : out) c = ascii_lower(c);
  return out.empty() ? std::string("other") : out;
}

ReportData report_data(const ReportInputs& in) {
  const std::vector<GraphResults>& results = in.results->graphs;
  std::vector<const Graph*> graph_of(results.size(), nullptr);
  for (size_t i = 0; i < graph_of.size(); ++i) {
    const auto it = in.graphs.find({results[i].file, results[i].name});
    if (it != in.graphs.end()) graph_of[i] = it->second;
  }
  StreamOptions o;
  o.policy = RecompilePolicy::Compile;
  o.recompile_limit = uint32_t(in.recompile_limit);
  o.eval.threads = 1;  // parallel over graphs instead
  ReportData out;
  out.details.resize(results.size());
  std::vector<std::string> rows(results.size());
  tbb::parallel_for(size_t(0), results.size(), [&](size_t i) {
    const GraphResults& r = results[i];
    const Graph* g = graph_of[i];
    nlohmann::json d = detail_json(r);
    std::string error_op;
    if (g != nullptr) {
      std::optional<StreamResult> compiled;
      std::optional<Suggestion> suggested;
      if (in.rules && r.status == GraphStatus::Ok) {
        try {
          compiled = run_stream(*g, *in.rules, ExampleColumns::from_graph(*g), o);
        } catch (const std::exception&) {
          // a graph the compile policy cannot stream keeps the export-policy timeline
        }
        try {
          suggested = suggest(*g, *in.rules);
        } catch (const std::exception&) {
          // no suggestion: the spec view shows the graph's own spec only
        }
      }
      nlohmann::json inputs = nlohmann::json::array();
      for (uint32_t p = 0; p < g->num_placeholders(); ++p) inputs.push_back(input_json(*g, PlaceholderId(p)));
      if (suggested) {
        for (const auto& [p, k, lo, hi] : suggested->ranges)
          if (p < inputs.size() && k < inputs[p]["dims"].size())
            inputs[p]["dims"][k]["suggested"] = {{"min", lo}, {"max", hi ? nlohmann::json(*hi) : nlohmann::json()}};
        d["suggested_spec"] = std::move(suggested->spec);
        d["suggested_verified"] = suggested->verified;
      }
      d["inputs"] = std::move(inputs);
      if (compiled) d["compile_policy"] = compile_policy_json(*compiled);
      // The op a failed graph stopped at, for the op-coverage view.
      if (!r.error_node.empty()) {
        const NodeId n = g->find_node(r.error_node);
        if (n.valid()) d["error_op"] = error_op = std::string(g->node_target(n));
      }
    }
    out.details[i] = dump(d);
    rows[i] = dump(summary_json(r, g, error_op));
  });
  nlohmann::json head = {{"producer", in.results->producer}, {"recompile_limit", in.recompile_limit}};
  std::string summary = dump(head);
  summary.pop_back();  // the closing brace: the rows follow
  size_t bytes = summary.size() + 16;
  for (const std::string& row : rows) bytes += row.size() + 1;
  summary.reserve(bytes);
  summary += ",\"graphs\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i) summary += ',';
    summary += rows[i];
  }
  summary += "]}";
  out.summary = std::move(summary);
  return out;
}

}  // namespace symshape
