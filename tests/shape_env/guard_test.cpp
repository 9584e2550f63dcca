// Guarding on backed symbols (semantics.md C.7): evaluate_expr / guard_bool / guard_int
// record the decision, refine ranges, specialise. Behaviours 49-51, 73-81.
#include "shape_env_test_util.h"

namespace symshape::test {

using ShapeEnvBehaviour = ShapeEnvTest;

TEST_F(ShapeEnvBehaviour, B49_TrueGuardRaisesLowerBound) {
  const ExprId s = create_symint(env, 10, DimDynamic::Dynamic);
  EXPECT_TRUE(env.guard_bool(a.gt(s, I(4))));
  EXPECT_EQ(env.range(s).str(), "[5, int_oo]");
}

TEST_F(ShapeEnvBehaviour, B50_FalseGuardRecordsNegationAndUpperBound) {
  const ExprId s = create_symint(env, 2, DimDynamic::Dynamic);
  EXPECT_FALSE(env.guard_bool(a.gt(s, I(4))));
  EXPECT_EQ(str_guards(env), "[s97 <= 4]");
  EXPECT_EQ(env.range(s).str(), "[2, 4]");
}

TEST_F(ShapeEnvBehaviour, B51_FloorDivGuardIsolatesTheSymbol) {
  const ExprId s = create_symint(env, 9);
  EXPECT_TRUE(env.guard_bool(a.gt(a.floordiv(s, I(2)), I(3))));
  EXPECT_EQ(env.range(s).str(), "[8, int_oo]");
}

TEST_F(ShapeEnvBehaviour, C73_GuardIntSpecialises) {
  const ExprId s = create_symint(env, 2);
  EXPECT_EQ(env.guard_int(s), 2);
  ASSERT_EQ(env.guards().size(), 1u);
  EXPECT_EQ(str(env.guards()[0].expr), "Eq(s97, 2)");
  EXPECT_EQ(env.replace(s), I(2));
}

TEST_F(ShapeEnvBehaviour, C74_SymIntOfIntAndOfTrueDiv) {
  const ExprId s = create_symint(env, 5);
  EXPECT_EQ(env.guard_int(s), 5);  // sym_int(SymInt) is int()
  EXPECT_EQ(str(env.guards()[0].expr), "Eq(s97, 5)");
  const ExprId t = create_symint(env, 7);
  // sym_int(t / 2): truncation of the float quotient
  EXPECT_EQ(env.guard_int(a.trunc_to_int(a.int_true_div(t, I(2)))), 3);
  ASSERT_EQ(env.guards().size(), 2u);
  EXPECT_EQ(str(env.guards()[1].expr), "Eq(TruncToInt(IntTrueDiv(s26, 2)), 3)");
}

TEST_F(ShapeEnvBehaviour, C75_FloorAndCeilOfFloatExpressions) {
  {
    ShapeEnv e;
    ExprArena& ar = e.arena();
    const ExprId s = create_symint(e, 5);
    EXPECT_EQ(e.guard_int(ar.floor_to_int(ar.int_true_div(s, ar.integer(2)))), 2);
    EXPECT_EQ(to_str(ar, e.guards()[0].expr), "Eq(FloorToInt(IntTrueDiv(s97, 2)), 2)");
  }
  {
    ShapeEnv e;
    ExprArena& ar = e.arena();
    const ExprId s = create_symint(e, 5);
    EXPECT_EQ(e.guard_int(ar.ceil_to_int(ar.int_true_div(s, ar.integer(2)))), 3);
    EXPECT_EQ(to_str(ar, e.guards()[0].expr), "Eq(CeilToInt(IntTrueDiv(s97, 2)), 3)");
  }
  {
    ShapeEnv e;
    ExprArena& ar = e.arena();
    const ExprId s = create_symint(e, 5);
    EXPECT_EQ(e.guard_int(ar.floor_to_int(ar.mul(ar.floating(3.0), ar.to_float(s)))), 15);
    EXPECT_EQ(to_str(ar, e.guards()[0].expr), "Eq(FloorToInt(3.0*ToFloat(s97)), 15)");
  }
}

TEST_F(ShapeEnvBehaviour, C76_OpaqueFloatFunctionsGuardOnTheirValue) {
  const ExprId s = create_symint(env, 4);
  EXPECT_EQ(env.guard_float(a.opaque_unary(OpaqueFn::Log2, a.to_float(s))), 2.0);
  EXPECT_EQ(str(env.guards()[0].expr), "Eq(OpaqueUnaryFn_log2(ToFloat(s97)), 2.0)");
  // torch._sym_sqrt(s) then int(): the float guard is recorded with value 2.0
  EXPECT_EQ(env.guard_float(a.opaque_unary(OpaqueFn::Sqrt, a.to_float(s))), 2.0);
  EXPECT_EQ(str(env.guards()[1].expr), "Eq(OpaqueUnaryFn_sqrt(ToFloat(s97)), 2.0)");
}

TEST_F(ShapeEnvBehaviour, C77_SymIteCreatesNoGuardUntilUsed) {
  const ExprId t = create_symint(env, 5), f = create_symint(env, 4);
  const ExprId r = a.sym_ite(a.eq(t, I(5)), t, f);
  EXPECT_TRUE(env.guards().empty());
  EXPECT_TRUE(env.guard_bool(a.eq(r, I(5))));
  EXPECT_EQ(str_guards(env), "[Eq(Piecewise((s97, Eq(s97, 5)), (s26, True)), 5)]");
}

TEST_F(ShapeEnvBehaviour, C78_SpecializeZeroOneDecidesNotOne) {
  const ExprId s = create_symint(env, 5);
  EXPECT_TRUE(env.guard_bool(a.ne(s, I(1))));
  EXPECT_EQ(env.guards().size(), 0u);
  ShapeEnv e(ShapeEnvSettings{.specialize_zero_one = false});
  const ExprId t = create_symint(e, 5);
  EXPECT_TRUE(e.guard_bool(e.arena().ne(t, e.arena().one())));
  EXPECT_EQ(e.guards().size(), 1u);
}

TEST_F(ShapeEnvBehaviour, C79_DuckShapeMakesEqualityFree) {
  const ExprId x = create_symint(env, 5), y = create_symint(env, 5);
  EXPECT_TRUE(env.guard_bool(a.eq(x, y)));
  EXPECT_EQ(env.guards().size(), 0u);
  ShapeEnv e(ShapeEnvSettings{.duck_shape = false});
  const ExprId p = create_symint(e, 5), q = create_symint(e, 5);
  EXPECT_NE(p, q);
  EXPECT_TRUE(e.guard_bool(e.arena().eq(p, q)));
  EXPECT_EQ(e.guards().size(), 1u);
}

TEST_F(ShapeEnvBehaviour, C80_TruthOfSizeIsImpliedByRange) {
  const ExprId s = create_symint(env, 5);
  EXPECT_TRUE(env.guard_bool(a.ne(s, I(0))));  // bool(SymInt) is `s != 0`
  EXPECT_TRUE(env.guards().empty());
}

TEST_F(ShapeEnvBehaviour, C81_BitwiseOpsGuardOnTheirValue) {
  const ExprId x = create_symint(env, 12), y = create_symint(env, 10);
  EXPECT_EQ(env.guard_int(a.bitwise_and(x, y)), 8);
  EXPECT_EQ(str(env.guards()[0].expr), "Eq(BitwiseFn_bitwise_and(s97, s26), 8)");
  EXPECT_EQ(env.guard_int(a.bitwise_or(x, y)), 14);
  EXPECT_EQ(str(env.guards()[1].expr), "Eq(BitwiseFn_bitwise_or(s97, s26), 14)");
}

// get_implications (symbolic_shapes.py) dispatches on the simplified guard's SymPy class:
// StrictLessThan and LessThan add implied relations, a `>` / `>=` guard only itself and its
// negation. So after `X >= 1` (X a floor-division chain the ranges cannot bound), `X > 0` is
// still undecided, as in PyTorch (timm resnetaa50's conv then records `X > 0 or Y > 0`);
// after `X < 5`, `X <= 4` is decided.
TEST_F(ShapeEnvBehaviour, GreaterGuardImpliesOnlyItselfAndItsNegation) {
  const ExprId s = create_symint(env, 64, DimDynamic::Dynamic);
  ExprId x = s;
  for (int i = 0; i < 5; ++i) x = a.floordiv(a.sub(x, I(1)), I(2));
  x = a.add(x, I(1));
  EXPECT_TRUE(env.guard_bool(a.ge(x, I(1))));
  EXPECT_TRUE(env.statically_known_true(a.ge(x, I(1))));
  EXPECT_FALSE(env.statically_known_true(a.gt(x, I(0))));
  EXPECT_TRUE(env.guard_bool(a.lt(x, I(5))));
  EXPECT_TRUE(env.statically_known_true(a.le(x, I(4))));
  EXPECT_TRUE(env.statically_known_true(a.ne(x, I(5))));
}

}  // namespace symshape::test

