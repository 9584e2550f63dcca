// Behaviours D.146-147: invoke_subgraph. The first call of an identifier propagates the
// subgraph (its nodes get meta['val'], the call node none); later calls record a val; the
// call's arguments are checked like PyTorch's asserts.
#include "fake_test_util.h"

namespace symshape::test {
namespace {

// The subgraph body: (a) -> relu -> (relu,)
std::shared_ptr<const Graph> relu_body(OpTable& ops) {
  GraphBuilder b(ops, "repeated_subgraph0");
  const NodeId a = b.placeholder("a", DType::Float32, 2);
  const NodeId r = b.call("relu", "aten.relu.default", {b.node(a)});
  b.output(b.list({b.node(r)}));
  auto g = std::make_shared<Graph>();
  Diagnostics d;
  EXPECT_TRUE(b.finish(*g, d)) << (d.empty() ? "" : d.items[0].format());
  return g;
}

PropStatus propagate(FakeTensorProp& fp, const Ints& xs) {
  const std::span<const int64_t> inputs[] = {xs};
  return fp.propagate(inputs);
}

TEST(FakeTensorPropInvokeSubgraph, D146_FirstCallRecordsInTheSubgraphLaterCallsOnTheNode) {
  TestGraph t;
  auto body = relu_body(t.ops);
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId sg = t.b.get_attr_subgraph("repeated_subgraph0", "repeated_subgraph0", body);
  const NodeId c1 = t.b.call("invoke_subgraph", kInvokeSubgraphTarget, {t.b.node(sg), t.b.string("sg"), t.b.node(x)});
  const NodeId g1 = t.b.call("getitem", "operator.getitem", {t.b.node(c1), t.b.integer(0)});
  const NodeId c2 =
      t.b.call("invoke_subgraph_1", kInvokeSubgraphTarget, {t.b.node(sg), t.b.string("sg"), t.b.node(g1)});
  const NodeId g2 = t.b.call("getitem_1", "operator.getitem", {t.b.node(c2), t.b.integer(0)});
  t.b.output(t.b.list({t.b.node(g2)}));
  t.finish();

  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const PropStatus st = propagate(fp, {2, 3});
  ASSERT_TRUE(st.ok) << st.message;
  const TensorId xv = recorded_tensor(fp, t.node("x"));

  // first call: no val on the call node; the subgraph's nodes have theirs
  EXPECT_FALSE(fp.has_val(t.node("invoke_subgraph")));
  const FakeTensorProp* sub = fp.subgraph_prop("sg");
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(&sub->graph(), body.get());
  const TensorId rv = recorded_tensor(*sub, body->find_node("relu"));
  EXPECT_EQ(sub->recorded_values().sizes(rv)[0], fp.recorded_values().sizes(xv)[0]);
  EXPECT_EQ(sub->recorded_values().sizes(rv)[1], fp.recorded_values().sizes(xv)[1]);
  EXPECT_TRUE(sub->has_val(body->find_node("a")));
  // ... downstream nodes still saw its result
  EXPECT_TRUE(fp.has_val(t.node("getitem")));

  // second call with the same identifier: executed as an op, its node gets a val
  ASSERT_TRUE(fp.has_val(t.node("invoke_subgraph_1")));
  const ValueTable& rec = fp.recorded_values();
  const ValId v2 = fp.val(t.node("invoke_subgraph_1"));
  ASSERT_EQ(rec.kind(v2), ValKind::List);
  ASSERT_EQ(rec.items(v2).size(), 1u);
  const TensorId out = rec.as_tensor(rec.items(v2)[0]);
  EXPECT_EQ(rec.sizes(out)[0], rec.sizes(xv)[0]);
  EXPECT_EQ(rec.sizes(out)[1], rec.sizes(xv)[1]);
  // one FakeTensorProp for the graph, one nested for the first call
  EXPECT_EQ(mode.epoch, 2u);
}

TEST(FakeTensorPropInvokeSubgraph, D147_FirstArgumentMustBeAGetAttrNode) {
  TestGraph t;
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  t.b.call("invoke_subgraph", kInvokeSubgraphTarget, {t.b.node(x), t.b.string("sg"), t.b.node(x)});
  t.b.output(t.b.node(x));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const PropStatus st = propagate(fp, {2, 3});
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.kind, ErrorKind::Assertion);
  EXPECT_STREQ(error_kind_name(st.kind), "AssertionError");
  EXPECT_EQ(st.node, t.node("invoke_subgraph"));
  EXPECT_TRUE(has(st.message, "Expected n.args[0] to be a get_attr Node with str target")) << st.message;
}

TEST(FakeTensorPropInvokeSubgraph, IdentifierMustBeAString) {
  TestGraph t;
  auto body = relu_body(t.ops);
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId sg = t.b.get_attr_subgraph("sg_body", "sg_body", body);
  t.b.call("invoke_subgraph", kInvokeSubgraphTarget, {t.b.node(sg), t.b.integer(7), t.b.node(x)});
  t.b.output(t.b.node(x));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const PropStatus st = propagate(fp, {2, 3});
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.kind, ErrorKind::Assertion);
  EXPECT_TRUE(has(st.message, "Expected str, got <class 'int'>")) << st.message;
}

TEST(FakeTensorPropInvokeSubgraph, FirstCallOperandsMustHaveAVal) {
  // the operand is x.size(0) of a size-1 dim: a plain int, so its node has no val
  TestGraph t;
  auto body = relu_body(t.ops);
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId s = t.b.call("sym_size", "aten.sym_size.int", {t.b.node(x), t.b.integer(0)});
  const NodeId sg = t.b.get_attr_subgraph("sg_body", "sg_body", body);
  t.b.call("invoke_subgraph", kInvokeSubgraphTarget, {t.b.node(sg), t.b.string("sg"), t.b.node(s)});
  t.b.output(t.b.node(x));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const PropStatus st = propagate(fp, {1, 3});
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.kind, ErrorKind::Assertion);
  EXPECT_TRUE(has(st.message, "Expected Node with 'val' in meta")) << st.message;
}

TEST(FakeTensorPropInvokeSubgraph, StaticModeRunsSubgraphsToo) {
  TestGraph t;
  auto body = relu_body(t.ops);
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId sg = t.b.get_attr_subgraph("sg_body", "sg_body", body);
  const NodeId c = t.b.call("invoke_subgraph", kInvokeSubgraphTarget, {t.b.node(sg), t.b.string("sg"), t.b.node(x)});
  t.b.output(t.b.node(c));
  t.finish();
  FakeMode mode;
  FakeTensorProp fp(t.g, t.rules, mode);
  const PropStatus st = propagate(fp, {2, 3});
  ASSERT_TRUE(st.ok) << st.message;
  const FakeTensorProp* sub = fp.subgraph_prop("sg");
  ASSERT_NE(sub, nullptr);
  const TensorId rv = recorded_tensor(*sub, body->find_node("relu"));
  EXPECT_EQ(printed(fp.arena(), sub->recorded_values().sizes(rv)), (Strs{"2", "3"}));
  // the get_attr of a module records nothing
  EXPECT_FALSE(fp.has_val(t.node("sg_body")));
}

}  // namespace
}  // namespace symshape::test
