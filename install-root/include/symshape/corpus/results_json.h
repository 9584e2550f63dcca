#pragma once
// The corpus results (formats/results_fb.h's Results) as JSON, the human- and
// script-readable twin of results.fb. Same content, same order; a reader accepts exactly
// what the writer produces and reports anything else with the offending field.
#include <string>

#include "formats/results_fb.h"

namespace symshape {

// `with_timing = false` leaves the per-graph timings out (the canonical form).
std::string results_to_json(const Results& r, bool with_timing = true, int indent = 1);
bool results_from_json(const std::string& text, Results& out, std::string& error);

}  // namespace symshape
