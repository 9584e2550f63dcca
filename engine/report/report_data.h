#pragma once
// The data a report embeds: the corpus results (corpus results, timings kept), each graph
// joined with what only its graph file knows (its inputs, their spec dims and the sizes
// every example gave them). Two parts, so a page of 10,000 graphs opens fast:
// - `summary`: one compact JSON document with a row per graph (what the overview, its
//   distributions and the graph table need: counts, library, family, timings), parsed when
//   the page loads;
// - `details[i]`: graph i's own JSON (guards, specialisations, verdicts, inputs, recompile
//   timeline, suggested spec), parsed only when that graph's section is opened.
//   ReportInputs in{.results = r, .recompile_limit = 8};
//   in.graphs[{file, name}] = &graph;           // optional, from paths or --examples-dir
//   ReportData data = report_data(in);
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

struct ReportData {
  std::string summary;               // {"producer", "recompile_limit", "graphs": [row per graph]}
  std::vector<std::string> details;  // one JSON object per graph, in the results' order
};

ReportData report_data(const ReportInputs& in);

// The library and the architecture family of a corpus graph, from its name (the corpus
// builder names graphs `<library>.<model>`: `timm.resnet18`, `torch_geometric.models.GCN`):
// - library: the text before the first '.'; "other" for a name without one;
// - family: the model (the text after the last '.', the whole name without one): its
//   leading ASCII letters, lowercased, with a version suffix 'v' dropped when a digit
//   follows (mobilenetv3 -> mobilenet, swinv2 -> swin); when fewer than two letters are
//   left (t5, r3d_18, s3d) its first word (up to '_' or '-') lowercased; "other" when
//   that is empty too.
// resnet18 -> resnet, vit_b_16 -> vit, convnext_tiny -> convnext, efficientnet_b0 ->
// efficientnet, GCN -> gcn, gpt2 -> gpt, t5 -> t5.
std::string graph_library(std::string_view name);
std::string graph_family(std::string_view name);

}  // namespace symshape
