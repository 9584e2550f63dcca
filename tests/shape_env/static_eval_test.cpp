// Static evaluation and simplify (semantics.md C.6, C.9, C.10): deciding without guarding.
// Behaviours 82-86, 97, 100, 101, 128, 129.
#include "shape_env_test_util.h"

namespace symshape::test {

using ShapeEnvBehaviour = ShapeEnvTest;

namespace {
// s2, s3, s4: three distinct backed symbols with hints 2, 3, 4 and the expressions of
// behaviours 82/83, each with whether statically_known_true / _false holds.
struct Case {
  const char* what;
  ExprId e;
  bool known_true, known_false;
};
std::vector<Case> cases_82(ShapeEnv& env) {
  ExprArena& a = env.arena();
  const ExprId s2 = create_symint(env, 2), s3 = create_symint(env, 3), s4 = create_symint(env, 4);
  const ExprId two = a.integer(2);
  return {
      {"s2 == s2", a.eq(s2, s2), true, false},
      {"s2*s3 > s3", a.gt(a.mul(s2, s3), s3), true, false},
      {"s3*s4 > s4", a.gt(a.mul(s3, s4), s4), true, false},
      {"(s3+s3) % 2 == 0", a.eq(a.mod(a.add(s3, s3), two), a.zero()), true, false},
      {"s3*s4 <= s4", a.le(a.mul(s3, s4), s4), false, true},
      {"(s3+s3) % 2 == 1", a.eq(a.mod(a.add(s3, s3), two), a.one()), false, true},
      {"s2+s2 == s4", a.eq(a.add(s2, s2), s4), false, false},
      {"s4 % s2 == 0", a.eq(a.mod(s4, s2), a.zero()), false, false},
      {"s2 != s3", a.ne(s2, s3), false, false},
      {"s3*s4 > s2", a.gt(a.mul(s3, s4), s2), false, false},
      {"s2 == s3", a.eq(s2, s3), false, false},
      {"s2 > s3", a.gt(s2, s3), false, false},
      {"s3+s3 == s4", a.eq(a.add(s3, s3), s4), false, false},
  };
}
}  // namespace

TEST_F(ShapeEnvBehaviour, C82_StaticallyKnownTrue) {
  for (const Case& c : cases_82(env)) EXPECT_EQ(env.statically_known_true(c.e), c.known_true) << c.what;
  EXPECT_TRUE(env.guards().empty());
}

TEST_F(ShapeEnvBehaviour, C83_StaticallyKnownFalse) {
  for (const Case& c : cases_82(env)) EXPECT_EQ(env.statically_known_false(c.e), c.known_false) << c.what;
  EXPECT_TRUE(env.guards().empty());
}

TEST_F(ShapeEnvBehaviour, C84_StaticallyKnownOfConstants) {
  EXPECT_TRUE(env.statically_known_true(a.true_()));
  EXPECT_FALSE(env.statically_known_true(a.false_()));
  EXPECT_FALSE(env.statically_known_false(a.true_()));
  EXPECT_TRUE(env.statically_known_false(a.false_()));
}

TEST_F(ShapeEnvBehaviour, C85_DivisibilityGuardsDecideNestedFloorDiv) {
  const ExprId s0 = create_symint(env, 8);
  const ExprId half = a.floordiv(s0, I(2));
  EXPECT_TRUE(env.guard_bool(a.eq(a.mod(s0, I(2)), I(0))));
  EXPECT_TRUE(env.guard_bool(a.eq(a.mod(s0, half), I(0))));
  EXPECT_TRUE(env.guard_bool(a.eq(a.mul(I(2), half), s0)));
  EXPECT_TRUE(env.statically_known_true(a.eq(a.floordiv(s0, half), I(2))));
}

TEST_F(ShapeEnvBehaviour, C86_NestedMaxOfUnbackedCollapses) {
  const ExprId u0 = env.create_unbacked_symint();
  const ExprId inner = a.max(I(257), u0);
  EXPECT_TRUE(env.statically_known_true(a.eq(a.max(I(1), inner), inner)));
}

TEST_F(ShapeEnvBehaviour, C97_RuntimeAssertLowerBoundDecidesComparisons) {
  for (int form = 0; form < 4; ++form) {
    ShapeEnv e;
    ExprArena& ar = e.arena();
    const ExprId u = e.create_unbacked_symint();
    const ExprId four = ar.integer(4), five = ar.integer(5);
    const ExprId asserted[] = {ar.gt(u, four), ar.lt(four, u), ar.ge(u, five), ar.le(five, u)};
    EXPECT_TRUE(e.expect_true(asserted[form]));
    EXPECT_TRUE(e.statically_known_true(ar.ne(u, ar.integer(3)))) << form;
    EXPECT_TRUE(e.statically_known_true(ar.ne(u, four))) << form;
    EXPECT_TRUE(e.statically_known_true(ar.gt(u, four))) << form;
    EXPECT_TRUE(e.statically_known_true(ar.ge(u, five))) << form;
    EXPECT_FALSE(e.statically_known_true(ar.ne(u, five))) << form;
    EXPECT_FALSE(e.statically_known_true(ar.ne(u, ar.integer(6)))) << form;
  }
}

TEST_F(ShapeEnvBehaviour, C100_NonOverlappingAndDenseWithUnbackedSize) {
  const ExprId u0 = env.create_unbacked_symint();
  env.constrain_range_for_size(u0);
  auto ind = [&](std::vector<ExprId> sizes, std::vector<ExprId> strides) {
    return env.simplify(a.is_non_overlapping_and_dense(sizes, strides));
  };
  EXPECT_EQ(ind({u0, I(2)}, {I(2), I(1)}), I(1));
  EXPECT_EQ(ind({I(2), u0}, {I(1), I(2)}), I(1));
  EXPECT_EQ(ind({u0}, {I(1)}), I(1));
  EXPECT_EQ(ind({I(1)}, {u0}), I(1));
}

TEST_F(ShapeEnvBehaviour, C101_TransposedStridesAreDense) {
  const ExprId s = create_symint(env, 5);
  const ExprId sizes[] = {s, I(7)}, strides[] = {I(1), s};
  const ExprId ind = a.is_non_overlapping_and_dense(sizes, strides);
  EXPECT_TRUE(env.guard_bool(a.eq(ind, I(1))));
}

// _maybe_evaluate_static bounds only the expanded form: (A - 1)*(B - 1) != 1 is undecided
// (a*b - a - b has no finite bound) though A - 1 >= 35 and B - 1 >= 35 would decide it, and
// so becomes a guard, as PyTorch records inception_v3's `!= 1` questions
TEST_F(ShapeEnvBehaviour, StaticEvaluationBoundsTheExpandedForm) {
  const ExprId h = create_symint(env, 80), w = create_symint(env, 90);
  env.constrain_range(h, ExtNum::of(75), ExtNum::int_oo());
  env.constrain_range(w, ExtNum::of(75), ExtNum::int_oo());
  const ExprId fa = a.sub(a.floordiv(a.sub(h, I(3)), I(2)), I(1)), fb = a.sub(a.floordiv(a.sub(w, I(3)), I(2)), I(1));
  // built as the strides are, Max(1, A - 1)*Max(1, B - 1): simplify folds the Maxes into an
  // unexpanded product of the two sums
  const ExprId product_ne_1 = a.ne(a.mul(a.max(I(1), fa), a.max(I(1), fb)), I(1));
  EXPECT_EQ(str(env.simplify(product_ne_1)), "Ne(((((s26 - 3)//2)) - 1)*((((s97 - 3)//2)) - 1), 1)");
  EXPECT_FALSE(env.maybe_evaluate_static(product_ne_1).has_value());
  // each factor alone is still decided from its range
  EXPECT_TRUE(env.statically_known_true(a.ge(fa, I(35))));
}

TEST_F(ShapeEnvBehaviour, C128_SimplifyMaxWithZeroOne) {
  const ExprId s0 = create_symint(env, 5);
  const ExprId u0 = env.create_unbacked_symint();
  env.constrain_range_for_size(u0);
  EXPECT_EQ(env.simplify(a.max(I(1), s0)), s0);
  EXPECT_EQ(str(env.simplify(a.max(I(1), u0))), "Max(1, u0)");
  EXPECT_EQ(env.simplify(a.max(I(1), u0), /*size_oblivious=*/true), u0);
}

TEST_F(ShapeEnvBehaviour, C129_SimplifyTruncOfTrueDiv) {
  const ExprId s0 = create_symint(env, 5);
  EXPECT_EQ(env.simplify(a.trunc_to_int(a.int_true_div(a.mul(I(6), s0), I(3)))), a.mul(I(2), s0));
  const ExprId fd = env.simplify(a.trunc_to_int(a.int_true_div(s0, I(3))));
  EXPECT_EQ(a.kind(fd), ExprKind::FloorDiv);
  EXPECT_EQ(fd, a.floordiv(s0, I(3)));
}

// _maybe_evaluate_static is _lru_cache'd: its answers, undecided ones too, hold until the
// version counter moves (a new replacement, here) or _refine_ranges narrows a range. A
// guard that refines no range (two floor divisions: try_solve isolates neither symbol)
// leaves a question asked before it undecided, and evaluate_expr's own lru_cache(256)
// answers the repeated question without a second guard (checked on a 2.13 ShapeEnv).
TEST_F(ShapeEnvBehaviour, StaticAnswersHoldUntilTheCacheClears) {
  const ExprId x = create_symint(env, 64, DimDynamic::Dynamic), y = create_symint(env, 30, DimDynamic::Dynamic);
  const ExprId q = a.ge(a.add(a.floordiv(x, I(3)), a.floordiv(y, I(3))), I(5));
  EXPECT_FALSE(env.maybe_evaluate_static(q).has_value());
  EXPECT_TRUE(env.guard_bool(q));
  ASSERT_EQ(env.guards().size(), 1u);
  EXPECT_EQ(env.range(x).str(), "[2, int_oo]");
  EXPECT_FALSE(env.maybe_evaluate_static(q).has_value());  // the cached answer
  EXPECT_TRUE(env.guard_bool(q));
  EXPECT_EQ(env.guards().size(), 1u);
  const ExprId e = create_symint(env, 9, DimDynamic::Dynamic), f = create_symint(env, 10, DimDynamic::Dynamic);
  EXPECT_TRUE(env.guard_bool(a.eq(f, a.add(e, I(1)))));  // f := e + 1, the counter moves
  EXPECT_EQ(env.maybe_evaluate_static(q), a.true_());
}

// The same cache cleared by a range the guard refines: after `x // 3 >= 5` (x >= 15) the
// question is decided from the axiom.
TEST_F(ShapeEnvBehaviour, RefinedRangeClearsTheStaticCache) {
  const ExprId x = create_symint(env, 64, DimDynamic::Dynamic);
  const ExprId q = a.ge(a.floordiv(x, I(3)), I(5));
  EXPECT_FALSE(env.maybe_evaluate_static(q).has_value());
  EXPECT_TRUE(env.guard_bool(q));
  EXPECT_EQ(env.range(x).str(), "[15, int_oo]");
  EXPECT_EQ(env.maybe_evaluate_static(q), a.true_());
}

// The axioms are substituted into a junction's operands (`expr.xreplace(axioms)`): after
// the guard `x // 3 == y // 3`, an Or holding it is true, an And holding its negation false,
// and an And holding it with an unknown operand stays undecided (checked on 2.13).
TEST_F(ShapeEnvBehaviour, AxiomsDecideAJunctionThroughItsOperands) {
  const ExprId x = create_symint(env, 64, DimDynamic::Dynamic), y = create_symint(env, 65, DimDynamic::Dynamic);
  const ExprId z = create_symint(env, 7, DimDynamic::Dynamic);
  const ExprId g = a.eq(a.floordiv(x, I(3)), a.floordiv(y, I(3)));
  const ExprId unknown = a.eq(a.floordiv(z, I(5)), I(8));
  EXPECT_FALSE(env.maybe_evaluate_static(a.logical_or(a.eq(a.floordiv(z, I(5)), I(7)), g)).has_value());
  EXPECT_TRUE(env.guard_bool(g));
  EXPECT_EQ(env.maybe_evaluate_static(a.logical_or(unknown, g)), a.true_());
  EXPECT_EQ(env.maybe_evaluate_static(a.logical_and(unknown, a.logical_not(g))), a.false_());
  EXPECT_FALSE(env.maybe_evaluate_static(a.logical_and(unknown, g)).has_value());
}

// _maybe_evaluate_static canonicalizes first: the difference's gcd is divided out and the
// relation rebuilt through SymPy, whose Eq asks is_zero, so `8 != 32*(s // 3)` (4*(s // 3) - 1,
// odd) is decided although the range of 32*(s // 3) includes 8; `8 != 16*(s // 3) - 8` stays a
// question (2*(s // 3) - 2 is even). measured on 2.13: sam3's computeStride `8 != 32*N`.
TEST_F(ShapeEnvBehaviour, ReducedOddDifferenceDecidesEquality) {
  ExprArena& a = env.arena();
  const ExprId s = create_symint(env, 7);
  const ExprId q = a.floordiv(s, a.integer(3));
  EXPECT_TRUE(env.statically_known_true(a.ne(a.integer(8), a.mul(a.integer(32), q))));
  EXPECT_TRUE(env.statically_known_false(a.eq(a.mul(a.integer(32), q), a.integer(8))));
  EXPECT_FALSE(env.maybe_evaluate_static(a.ne(a.integer(8), a.add(a.mul(a.integer(16), q), a.integer(-8)))).has_value());
  EXPECT_TRUE(env.guards().empty());
}

}  // namespace symshape::test