namespace symshape::test {
namespace {

// The view helper's split size of W by ceil(W/2) (checked on a 2.13 ShapeEnv): guarding it
// equal to 2 implies only the implications of that Eq, nothing about `!= 1` or `>= 1`
TEST_F(ShapeEnvBehaviour, EqualityGuardOnAFloorDivImpliesNoOtherBound) {
  const ExprId s = create_symint(env, 8, DimDynamic::Dynamic);
  const ExprId wh = a.floordiv(s, a.ceil_to_int(a.int_true_div(s, I(2))));
  EXPECT_FALSE(env.statically_known_true(a.ne(wh, I(1))));
  EXPECT_TRUE(env.guard_bool(a.eq(wh, I(2))));
  EXPECT_FALSE(env.statically_known_true(a.ne(wh, I(1))));
  EXPECT_FALSE(env.statically_known_true(a.ge(wh, I(1))));
}

// The view helper's split size of W by ceil(W/2) and the contiguous stride over it, Max(1, .)
struct SplitStride {
  ExprId s, wh, stride;
};
SplitStride split_stride(ShapeEnv& env) {
  ExprArena& a = env.arena();
  const ExprId s = create_symint(env, 8, DimDynamic::Dynamic);
  const ExprId wh = a.floordiv(s, a.ceil_to_int(a.int_true_div(s, a.integer(2))));
  return {s, wh, a.max(a.one(), wh)};
}

// ShapeEnv.simplify's Max(1, b) fold asks _maybe_evaluate_static(b >= 1), axioms included:
// after `1 < b` the contiguous stride Max(1, b) is b. Both are _lru_cache'd per version
// counter, which a guard does not bump, so a Max simplified before the axiom stays (each
// case checked on a 2.13 ShapeEnv).
TEST_F(ShapeEnvBehaviour, MaxOneFoldsOnceAnAxiomBoundsItsArgument) {
  const auto [s, wh, stride] = split_stride(env);
  EXPECT_TRUE(env.guard_bool(a.lt(I(1), wh)));
  EXPECT_EQ(env.simplify(stride), wh);
  EXPECT_TRUE(env.guard_bool(a.ne(s, stride)));
  const auto undecided = env.undecided_guards();
  ASSERT_EQ(undecided.size(), 2u);
  EXPECT_EQ(undecided[1], env.simplify(a.ne(s, wh)));
}

TEST_F(ShapeEnvBehaviour, MaxOneSimplifiedBeforeTheAxiomStaysAsPyTorchCachesIt) {
  const auto [s, wh, stride] = split_stride(env);
  EXPECT_EQ(env.simplify(stride), stride);
  EXPECT_TRUE(env.guard_bool(a.ne(s, stride)));
  EXPECT_TRUE(env.guard_bool(a.lt(I(1), wh)));
  EXPECT_EQ(env.simplify(stride), stride);
  const auto undecided = env.undecided_guards();
  ASSERT_EQ(undecided.size(), 2u);
  EXPECT_EQ(undecided[0], env.simplify(a.ne(s, stride)));
}

// PyTorch's bare `_maybe_evaluate_static(b >= 1)` cache is what the fold reads: a
// statically_known_true(b >= 1) asked before the axiom keeps the Max, as in PyTorch. The
// engine's own shortcut (decided_true: a pool's sym_and decided part by part, seresnetaa50d's
// last stage) is no such call and must leave that cache alone.
TEST_F(ShapeEnvBehaviour, EngineShortcutsDoNotStaleTheMaxFold) {
  const auto [s, wh, stride] = split_stride(env);
  EXPECT_FALSE(env.decided_true(a.ge(wh, I(1))));
  EXPECT_TRUE(env.guard_bool(a.ge(wh, I(1))));
  EXPECT_EQ(env.simplify(stride), wh);
}

TEST_F(ShapeEnvBehaviour, BareStaticQuestionBeforeTheAxiomKeepsTheMax) {
  const auto [s, wh, stride] = split_stride(env);
  EXPECT_FALSE(env.statically_known_true(a.ge(wh, I(1))));
  EXPECT_TRUE(env.guard_bool(a.ge(wh, I(1))));
  EXPECT_EQ(env.simplify(stride), stride);
}

// PyTorch's simplify is lru-cached per call form and cleared only when the count of
// replacements, divisibility facts or runtime asserts grows: a range refinement (here the
// batch's `n < 16`) keeps a form simplified before it, while _maybe_evaluate_static, which
// _refine_ranges clears, asks the Max fold afresh for a form its own simplify never saw
// (timm tf_mobilenetv3: the batch_norm guard prints with its Max, the stride guards
// `Eq(Max(1, b), b)` recorded from their `Ne` questions are dropped by produce_guards).
TEST_F(ShapeEnvBehaviour, SimplifiedFormOutlivesARangeRefinement) {
  const auto [s, wh, stride] = split_stride(env);
  const ExprId n = create_symint(env, 2, DimDynamic::Dynamic);
  EXPECT_EQ(env.simplify(stride), stride);
  EXPECT_TRUE(env.guard_bool(a.lt(I(1), wh)));
  EXPECT_TRUE(env.guard_bool(a.lt(n, I(16))));
  EXPECT_EQ(env.bound(n).hi, ExtNum::of(15));
  EXPECT_EQ(env.simplify(stride), stride);
  EXPECT_EQ(env.maybe_evaluate_static(a.eq(stride, wh)), a.true_());
}

// The same refinement without the earlier bare simplify: nothing is cached, the Max folds.
TEST_F(ShapeEnvBehaviour, RangeRefinementRefoldsWhatWasNotCached) {
  const auto [s, wh, stride] = split_stride(env);
  const ExprId n = create_symint(env, 2, DimDynamic::Dynamic);
  EXPECT_TRUE(env.guard_bool(a.lt(I(1), wh)));
  EXPECT_TRUE(env.guard_bool(a.lt(n, I(16))));
  EXPECT_EQ(env.simplify(stride), wh);
}

// _maybe_evaluate_static_worker bounds canonicalize_bool_expr(safe_expand(shifted)): after
// b := b' + 1 the two sides of `144*b*C != C` are one difference, 143*C + 144*b'*C != 0,
// decided by its bound (checked on a 2.13 ShapeEnv: mobilevit's computeStride asks this
// and PyTorch records no guard); the sides' own ranges overlap.
TEST_F(ShapeEnvBehaviour, ShiftedQuestionIsCanonicalisedBeforeItsBound) {
  const ExprId b = create_symint(env, 2, DimDynamic::Dynamic);
  const ExprId h = create_symint(env, 64, DimDynamic::Dynamic);
  const ExprId w = create_symint(env, 64, DimDynamic::Dynamic);
  auto half = [&](ExprId x) { return a.ceil_to_int(a.int_true_div(a.add(a.floordiv(a.sub(x, I(1)), I(8)), I(1)), I(2))); };
  const ExprId c = a.mul(half(h), half(w));
  EXPECT_EQ(env.maybe_evaluate_static(a.ne(a.mul(a.mul(I(144), b), c), c)), a.true_());
  EXPECT_EQ(env.maybe_evaluate_static(a.lt(c, a.mul(b, c))), a.true_());
  EXPECT_TRUE(env.guards().empty());
}

}  // namespace
}  // namespace symshape::test
