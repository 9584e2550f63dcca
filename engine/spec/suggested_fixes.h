#pragma once
// The "Suggested fixes:" part of export's constraint report (semantics.md F.8) and its
// inverse, refine_dynamic_shapes_from_suggested_fixes:
// - prettify_results: DimConstraints' result strings, rewritten from sources to Dim names,
//   become per-Dim fixes (a range, a value, or a linear relation to another Dim), with roots
//   introduced by congruences (`dx = 2*_dx + 1`) and swapped roots resolved, unchanged ranges
//   dropped; printed as `name = Dim('name', min=.., max=..)` lines, then `name = 5` /
//   `name = dy + 1` lines. Forced specialisations come first as "Specializations unexpectedly
//   required (...)!".
// - refine_from_suggested_fixes: parses that block back and rewrites a spec.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "spec/dynamic_shapes.h"

namespace symshape::spec {

struct SolverResults {
  std::vector<std::string> static_results, dynamic_results;
  // source name -> Dim name, in input order (the string rewrite goes in this order).
  std::vector<std::pair<std::string, std::string>> source_to_debug;
  std::vector<std::pair<std::string, int64_t>> forced;  // "dx = L['x'].size()[0]" -> 8
};

// The text export appends to the violation report ("" when there is nothing to say).
std::string prettify_results(const SolverResults& r, const DynamicShapes& spec);

// Rewrites `spec` with the fixes of `message`'s "Suggested fixes:" block. Throws
// UserError(INVALID_INPUT) "Suggested fixes not found in error message given to
// refine_dynamic_shapes_from_suggested_fixes()" when there is none (behaviour 203).
DynamicShapes refine_from_suggested_fixes(const std::string& message, const DynamicShapes& spec);

}  // namespace symshape::spec
