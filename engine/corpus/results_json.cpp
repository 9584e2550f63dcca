#include "corpus/results_json.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace symshape {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* kFormat = "symshape-results";

const char* value_kind_text(ResultValueKind k) {
  static constexpr const char* kNames[] = {"tensor", "int", "bool", "float", "none", "list", "other"};
  return kNames[static_cast<uint8_t>(k)];
}

json shape_json(const NodeShapeResult& n) {
  json j = {{"node", n.node}, {"name", n.name}, {"kind", value_kind_text(n.kind)}};
  if (n.kind == ResultValueKind::Tensor) {
    j["dtype"] = std::string(dtype_name(n.dtype));
    j["shape"] = n.shape;
    j["stride"] = n.stride;
  } else {
    j["text"] = n.text;
  }
  return j;
}

json verdict_json(const VerdictResult& v) {
  json j = {{"example", v.example}, {"specialization", v.specialization}, {"accepted", v.predicted_ok}};
  if (v.has_expected) {
    j["expected_ok"] = v.expected_ok;
    j["matches"] = v.matches;
  }
  if (!v.message.empty()) j["message"] = v.message;
  if (!v.error_node.empty()) j["error_node"] = v.error_node;
  return j;
}

json graph_json(const GraphResults& g, bool with_timing) {
  json j = {{"name", g.name},       {"file", g.file},   {"status", graph_status_name(g.status)},
            {"nodes", g.nodes},     {"examples", g.examples}, {"hints", g.hints},
            {"hints_from", g.hints_from}};
  if (!g.error.empty()) j["error"] = g.error;
  if (!g.error_node.empty()) j["error_node"] = g.error_node;
  j["guards"] = g.guards;
  json entries = json::array();
  for (const SpecializationEntryResult& e : g.entries)
    entries.push_back(
        {{"first_example", e.first_example}, {"accepted", e.accepted}, {"created_by", e.created_by}, {"guards", e.guards}});
  j["specializations"] = std::move(entries);
  json outputs = json::array();
  for (const NodeShapeResult& n : g.node_shapes) outputs.push_back(shape_json(n));
  j["outputs"] = std::move(outputs);
  json verdicts = json::array();
  for (const VerdictResult& v : g.verdicts) verdicts.push_back(verdict_json(v));
  j["verdicts"] = std::move(verdicts);
  if (with_timing)
    j["timing_ns"] = {{"propagate", g.timing.propagate_ns}, {"compile", g.timing.compile_ns}, {"eval", g.timing.eval_ns}};
  return j;
}

// Reading: every access goes through these, so a wrong or missing field names itself.
class Reader {
 public:
  explicit Reader(std::string& error) : error_(error) {}

  template <class T>
  bool get(const json& obj, const char* key, T& out, bool required = true) {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) return fail(fmt::format("missing field '{}'", key));
      return true;
    }
    try {
      out = it->get<T>();
    } catch (const json::exception&) {
      return fail(fmt::format("field '{}' has the wrong type", key));
    }
    return true;
  }
  bool fail(std::string msg) {
    error_ = where_.empty() ? std::move(msg) : where_ + ": " + msg;
    return false;
  }
  std::string where_;

 private:
  std::string& error_;
};

bool parse_kind(const std::string& s, ResultValueKind& out) {
  for (uint8_t k = 0; k <= uint8_t(ResultValueKind::Other); ++k)
    if (s == value_kind_text(ResultValueKind(k))) {
      out = ResultValueKind(k);
      return true;
    }
  return false;
}

bool parse_status(const std::string& s, GraphStatus& out) {
  for (uint8_t k = 0; k <= uint8_t(GraphStatus::Unsupported); ++k)
    if (s == graph_status_name(GraphStatus(k))) {
      out = GraphStatus(k);
      return true;
    }
  return false;
}

