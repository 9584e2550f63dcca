#pragma once
// `spec check` of a spec at given sizes, as `symshape infer` runs it on the specs it derives:
// apply the spec to a copy of the graph, propagate the sizes under it and run export's
// constraint phases (spec/spec_check.h).
#include <optional>
#include <span>
#include <string>

#include "graph/graph.h"
#include "prop/rules.h"
#include "spec/dynamic_shapes.h"
#include "spec/spec_check.h"

namespace symshape::infer {

// nullopt when the spec does not apply or the sizes do not propagate under it (`note` says why).
std::optional<spec::SpecCheckResult> check_at(const Graph& graph, const RuleTable& rules, const spec::DynamicShapes& spec,
                                              std::span<const std::span<const int64_t>> sizes, std::string& note);

}  // namespace symshape::infer
