#pragma once
// A stream of examples against one graph, in order, as torch.export-style tracing with a
// specialisation cache would serve it: an example goes to the first specialisation whose
// guards accept it; one that none accepts is traced with its sizes as hints (a new
// specialisation, a "recompile") or rejected with the error PyTorch would raise.
//
// Batched: each specialisation's guard program runs once over every later example
// (vectorised, batch/guard_eval.h); only the examples no program accepts are traced, in
// stream order. The verdicts equal those of the one-example-at-a-time cache
// (conform/specialization.h): tests/batch checks it example by example on the corpus.
// Under the compile policy each program runs over every later call (any of them may be
// looked up in it), and a walk over the verdicts in stream order replays Dynamo's lookup.
#include <cstdint>
#include <string>
#include <vector>

#include "batch/example_columns.h"
#include "batch/guard_eval.h"
#include "batch/guard_program.h"
#include "graph/graph.h"
#include "prop/rules.h"

namespace symshape {

// Export: the graph's dynamic_shapes spec decides which dims are dynamic (torch.export).
// Compile: torch.compile's default recompiles (docs/batch.md § --policy compile): the first
// example compiles with every dim static; an example no entry accepts recompiles with the
// dims whose sizes differ from the first frame's made dynamic (automatic dynamic shapes,
// 0/1 still specialised; an input whose rank changed is traced at its new rank, dynamic in
// every dim from then on); each call is looked up in the entries existing at that time,
// most recently used first (Dynamo's cache entry list); past `recompile_limit` entries the
// calls no entry serves run uncompiled.
enum class RecompilePolicy : uint8_t { Export, Compile };

struct StreamOptions {
  RecompilePolicy policy = RecompilePolicy::Export;
  uint32_t recompile_limit = 8;  // torch._dynamo.config.cache_size_limit (recompile_limit)
  GuardEvalOptions eval;
  // Also compute these nodes' symbolic output sizes for every example served (each
  // specialisation's formula, evaluated in its guard program): StreamResult::outputs.
  std::vector<NodeId> size_nodes;
};

inline constexpr int32_t kRejected = -1;    // verdict: no specialisation, tracing failed
inline constexpr int32_t kUncompiled = -2;  // verdict: past the recompile limit, runs eagerly

struct StreamSpecialization {
  uint64_t first_example = 0;            // the example whose sizes were the hints (0-based, as `verdict`)
  uint64_t first_line = 0;               // its NDJSON line (1-based), 0 for other sources
  std::vector<std::vector<int64_t>> hints;
  std::vector<std::string> guards;       // produce_guards text, PyTorch's order
  // Why each earlier entry did not serve the call that made this one. Compile policy: Dynamo's
  // recompile log, the frame's cache entries in list order (most recently used first) with the
  // failure get_guard_fail_reason names; export policy: each earlier entry newest first, its
  // first failing clause. triggered_entries[i] is the entry triggered_by[i] is about.
  std::vector<std::string> triggered_by;
  std::vector<uint32_t> triggered_entries;
  uint64_t accepted = 0;
  size_t clauses = 0, instructions = 0;  // of its compiled guard program
  std::string program;                   // that program as text (program_listing)
  std::vector<std::string> dynamic_dims; // compile policy: the dims traced dynamic, e.g. "x.size()[0]"
};

struct StreamResult {
  std::vector<StreamSpecialization> specializations;
  std::vector<int32_t> verdict;          // per example: specialisation index or kRejected
  struct Rejection {
    uint64_t example;                    // 0-based, as `verdict`
    uint64_t line;                       // NDJSON line (1-based), 0 for other sources
    std::string node;                    // where tracing failed ("" if not at a node)
    std::string message;
  };
  std::vector<Rejection> rejections;     // in example order
  uint64_t uncompiled = 0;               // compile policy: examples past the recompile limit
  uint64_t clauses = 0;                  // guard relations checked, one per example each
  double guard_seconds = 0.0;            // guard evaluation alone (no tracing, no loading)
  double trace_seconds = 0.0;            // propagation + guard compilation
  // With StreamOptions::size_nodes: output_names[k] ("node.size()[d]") and outputs[k][e], the
  // value for example e under the specialisation that served it (kNoOutputValue: none).
  std::vector<std::string> output_names;
  std::vector<std::vector<int64_t>> outputs;
};

StreamResult run_stream(const Graph& g, const RuleTable& rules, const ExampleColumns& ex, const StreamOptions& options = {});

// PyTorch's recompile-log line for a specialisation created by a guard failure.
std::string recompile_reason(const StreamSpecialization& s);

}  // namespace symshape