bool read_graph(Reader& r, const json& j, GraphResults& g) {
  if (!j.is_object()) return r.fail("a graph entry is not an object");
  std::string status;
  if (!r.get(j, "name", g.name)) return false;
  r.where_ = fmt::format("graph '{}'", g.name);
  if (!r.get(j, "file", g.file) || !r.get(j, "status", status) || !r.get(j, "nodes", g.nodes) ||
      !r.get(j, "examples", g.examples) || !r.get(j, "hints", g.hints) || !r.get(j, "hints_from", g.hints_from) ||
      !r.get(j, "error", g.error, false) || !r.get(j, "error_node", g.error_node, false) ||
      !r.get(j, "guards", g.guards))
    return false;
  if (!parse_status(status, g.status)) return r.fail(fmt::format("unknown status '{}'", status));
  g.ok = g.status == GraphStatus::Ok;
  json entries, outputs, verdicts;
  if (!r.get(j, "specializations", entries) || !r.get(j, "outputs", outputs) || !r.get(j, "verdicts", verdicts))
    return false;
  if (!entries.is_array() || !outputs.is_array() || !verdicts.is_array())
    return r.fail("specializations, outputs and verdicts must be arrays");
  for (const json& e : entries) {
    SpecializationEntryResult s;
    if (!r.get(e, "first_example", s.first_example) || !r.get(e, "accepted", s.accepted) ||
        !r.get(e, "created_by", s.created_by) || !r.get(e, "guards", s.guards))
      return false;
    g.entries.push_back(std::move(s));
  }
  for (const json& o : outputs) {
    NodeShapeResult n;
    std::string kind, dtype;
    if (!r.get(o, "node", n.node) || !r.get(o, "name", n.name) || !r.get(o, "kind", kind)) return false;
    if (!parse_kind(kind, n.kind)) return r.fail(fmt::format("output '{}': unknown kind '{}'", n.name, kind));
    if (n.kind == ResultValueKind::Tensor) {
      if (!r.get(o, "dtype", dtype) || !r.get(o, "shape", n.shape) || !r.get(o, "stride", n.stride)) return false;
      if (!parse_dtype(dtype, n.dtype)) return r.fail(fmt::format("output '{}': unknown dtype '{}'", n.name, dtype));
    } else if (!r.get(o, "text", n.text)) {
      return false;
    }
    g.node_shapes.push_back(std::move(n));
  }
  for (const json& v : verdicts) {
    VerdictResult x;
    if (!r.get(v, "example", x.example) || !r.get(v, "specialization", x.specialization) ||
        !r.get(v, "accepted", x.predicted_ok) || !r.get(v, "message", x.message, false) ||
        !r.get(v, "error_node", x.error_node, false))
      return false;
    x.has_expected = v.contains("expected_ok");
    if (x.has_expected && (!r.get(v, "expected_ok", x.expected_ok) || !r.get(v, "matches", x.matches))) return false;
    g.verdicts.push_back(std::move(x));
  }
  json timing;
  if (!r.get(j, "timing_ns", timing, false)) return false;
  if (!timing.is_null() && (!r.get(timing, "propagate", g.timing.propagate_ns) ||
                            !r.get(timing, "compile", g.timing.compile_ns) || !r.get(timing, "eval", g.timing.eval_ns)))
    return false;
  r.where_.clear();
  return true;
}

}  // namespace

std::string results_to_json(const Results& r, bool with_timing, int indent) {
  json graphs = json::array();
  for (const GraphResults& g : r.graphs) graphs.push_back(graph_json(g, with_timing));
  json root = {{"format", kFormat}, {"version", 1}, {"producer", r.producer}, {"graphs", std::move(graphs)}};
  return root.dump(indent) + "\n";
}

bool results_from_json(const std::string& text, Results& out, std::string& error) {
  out = Results();
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    error = "not valid JSON";
    return false;
  }
  Reader r(error);
  std::string format;
  int version = 0;
  json graphs;
  if (!root.is_object()) return r.fail("not a symshape results object");
  if (!r.get(root, "format", format) || !r.get(root, "version", version) || !r.get(root, "producer", out.producer) ||
      !r.get(root, "graphs", graphs))
    return false;
  if (format != kFormat) return r.fail(fmt::format("format '{}' is not '{}'", format, kFormat));
  if (version != 1) return r.fail(fmt::format("unsupported results version {} (this reader supports 1)", version));
  if (!graphs.is_array()) return r.fail("field 'graphs' must be an array");
  out.graphs.reserve(graphs.size());
  for (const json& g : graphs) {
    GraphResults gr;
    if (!read_graph(r, g, gr)) return false;
    out.graphs.push_back(std::move(gr));
  }
  return true;
}

}  // namespace symshape
