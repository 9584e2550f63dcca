#include "infer/check_at.h"

#include <fmt/format.h>

#include "core/error.h"
#include "spec/apply_spec.h"

namespace symshape::infer {

std::optional<spec::SpecCheckResult> check_at(const Graph& graph, const RuleTable& rules, const spec::DynamicShapes& spec,
                                              std::span<const std::span<const int64_t>> sizes, std::string& note) {
  Graph g = graph;
  try {
    spec::apply_spec(g, spec);
  } catch (const Error& e) {
    note = fmt::format("not checked: {}", e.what());
    return std::nullopt;
  }
  spec::SpecCheckResult r = spec::check_spec_at(g, rules, &spec, sizes);
  if (!r.checked) {
    note = fmt::format("spec check failed: {}", r.error);
    return std::nullopt;
  }
  return r;
}

}  // namespace symshape::infer
