// GraphBuilder: graphs made in C++ satisfy the loaders' invariants, round-trip through
// fx-graph-json when they have no subgraphs, and are refused by the writers when they do.
#include <gtest/gtest.h>

#include "core/error.h"
#include "formats/graph_fb_writer.h"
#include "graph/graph_builder.h"
#include "graph/graph_equal.h"
#include "graph/json_loader.h"
#include "graph/json_writer.h"
#include "graph/validate.h"

namespace symshape {
namespace {

TEST(GraphBuilder, BuildsAGraphTheJsonLoaderReadsBackEqual) {
  OpTable ops;
  GraphBuilder b(ops, "f");
  const NodeId x = b.placeholder("x", DType::Float32, 2);
  const int64_t shape[] = {3, 4};
  const NodeId w = b.get_attr("w", "layer.weight", DType::Float32, shape);
  const NodeId v = b.call("view", "aten.view.default", {b.node(x), b.list({b.integer(-1), b.integer(4)})});
  const GraphBuilder::KwargArg kw[] = {{"alpha", b.floating(0.5)}};
  const ArgId add_args[] = {b.node(v), b.node(w)};
  const NodeId a = b.call("add", "aten.add.Tensor", add_args, kw);
  b.output(b.list({b.node(a), b.none()}));
  Graph g;
  Diagnostics d;
  ASSERT_TRUE(b.finish(g, d)) << (d.empty() ? "" : d.items[0].format());
  EXPECT_EQ(g.num_nodes(), 5u);
  EXPECT_EQ(g.find_node("add"), a);
  EXPECT_EQ(g.node_op(a), ops.find_op("aten.add.Tensor"));
  EXPECT_EQ(g.attr_stride(g.attr_of(w))[0], 4);
  EXPECT_EQ(g.subgraph_of(w), nullptr);
  EXPECT_TRUE(check_graph_integrity(g, "b", GraphLimits{}, d));

  OpTable ops2;
  Graph back;
  JsonGraphLoader loader;
  ASSERT_TRUE(loader.load_buffer(write_graph_json(g), "b.json", ops2, back, d)) << d.items[0].format();
  EXPECT_EQ(graph_difference(g, back), "");
}

TEST(GraphBuilder, SubgraphsAreInMemoryOnly) {
  OpTable ops;
  GraphBuilder sb(ops, "body");
  const NodeId a = sb.placeholder("a", DType::Float32, 1);
  sb.output(sb.list({sb.node(sb.call("relu", "aten.relu.default", {sb.node(a)}))}));
  auto body = std::make_shared<Graph>();
  Diagnostics d;
  ASSERT_TRUE(sb.finish(*body, d));

  GraphBuilder b(ops, "f");
  const NodeId x = b.placeholder("x", DType::Float32, 1);
  const NodeId sg = b.get_attr_subgraph("sg", "sg", body);
  b.call("call", "torch.ops.higher_order.invoke_subgraph", {b.node(sg), b.string("id"), b.node(x)});
  b.output(b.node(x));
  Graph g;
  ASSERT_TRUE(b.finish(g, d)) << (d.empty() ? "" : d.items[0].format());
  EXPECT_EQ(g.subgraph_of(sg), body.get());
  EXPECT_FALSE(g.attr_of(sg).valid());
  EXPECT_TRUE(check_graph_integrity(g, "b", GraphLimits{}, d));
  EXPECT_EQ(graph_difference(g, g), "");

  try {
    (void)write_graph_json(g);
    ADD_FAILURE() << "write_graph_json accepted a subgraph";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  }
  flatbuffers::DetachedBuffer buf;
  std::string error;
  EXPECT_FALSE(write_graph_fb(g, buf, error));
  EXPECT_NE(error.find("subgraphs"), std::string::npos);

  // a subgraph built on another OpTable is rejected
  OpTable other;
  GraphBuilder ob(other, "body2");
  ob.output(ob.node(ob.placeholder("p", DType::Float32, 0)));
  auto foreign = std::make_shared<Graph>();
  ASSERT_TRUE(ob.finish(*foreign, d));
  GraphBuilder bad(ops, "g");
  bad.get_attr_subgraph("sg", "sg", foreign);
  bad.output(bad.none());
  Graph gb;
  Diagnostics bd;
  EXPECT_FALSE(bad.finish(gb, bd));
}

}  // namespace
}  // namespace symshape
