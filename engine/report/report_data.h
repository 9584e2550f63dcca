#pragma once
// The data a report embeds: the corpus results (corpus/results_json.h, timings kept),
// each graph joined with what only its graph file knows (its inputs, their spec dims and
// the sizes every example gave them), as one compact JSON document.
//   ReportInputs in{.results = r, .recompile_limit = 8};
//   in.graphs[{file, name}] = &graph;           // optional, from paths or --examples-dir
//   std::string json = report_data_json(in);
#include <map>
#include <string>
#include <utility>

#include "formats/results_fb.h"
#include "graph/graph.h"
#include "prop/rules.h"

namespace symshape {

struct ReportInputs {
  const Results* results = nullptr;
  std::map<std::pair<std::string, std::string>, const Graph*> graphs;  // (file name, graph name)
  int recompile_limit = 8;  // torch._dynamo.config.cache_size_limit's default
  // With the rules (resolved against the graphs' OpTable), each graph's own examples are
  // also streamed under torch.compile's recompile policy (batch/stream.h), in parallel over
  // graphs, for the recompile timeline: "compile_policy" per graph.
  const RuleTable* rules = nullptr;
};

std::string report_data_json(const ReportInputs& in);

}  // namespace symshape
