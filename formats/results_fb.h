#pragma once
// Results of a propagation/conformance run (results.fbs): per graph the specialisations,
// guards, symbolic node shapes (as text) and a verdict per example. The in-memory form is
// plain data for the writer (symshape conform) and for readers (reports, diffs); it is
// not on any hot path.
#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <string>
#include <vector>

#include "graph/kinds.h"

namespace symshape {

enum class ResultValueKind : uint8_t { Tensor, Int, Bool, Float, None, List, Other };

struct SpecializationResult {
  std::string symbol;
  int64_t value = 0;
  std::string reason;
};

struct NodeShapeResult {
  uint32_t node = 0;
  std::string name;
  ResultValueKind kind = ResultValueKind::Tensor;
  DType dtype = DType::Float32;
  std::vector<std::string> shape;   // one symbolic expression per dim
  std::vector<std::string> stride;
  std::string text;                 // non-tensor values
};

struct VerdictResult {
  uint32_t example = 0;
  bool expected_ok = false;
  bool predicted_ok = false;
  bool matches = false;
  std::string error_node;
  std::string message;
  int32_t specialization = -1;  // entry that accepted the example, -1 none
  bool has_expected = false;    // expected_ok is known (golden examples)
};

// One compiled specialisation (a recompile).
struct SpecializationEntryResult {
  uint32_t first_example = 0;
  std::vector<std::string> guards;
  std::vector<std::string> created_by;  // guard failures of earlier entries
  uint32_t accepted = 0;
};

enum class GraphStatus : uint8_t { Ok, LoadError, PropagationError, Unsupported };
const char* graph_status_name(GraphStatus s);

// Wall-clock time of one graph's work; not part of a canonical comparison.
struct GraphTiming {
  uint64_t propagate_ns = 0;
  uint64_t compile_ns = 0;
  uint64_t eval_ns = 0;
};

struct GraphResults {
  std::string name;
  bool ok = false;
  std::string error;
  std::vector<SpecializationResult> specializations;
  std::vector<std::string> guards;
  std::vector<NodeShapeResult> node_shapes;
  std::vector<VerdictResult> verdicts;
  // written by `symshape corpus`
  std::string file{};  // file name without its directory
  GraphStatus status = GraphStatus::Ok;
  uint32_t nodes = 0;
  std::string error_node{};
  std::vector<std::string> hints{};  // "name=[d0, d1]" per placeholder
  std::string hints_from{};          // "example N" or "synthesised"
  std::vector<SpecializationEntryResult> entries{};
  uint32_t examples = 0;
  GraphTiming timing{};
};

struct Results {
  std::string producer;
  std::vector<GraphResults> graphs;
};

flatbuffers::DetachedBuffer write_results_fb(const Results& r);
// Verifies, then copies into `out`. False with a message on a bad buffer.
bool read_results_fb(const uint8_t* data, size_t size, Results& out, std::string& error);
bool load_results_fb_file(const std::string& path, Results& out, std::string& error);

}  // namespace symshape
