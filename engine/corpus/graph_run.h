#pragma once
// One graph's share of a corpus run: propagate it with its hints (corpus/hints.h),
// produce and compile its guards, then stream its examples through the batch evaluator
// and record everything as a GraphResults (formats/results_fb.h) with its timings.
#include "formats/results_fb.h"
#include "graph/graph.h"
#include "prop/rules.h"

namespace symshape {

// `file` is recorded without its directory, so results do not depend on where a shard
// lives. The graph's own examples are streamed, or, when `examples_dir` is given and holds
// `<graph name>.examples.fb` or `<graph name>.examples.ndjson`, those (verdicts without a
// golden outcome). An examples file that cannot be read fails this graph (LoadError); its
// malformed NDJSON lines are left out and counted in `error`.
GraphResults run_graph(const Graph& g, const RuleTable& rules, std::string_view file,
                       const std::string& examples_dir = {});

// A graph that could not be loaded: reported under its file name, status LoadError.
GraphResults load_failure(std::string_view file, std::string message);

}  // namespace symshape
