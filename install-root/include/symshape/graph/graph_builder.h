#pragma once
// Builds a Graph in C++ (tools and tests that make graphs rather than load them), filling
// the same columns as the loaders and validating the result with validate_graph. It is
// also the only way to make a graph with subgraphs (get_attr of a GraphModule, the body of
// invoke_subgraph), which the file formats do not carry.
//
//   OpTable ops;
//   GraphBuilder b(ops, "f");
//   NodeId x = b.placeholder("x", DType::Float32, 2);
//   NodeId r = b.call("relu", "aten.relu.default", {b.node(x)});
//   b.output(b.list({b.node(r)}));
//   Graph g;
//   Diagnostics d;
//   bool ok = b.finish(g, d);
//
// Arguments are made first (node(), integer(), list() ...) and then passed to call(); a
// list's items must be made before the list, as the loaders do.
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <utility>

#include "graph/diagnostic.h"
#include "graph/graph.h"

namespace symshape {

class GraphBuilder {
 public:
  GraphBuilder(OpTable& ops, std::string_view name);

  // ---- arguments ----
  ArgId node(NodeId n);
  ArgId integer(int64_t v);
  ArgId floating(double v);
  ArgId boolean(bool v);
  ArgId none();
  ArgId string(std::string_view s);
  ArgId dtype(DType d);
  ArgId list(std::span<const ArgId> items);
  ArgId list(std::initializer_list<ArgId> items) { return list(std::span<const ArgId>(items.begin(), items.size())); }

  // ---- nodes (in topological order; output last) ----
  NodeId placeholder(std::string_view name, DType dtype, uint32_t rank);
  // A weight / buffer with static metadata; `stride` empty means contiguous.
  NodeId get_attr(std::string_view name, std::string_view target, DType dtype, std::span<const int64_t> shape,
                  std::span<const int64_t> stride = {});
  // A get_attr naming a subgraph module. The subgraph must have been built on the same
  // OpTable.
  NodeId get_attr_subgraph(std::string_view name, std::string_view target, std::shared_ptr<const Graph> body);
  using KwargArg = std::pair<std::string_view, ArgId>;
  NodeId call(std::string_view name, std::string_view target, std::span<const ArgId> args,
              std::span<const KwargArg> kwargs = {});
  NodeId call(std::string_view name, std::string_view target, std::initializer_list<ArgId> args) {
    return call(name, target, std::span<const ArgId>(args.begin(), args.size()));
  }
  NodeId output(ArgId result);

  // Validates and moves the graph into `out` (bound to this builder's OpTable). Returns
  // false with diagnostics when the graph breaks an invariant of graph.h.
  bool finish(Graph& out, Diagnostics& diags);

 private:
  NodeId add_node(NodeKind kind, std::string_view name, std::string_view target);
  ArgId add_arg(ArgKind kind, uint64_t payload);

  OpTable& ops_;
  GraphStore s_;
};

}  // namespace symshape
