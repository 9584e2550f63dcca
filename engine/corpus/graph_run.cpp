#include "corpus/graph_run.h"

#include <chrono>
#include <filesystem>
#include <fmt/core.h>

#include "batch/stream.h"
#include "conform/specialization.h"
#include "corpus/hints.h"
#include "corpus/node_shapes.h"

namespace symshape {
namespace {

using Clock = std::chrono::steady_clock;

uint64_t ns_since(Clock::time_point t0) {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count());
}

std::string base_name(std::string_view file) { return std::filesystem::path(file).filename().string(); }

GraphStatus status_of(ErrorKind kind) {
  return kind == ErrorKind::Unsupported ? GraphStatus::Unsupported : GraphStatus::PropagationError;
}

// Shape-wise, PyTorch accepts an example when it is inside the spec and either ran or
// failed only on tensor contents (an index out of range): a shape engine must accept
// exactly those.
bool shape_accepts(const ExampleView& ex) {
  return ex.in_spec() && (ex.ok() || ex.error_kind() == ExampleErrorKind::Value);
}

// The examples a graph streams: its own, or DIR/<name>.examples.fb|ndjson when present.
// False (with `error`) when such a file exists but cannot be read at all.
bool examples_for(const Graph& g, const std::string& dir, ExampleColumns& out, bool& external, std::string& error,
                  std::string& notes) {
  external = false;
  if (!dir.empty()) {
    const std::filesystem::path base = std::filesystem::path(dir) / std::string(g.name());
    std::error_code ec;
    const std::string fb = base.string() + ".examples.fb", nd = base.string() + ".examples.ndjson";
    if (std::filesystem::exists(fb, ec)) {
      external = true;
      if (ExampleColumns::from_example_set_file(g, fb, out, error)) return true;
      if (error.find(fb) == std::string::npos) error = fb + ": " + error;
      return false;
    }
    if (std::filesystem::exists(nd, ec)) {
      external = true;
      Diagnostics problems;
      if (!ExampleColumns::from_ndjson_file(g, nd, out, problems)) {
        error = problems.items.empty() ? nd + ": cannot read" : problems.items.front().format();
        return false;
      }
      if (!problems.items.empty())
        notes = fmt::format("{} malformed example line(s) left out; first: {}", problems.items.size(),
                            problems.items.front().format());
      return true;
    }
  }
  out = ExampleColumns::from_graph(g);
  return true;
}

}  // namespace

GraphResults load_failure(std::string_view file, std::string message) {
  GraphResults r;
  r.name = base_name(file);
  r.file = r.name;
  r.status = GraphStatus::LoadError;
  r.error = std::move(message);
  return r;
}

GraphResults run_graph(const Graph& g, const RuleTable& rules, std::string_view file, const std::string& examples_dir) {
  GraphResults r;
  r.name = std::string(g.name());
  r.file = base_name(file);
  r.nodes = g.num_nodes();
  ExampleColumns columns;
  bool external = false;
  std::string notes;
  if (!examples_for(g, examples_dir, columns, external, r.error, notes)) {
    r.status = GraphStatus::LoadError;
    return r;
  }
  r.examples = uint32_t(columns.num_examples());
  const GraphHints hints = choose_hints(g);
  r.hints = hints_text(g, hints);
  r.hints_from = hints_origin(hints);

  const Clock::time_point t0 = Clock::now();
  SpecializationCache base(g, rules);
  const std::vector<std::span<const int64_t>> hint_spans(hints.sizes.begin(), hints.sizes.end());
  PropStatus st;
  const bool ok = base.add(hint_spans, 0, st).has_value();
  r.timing.propagate_ns = ns_since(t0);
  if (!ok) {
    r.status = status_of(st.kind);
    r.error = st.message;
    if (st.node.valid() && st.node.index() < g.num_nodes()) r.error_node = std::string(g.node_name(st.node));
    return r;
  }
  r.ok = true;
  const Specialization& s = base.at(0);
  r.guards = s.guards.text;
  r.node_shapes = output_shapes(g, *s.prop, s.env->arena());

  // the examples, in order, through the batch engine's stream (compiled guard programs)
  const Clock::time_point t1 = Clock::now();
  const StreamResult stream = run_stream(g, rules, columns);
  r.error = notes;
  for (const StreamSpecialization& s : stream.specializations)
    r.entries.push_back({uint32_t(s.first_example), s.guards, s.triggered_by, uint32_t(s.accepted)});
  size_t next_rejection = 0;
  for (uint32_t e = 0; e < columns.num_examples(); ++e) {
    VerdictResult v;
    v.example = uint32_t(columns.source_index(e));
    v.has_expected = !external;
    v.expected_ok = !external && shape_accepts(g.example(e));
    v.specialization = stream.verdict[e];
    v.predicted_ok = stream.verdict[e] >= 0;
    if (!v.predicted_ok && next_rejection < stream.rejections.size()) {
      v.message = stream.rejections[next_rejection].message;
      v.error_node = stream.rejections[next_rejection].node;
      ++next_rejection;
    }
    v.matches = external || v.predicted_ok == v.expected_ok;
    r.verdicts.push_back(std::move(v));
  }
  r.timing.eval_ns = ns_since(t1);
  return r;
}

}  // namespace symshape
