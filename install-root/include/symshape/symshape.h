#pragma once
// symshape's public C++ facade: symbolic shapes and guards of an ATen graph, for tools
// that run next to training (e.g. "which of tomorrow's batch shapes recompile?").
//
//   symshape::api::Engine engine;
//   symshape::api::Status st = engine.load_file("resnet18.graph.json");   // or .graph.fb, or memory
//   if (!st.ok()) { std::cerr << st.message << "\n"; return 1; }
//   st = engine.propagate({{8, 3, 224, 224}});       // sizes per input = the hints
//   st = engine.compile_guards();
//   const int64_t* cols[] = {batch.data(), ...};     // one column per (input, dim)
//   std::vector<int32_t> verdicts(n);
//   st = engine.evaluate(cols, engine.num_columns(), n, verdicts.data());
//   // verdicts[e] == -1: example e passes every guard; k >= 0: guard k failed
//
// Rules: no function throws (every failure is a Status with a message naming the file,
// node or argument); an Engine is not shared between threads, but any number of Engines
// may be used concurrently, one per thread. Only standard-library types cross this header.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace symshape::api {

enum class StatusCode : int {
  Ok = 0,
  InvalidArgument,   // a wrong call: sizes of the wrong rank, no graph loaded, ...
  IoError,           // the file cannot be read
  BadGraph,          // malformed JSON/FlatBuffers or an invalid graph
  ShapeError,        // propagation failed: PyTorch would raise for these sizes
  Unsupported,       // an op this engine has no rule for
  Internal,
};

struct Status {
  StatusCode code = StatusCode::Ok;
  std::string message;
  bool ok() const { return code == StatusCode::Ok; }
};

// One propagated node: a tensor's symbolic sizes and strides (PyTorch's SymInt text,
// e.g. "s0", "((s1 - 1)//2) + 1") and dtype, or a scalar/list value as text.
struct NodeInfo {
  std::string name;
  std::string op;      // placeholder / get_attr / call_function / output
  std::string target;  // e.g. "aten.conv2d.default"
  std::string kind;    // tensor, int, bool, float, none, list, other ("" before propagation)
  std::string dtype;   // tensors: "float32", ...
  std::vector<std::string> shape;
  std::vector<std::string> stride;
  std::string value;   // non-tensors: the value's text
};

// One input column of evaluate(): the size of input `input`'s dim `dim` per example.
struct InputColumn {
  std::string input;
  uint32_t dim = 0;
};

class Engine {
 public:
  Engine();
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // ---- loading: fx-graph-json or graph.fb, told apart by content ----
  Status load_file(const std::string& path);
  // `name` stands for the file in messages. The bytes are copied as needed.
  Status load_memory(const void* data, size_t size, std::string_view name = "<memory>");

  std::string graph_name() const;
  size_t num_nodes() const;
  size_t num_inputs() const;
  std::string input_name(size_t input) const;
  size_t input_rank(size_t input) const;
  size_t num_examples() const;  // golden examples stored in the graph file

  // ---- propagation ----
  // sizes[i] = the concrete sizes of input i (the hints); dims named in the graph's
  // dynamic_shapes spec become symbols with the spec's range, the rest stay static (as
  // torch.export does).
  Status propagate(const std::vector<std::vector<int64_t>>& sizes);
  // With the graph's first successful example as hints, or sizes synthesised from the spec.
  Status propagate_default();

  // After a successful propagate: node i's value (i < num_nodes()).
  Status node(size_t i, NodeInfo& out) const;
  // produce_guards text, one guard per entry, Python form (`L['x'].size()[0] >= 2`).
  std::vector<std::string> guards() const;

  // ---- guards over many examples ----
  // Compiles the current propagation's guards into a program evaluated column-wise.
  Status compile_guards();
  size_t num_columns() const;  // one per (input, dim), input-major
  InputColumn column(size_t k) const;
  // columns[k][e] = value of column k for example e. verdicts[e] = -1 when example e
  // satisfies every guard, else the index (into guards()) of the first guard it fails.
  Status evaluate(const int64_t* const* columns, size_t num_columns, size_t num_examples, int32_t* verdicts) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace symshape::api
