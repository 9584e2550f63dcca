// Behaviours D.134-140 and D.145: input conversion by the fake mode, what meta['val']
// records per node, and the mode's epoch.
#include "fake_test_util.h"

namespace symshape::test {
namespace {

// x -> relu -> output
void relu_graph(TestGraph& t) {
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId r = t.b.call("relu", "aten.relu.default", {t.b.node(x)});
  t.b.output(t.b.node(r));
  t.finish();
}

TEST(FakeTensorProp, D134_ShapeEnvModeGivesSymbolicUnspecialisedSizes) {
  TestGraph t;
  relu_graph(t);
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints x = {2, 3};
  const std::span<const int64_t> inputs[] = {x};
  const PropStatus st = fp.propagate(inputs);
  ASSERT_TRUE(st.ok) << st.message;

  const TensorId r = recorded_tensor(fp, t.node("relu"));
  const ValueTable& v = fp.recorded_values();
  const ExprArena& ar = env.arena();
  ASSERT_EQ(v.rank(r), 2u);
  const ExprId s0 = v.sizes(r)[0], s1 = v.sizes(r)[1];
  // (sA, sB): two distinct backed size symbols, neither 0/1-specialised to a constant
  EXPECT_EQ(ar.kind(s0), ExprKind::Symbol);
  EXPECT_EQ(ar.kind(s1), ExprKind::Symbol);
  EXPECT_NE(s0, s1);
  EXPECT_EQ(ar.symbol_name(s0).substr(0, 1), "s");
  EXPECT_EQ(ar.symbol_name(s1).substr(0, 1), "s");
  EXPECT_TRUE(env.is_backed(s0));
  EXPECT_EQ(env.size_hint(s0), 2);
  EXPECT_EQ(env.size_hint(s1), 3);
  // contiguous strides inferred from the sizes (INFER_STRIDE): (sB, 1)
  EXPECT_EQ(v.strides(r)[0], s1);
  EXPECT_EQ(v.strides(r)[1], ar.one());
  EXPECT_EQ(v.dtype(r), DType::Float32);
  // the placeholder's val carries the same symbols
  const TensorId xv = recorded_tensor(fp, t.node("x"));
  EXPECT_EQ(v.sizes(xv)[0], s0);
  EXPECT_EQ(v.sizes(xv)[1], s1);
}

TEST(FakeTensorProp, D134_DuckSizingSharesASymbolForEqualSizes) {
  TestGraph t;
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId y = t.b.placeholder("y", DType::Float32, 1);
  const NodeId a = t.b.call("add", "aten.add.Tensor", {t.b.node(x), t.b.node(y)});
  t.b.output(t.b.node(a));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints xs = {3, 3}, ys = {3};
  const std::span<const int64_t> inputs[] = {xs, ys};
  ASSERT_TRUE(fp.propagate(inputs).ok);
  const ValueTable& v = fp.recorded_values();
  const TensorId xv = recorded_tensor(fp, t.node("x")), yv = recorded_tensor(fp, t.node("y"));
  EXPECT_EQ(env.arena().kind(v.sizes(xv)[0]), ExprKind::Symbol);
  EXPECT_EQ(v.sizes(xv)[0], v.sizes(xv)[1]);
  EXPECT_EQ(v.sizes(yv)[0], v.sizes(xv)[0]);
}

TEST(FakeTensorProp, D135_StaticModeGivesConcreteSizes) {
  TestGraph t;
  relu_graph(t);
  FakeMode mode;  // no ShapeEnv
  ASSERT_TRUE(mode.is_static());
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints x = {2, 3};
  const std::span<const int64_t> inputs[] = {x};
  const PropStatus st = fp.propagate(inputs);
  ASSERT_TRUE(st.ok) << st.message;
  const TensorId r = recorded_tensor(fp, t.node("relu"));
  EXPECT_EQ(printed(fp.arena(), fp.recorded_values().sizes(r)), (Strs{"2", "3"}));
  EXPECT_EQ(printed(fp.arena(), fp.recorded_values().strides(r)), (Strs{"3", "1"}));
  EXPECT_EQ(fp.recorded_values().dtype(r), DType::Float32);
}

TEST(FakeTensorProp, D136_ViewSharesItsInputsStorageCloneDoesNot) {
  TestGraph t;
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId r = t.b.call("relu", "aten.relu.default", {t.b.node(x)});
  const NodeId v = t.b.call("view", "aten.view.default", {t.b.node(r), t.b.list({t.b.integer(-1)})});
  const NodeId c = t.b.call("clone", "aten.clone.default", {t.b.node(r)});
  t.b.output(t.b.list({t.b.node(v), t.b.node(c)}));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints xs = {2, 3};
  const std::span<const int64_t> inputs[] = {xs};
  const PropStatus st = fp.propagate(inputs);
  ASSERT_TRUE(st.ok) << st.message;
  EXPECT_EQ(recorded_storage(fp, t.node("view")), recorded_storage(fp, t.node("relu")));
  EXPECT_NE(recorded_storage(fp, t.node("clone")), recorded_storage(fp, t.node("relu")));
  // the recorded snapshot has the live value's storage, and the view is f32[sA*sB]
  const ValueTable& live = fp.values();
  EXPECT_EQ(recorded_storage(fp, t.node("view")),
            live.tensor(live.as_tensor(fp.live_value(t.node("relu")))).storage);
  const ExprArena& ar = env.arena();
  const TensorId rv = recorded_tensor(fp, t.node("relu")), vv = recorded_tensor(fp, t.node("view"));
  const auto rs = fp.recorded_values().sizes(rv);
  ASSERT_EQ(fp.recorded_values().rank(vv), 1u);
  EXPECT_EQ(fp.recorded_values().sizes(vv)[0], env.arena().mul(rs[0], rs[1]));
  EXPECT_EQ(ar.kind(fp.recorded_values().sizes(vv)[0]), ExprKind::Mul);
}

TEST(FakeTensorProp, D137_PlainIntResultRecordsNoVal) {
  // x.size(0) of a size-1 dim is the plain int 1 (0/1 specialisation), as is every size in
  // a static mode: such nodes get no meta['val'].
  TestGraph t;
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId s = t.b.call("sym_size", "aten.sym_size.int", {t.b.node(x), t.b.integer(0)});
  t.b.output(t.b.node(s));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints xs = {1, 3};
  const std::span<const int64_t> inputs[] = {xs};
  const PropStatus st = fp.propagate(inputs);
  ASSERT_TRUE(st.ok) << st.message;
  const ValueTable& live = fp.values();
  const ValId lv = fp.live_value(t.node("sym_size"));
  ASSERT_EQ(live.kind(lv), ValKind::SymInt);  // the node did produce the int 1 ...
  EXPECT_EQ(live.as_expr(lv), env.arena().one());
  EXPECT_FALSE(fp.has_val(t.node("sym_size")));  // ... but records nothing
  EXPECT_FALSE(fp.has_val(t.node("output")));
  EXPECT_TRUE(fp.has_val(t.node("x")));

  FakeMode static_mode;
  FakeTensorProp sp(t.g, t.rules, static_mode);
  const Ints ys = {5, 3};
  const std::span<const int64_t> static_inputs[] = {ys};
  ASSERT_TRUE(sp.propagate(static_inputs).ok);
  EXPECT_FALSE(sp.has_val(t.node("sym_size")));
}

TEST(FakeTensorProp, D138_SymIntResultIsRecorded) {
  TestGraph t;
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId s = t.b.call("sym_size", "aten.sym_size.int", {t.b.node(x), t.b.integer(0)});
  t.b.output(t.b.node(s));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints xs = {2, 3};
  const std::span<const int64_t> inputs[] = {xs};
  ASSERT_TRUE(fp.propagate(inputs).ok);
  const ValId v = fp.val(t.node("sym_size"));
  ASSERT_TRUE(v.valid());
  ASSERT_EQ(fp.recorded_values().kind(v), ValKind::SymInt);
  const TensorId xv = recorded_tensor(fp, t.node("x"));
  EXPECT_EQ(fp.recorded_values().as_expr(v), fp.recorded_values().sizes(xv)[0]);
  EXPECT_EQ(env.arena().kind(fp.recorded_values().as_expr(v)), ExprKind::Symbol);
  // the output node returns that SymInt too
  const ValId out = fp.val(t.node("output"));
  ASSERT_TRUE(out.valid());
  EXPECT_EQ(fp.recorded_values().as_expr(out), fp.recorded_values().sizes(xv)[0]);
}

TEST(FakeTensorProp, D139_TupleOfTensorAndIntRecordsTensorAndNone) {
  TestGraph t;
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const NodeId r = t.b.call("relu", "aten.relu.default", {t.b.node(x)});
  t.b.output(t.b.list({t.b.node(r), t.b.integer(3)}));  // return (relu, 3)
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints xs = {2, 3};
  const std::span<const int64_t> inputs[] = {xs};
  ASSERT_TRUE(fp.propagate(inputs).ok);
  // live: (tensor, 3)
  const ValueTable& live = fp.values();
  const ValId lo = fp.live_value(t.node("output"));
  ASSERT_EQ(live.kind(lo), ValKind::List);
  ASSERT_EQ(live.items(lo).size(), 2u);
  EXPECT_EQ(live.kind(live.items(lo)[1]), ValKind::SymInt);
  EXPECT_EQ(live.as_expr(live.items(lo)[1]), env.arena().integer(3));
  // recorded: (FakeTensor, None)
  const ValueTable& rec = fp.recorded_values();
  const ValId o = fp.val(t.node("output"));
  ASSERT_TRUE(o.valid());
  ASSERT_EQ(rec.kind(o), ValKind::List);
  ASSERT_EQ(rec.items(o).size(), 2u);
  ASSERT_EQ(rec.kind(rec.items(o)[0]), ValKind::Tensor);
  EXPECT_EQ(rec.kind(rec.items(o)[1]), ValKind::None);
  EXPECT_EQ(rec.tensor(rec.as_tensor(rec.items(o)[0])).storage, recorded_storage(fp, t.node("relu")));
}

TEST(FakeTensorProp, D140_GetAttrParameterIsAStaticFake) {
  TestGraph t;
  const NodeId x = t.b.placeholder("x", DType::Float32, 2);
  const Ints shape = {4, 4};
  const NodeId w = t.b.get_attr("weight", "weight", DType::Float32, shape);
  const NodeId m = t.b.call("mm", "aten.mm.default", {t.b.node(x), t.b.node(w)});
  t.b.output(t.b.node(m));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints xs = {3, 4};
  const std::span<const int64_t> inputs[] = {xs};
  const PropStatus st = fp.propagate(inputs);
  ASSERT_TRUE(st.ok) << st.message;
  const ExprArena& ar = env.arena();
  const TensorId wv = recorded_tensor(fp, t.node("weight"));
  EXPECT_EQ(printed(ar, fp.recorded_values().sizes(wv)), (Strs{"4", "4"}));
  EXPECT_EQ(printed(ar, fp.recorded_values().strides(wv)), (Strs{"4", "1"}));
  EXPECT_EQ(fp.recorded_values().dtype(wv), DType::Float32);
  // ... while the input is symbolic
  const TensorId xv = recorded_tensor(fp, t.node("x"));
  EXPECT_EQ(ar.kind(fp.recorded_values().sizes(xv)[0]), ExprKind::Symbol);
}

TEST(FakeTensorProp, D145_ConstructionIncrementsTheModesEpoch) {
  TestGraph t;
  relu_graph(t);
  ShapeEnv env;
  FakeMode mode(env);
  EXPECT_EQ(mode.epoch, 0u);
  FakeTensorProp a(t.g, t.rules, mode);
  EXPECT_EQ(mode.epoch, 1u);
  FakeTensorProp b(t.g, t.rules, mode);
  EXPECT_EQ(mode.epoch, 2u);
  const Ints xs = {2, 3};
  const std::span<const int64_t> inputs[] = {xs};
  ASSERT_TRUE(a.propagate(inputs).ok);  // propagating does not bump it
  EXPECT_EQ(mode.epoch, 2u);
  FakeMode static_mode;
  FakeTensorProp c(t.g, t.rules, static_mode);
  EXPECT_EQ(static_mode.epoch, 1u);
}

}  // namespace
}  // namespace symshape::test
