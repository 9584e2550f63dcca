// Behaviours D.141-144: data-dependent ops under a fake mode: unbacked results, their
// meta['unbacked_bindings'], the exceptions of a mode without ShapeEnv, the item() memo.
#include "fake_test_util.h"

namespace symshape::test {
namespace {

// x -> <target>(x) -> output
void unary_graph(TestGraph& t, DType dtype, uint32_t rank, const char* target) {
  const NodeId x = t.b.placeholder("x", dtype, rank);
  const NodeId n = t.b.call("n", target, {t.b.node(x)});
  t.b.output(t.b.node(n));
  t.finish();
}

TEST(FakeTensorPropDataDependent, D141_NonzeroRecordsItsLengthBinding) {
  TestGraph t;
  unary_graph(t, DType::Float32, 2, "aten.nonzero.default");
  ShapeEnv env;
  FakeMode mode(env);
  ExprArena& ar = env.arena();
  // a static (3, 4) fake input, passed as is
  ValueTable inputs;
  const ExprId sizes[] = {ar.integer(3), ar.integer(4)}, strides[] = {ar.integer(4), ar.one()};
  const ValId x = inputs.of_tensor(inputs.add_tensor(DType::Float32, sizes, strides, ar.zero(), inputs.new_storage()));
  FakeTensorProp fp(t.g, t.rules, mode);
  const PropStatus st = fp.propagate_dont_convert_inputs(inputs, std::span<const ValId>(&x, 1));
  ASSERT_TRUE(st.ok) << st.message;

  const NodeId n = t.node("n");
  const TensorId v = recorded_tensor(fp, n);
  EXPECT_EQ(printed(ar, fp.recorded_values().sizes(v)), (Strs{"u0", "2"}));
  EXPECT_EQ(printed(ar, fp.recorded_values().strides(v)), (Strs{"1", "u0"}));
  EXPECT_EQ(fp.recorded_values().dtype(v), DType::Int64);
  const ExprId u0 = ar.find_symbol("u0");
  ASSERT_TRUE(u0.valid());
  EXPECT_TRUE(env.is_size_like(u0));
  EXPECT_TRUE(env.statically_known_true(ar.le(u0, ar.integer(12))));

  const auto bindings = fp.unbacked_bindings(n);
  ASSERT_EQ(bindings.size(), 1u);
  EXPECT_EQ(bindings[0].symbol, u0);
  ASSERT_EQ(bindings[0].path.size(), 2u);
  EXPECT_EQ(bindings[0].path[0].kind, KeyKind::CallMethod);
  EXPECT_EQ(bindings[0].path[0].method, TensorMethod::Size);
  EXPECT_EQ(bindings[0].path[1].kind, KeyKind::Sequence);
  EXPECT_EQ(bindings[0].path[1].index, 0u);
  EXPECT_EQ(fp.unbacked_bindings_repr(n), "{u0: (CallMethodKey(name='size'), SequenceKey(idx=0))}");
  EXPECT_EQ(key_path_str(ar, bindings[0].path), ".size()[0]");
  // nodes without fresh unbacked symbols have no bindings
  EXPECT_TRUE(fp.unbacked_bindings(t.node("x")).empty());
  EXPECT_TRUE(fp.unbacked_bindings(t.node("output")).empty());
}

TEST(FakeTensorPropDataDependent, D142_ItemBindsTheValueItselfOrItsIntConversion) {
  TestGraph ti;
  unary_graph(ti, DType::Int64, 0, "aten.item.default");
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(ti.g, ti.rules, mode);
  const Ints scalar = {};
  const std::span<const int64_t> inputs[] = {scalar};
  PropStatus st = fp.propagate(inputs);
  ASSERT_TRUE(st.ok) << st.message;
  const ValId v = fp.val(ti.node("n"));
  ASSERT_TRUE(v.valid());
  ASSERT_EQ(fp.recorded_values().kind(v), ValKind::SymInt);
  EXPECT_EQ(to_str(env.arena(), fp.recorded_values().as_expr(v)), "u0");
  auto b = fp.unbacked_bindings(ti.node("n"));
  ASSERT_EQ(b.size(), 1u);
  EXPECT_TRUE(b[0].path.empty());
  EXPECT_EQ(fp.unbacked_bindings_repr(ti.node("n")), "{u0: ()}");

  TestGraph tb;
  unary_graph(tb, DType::Bool, 0, "aten.item.default");
  ShapeEnv benv;
  FakeMode bmode(benv);
  FakeTensorProp bp(tb.g, tb.rules, bmode);
  st = bp.propagate(inputs);
  ASSERT_TRUE(st.ok) << st.message;
  const ValId bv = bp.val(tb.node("n"));
  ASSERT_TRUE(bv.valid());
  ASSERT_EQ(bp.recorded_values().kind(bv), ValKind::SymBool);
  EXPECT_EQ(to_str(benv.arena(), bp.recorded_values().as_expr(bv)), "Eq(u0, 1)");
  b = bp.unbacked_bindings(tb.node("n"));
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(to_str(benv.arena(), b[0].symbol), "u0");
  ASSERT_EQ(b[0].path.size(), 1u);
  EXPECT_EQ(b[0].path[0].kind, KeyKind::ConvertInt);
  EXPECT_EQ(bp.unbacked_bindings_repr(tb.node("n")), "{u0: (ConvertIntKey(),)}");
}

TEST(FakeTensorPropDataDependent, D143_ModeWithoutShapeEnvRaises) {
  TestGraph tn;
  unary_graph(tn, DType::Float32, 2, "aten.nonzero.default");
  FakeMode mode;  // no ShapeEnv
  const Ints xs = {3, 4};
  const std::span<const int64_t> inputs[] = {xs};
  {
    FakeTensorProp fp(tn.g, tn.rules, mode);
    const PropStatus st = fp.propagate(inputs);
    ASSERT_FALSE(st.ok);
    EXPECT_EQ(st.kind, ErrorKind::DynamicOutputShape);
    EXPECT_STREQ(error_kind_name(st.kind), "DynamicOutputShapeException");
    EXPECT_EQ(st.node, tn.node("n"));
    EXPECT_TRUE(has(st.message, "aten.nonzero.default")) << st.message;
    EXPECT_TRUE(fp.has_val(tn.node("x")));  // nodes before the failure were recorded
  }

  TestGraph ti;
  unary_graph(ti, DType::Int64, 0, "aten.item.default");
  const Ints scalar = {};
  const std::span<const int64_t> scalar_inputs[] = {scalar};
  FakeTensorProp fp(ti.g, ti.rules, mode);
  const PropStatus st = fp.propagate(scalar_inputs);
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.kind, ErrorKind::DataDependentOutput);
  EXPECT_STREQ(error_kind_name(st.kind), "DataDependentOutputException");
  // item() reaches the fake mode as _local_scalar_dense, which is what PyTorch names
  EXPECT_TRUE(has(st.message, "aten._local_scalar_dense.default")) << st.message;
}

TEST(FakeTensorPropDataDependent, D143_ArgumentDependentDynamicShapesRaiseToo) {
  // repeat_interleave without output_size: no tag entry, caught by the unbacked size
  TestGraph t;
  unary_graph(t, DType::Int64, 1, "aten.repeat_interleave.Tensor");
  FakeMode mode;
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints xs = {3};
  const std::span<const int64_t> inputs[] = {xs};
  const PropStatus st = fp.propagate(inputs);
  ASSERT_FALSE(st.ok);
  EXPECT_EQ(st.kind, ErrorKind::DynamicOutputShape);
  EXPECT_TRUE(has(st.message, "aten.repeat_interleave.Tensor")) << st.message;
  // the mode is still usable afterwards: nothing pending is left behind
  TestGraph r;
  const NodeId x = r.b.placeholder("x", DType::Float32, 1);
  r.b.output(r.b.node(r.b.call("relu", "aten.relu.default", {r.b.node(x)})));
  r.finish();
  FakeTensorProp ok(r.g, r.rules, mode);
  EXPECT_TRUE(ok.propagate(inputs).ok);
}

TEST(FakeTensorPropDataDependent, D144_ItemTwiceReturnsTheSameSymbol) {
  TestGraph t;
  const NodeId x = t.b.placeholder("x", DType::Int64, 0);
  const NodeId a = t.b.call("a", "aten.item.default", {t.b.node(x)});
  const NodeId b = t.b.call("b", "aten.item.default", {t.b.node(x)});
  t.b.output(t.b.list({t.b.node(a), t.b.node(b)}));
  t.finish();
  ShapeEnv env;
  FakeMode mode(env);
  FakeTensorProp fp(t.g, t.rules, mode);
  const Ints scalar = {};
  const std::span<const int64_t> inputs[] = {scalar};
  ASSERT_TRUE(fp.propagate(inputs).ok);
  const ValueTable& rec = fp.recorded_values();
  ASSERT_TRUE(fp.val(t.node("a")).valid());
  ASSERT_TRUE(fp.val(t.node("b")).valid());
  EXPECT_EQ(rec.as_expr(fp.val(t.node("a"))), rec.as_expr(fp.val(t.node("b"))));
  EXPECT_EQ(to_str(env.arena(), rec.as_expr(fp.val(t.node("b")))), "u0");
  // only the first call made a fresh symbol, so only it binds one
  EXPECT_EQ(fp.unbacked_bindings(t.node("a")).size(), 1u);
  EXPECT_TRUE(fp.unbacked_bindings(t.node("b")).empty());
}

}  // namespace
}  // namespace symshape::test
