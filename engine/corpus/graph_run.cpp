#include "corpus/graph_run.h"

#include <chrono>
#include <filesystem>

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

}  // namespace

GraphResults load_failure(std::string_view file, std::string message) {
  GraphResults r;
  r.name = base_name(file);
  r.file = r.name;
  r.status = GraphStatus::LoadError;
  r.error = std::move(message);
  return r;
}

GraphResults run_graph(const Graph& g, const RuleTable& rules, std::string_view file) {
  GraphResults r;
  r.name = std::string(g.name());
  r.file = base_name(file);
  r.nodes = g.num_nodes();
  r.examples = g.num_examples();
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

  // the examples, in order, through the specialisation cache
  const Clock::time_point t1 = Clock::now();
  SpecializationCache cache(g, rules);
  std::vector<std::span<const int64_t>> sizes(g.num_placeholders());
  for (uint32_t e = 0; e < g.num_examples(); ++e) {
    const ExampleView ex = g.example(e);
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) sizes[p] = ex.input_sizes(PlaceholderId(p));
    VerdictResult v;
    v.example = e;
    v.has_expected = true;
    v.expected_ok = shape_accepts(ex);
    std::optional<uint32_t> k = cache.find(sizes);
    if (!k) {
      PropStatus est;
      k = cache.add(sizes, e, est);
      if (k) r.entries.push_back({e, cache.at(*k).guards.text, {}, 0});
      else {
        v.message = est.message;
        if (est.node.valid() && est.node.index() < g.num_nodes()) v.error_node = std::string(g.node_name(est.node));
      }
    }
    if (k) {
      v.specialization = int32_t(*k);
      v.predicted_ok = true;
      ++r.entries[*k].accepted;
    }
    v.matches = v.predicted_ok == v.expected_ok;
    r.verdicts.push_back(std::move(v));
  }
  r.timing.eval_ns = ns_since(t1);
  return r;
}

}  // namespace symshape
