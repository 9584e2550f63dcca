// Relational guards feeding back into ranges and replacements (semantics.md B.4, C.8):
// behaviours 52, 53, 56, 102, 103.
#include "shape_env_test_util.h"

namespace symshape::test {

using ShapeEnvBehaviour = ShapeEnvTest;

TEST_F(ShapeEnvBehaviour, B52_LessThanBoundedSymbolCapsUpperBound) {
  const ExprId s0 = create_symint(env, 3), s1 = create_symint(env, 5);
  env.constrain_range(s1, ExtNum::of(2), ExtNum::of(10));
  EXPECT_TRUE(env.guard_bool(a.lt(s0, s1)));
  EXPECT_EQ(env.range(s0).hi, ExtNum::of(9));
}

// _refine_ranges simplifies the guard first: `Max(1, s//32) > 1` only solves for s once the
// range (s >= 32) has folded the Max (convnext's last stage: `64 <= W`)
TEST_F(ShapeEnvBehaviour, RangeRefinementSimplifiesMaxFirst) {
  const ExprId s0 = create_symint(env, 96);
  env.constrain_range(s0, ExtNum::of(32), ExtNum::int_oo());
  EXPECT_TRUE(env.guard_bool(a.gt(a.max(I(1), a.floordiv(s0, I(32))), I(1))));
  EXPECT_EQ(env.range(s0).str(), "[64, int_oo]");
}

TEST_F(ShapeEnvBehaviour, B53_CollapsedRangeBecomesReplacement) {
  const ExprId s0 = create_symint(env, 4);
  EXPECT_TRUE(env.guard_bool(a.le(s0, I(4))));
  EXPECT_TRUE(env.guard_bool(a.ge(s0, I(4))));
  EXPECT_EQ(env.range(s0).str(), "[4, 4]");
  EXPECT_EQ(env.replacement(s0), I(4));
  EXPECT_EQ(env.replace(s0), I(4));
}

TEST_F(ShapeEnvBehaviour, B56_ReplacementBackPropagatesRange) {
  const SourceId x = local("x"), y = local("y");
  const DimConstraint c{.min = 2, .max = 10};
  const ExprId s0 = env.create_symbol(8, env.sources().size(x, 0), DimDynamic::Dynamic, &c);
  const ExprId s1 = env.create_symbol(4, env.sources().size(y, 0), DimDynamic::Dynamic);
  EXPECT_EQ(env.range(s1).str(), "[2, int_oo]");
  EXPECT_TRUE(env.guard_bool(a.eq(s0, a.mul(I(2), s1))));
  EXPECT_EQ(env.replacement(s0), a.mul(I(2), s1));
  EXPECT_EQ(env.range(s1).str(), "[2, 5]");
}

TEST_F(ShapeEnvBehaviour, C102_LargerHintIsEliminated) {
  const ExprId s0 = create_symint(env, 8, DimDynamic::Dynamic), s1 = create_symint(env, 4, DimDynamic::Dynamic);
  EXPECT_TRUE(env.guard_bool(a.eq(s0, a.mul(I(2), s1))));
  EXPECT_EQ(env.replacement(s0), a.mul(I(2), s1));
  EXPECT_FALSE(env.replacement(s1).valid());
  // a tensor of size (s0,) now reports 2*s1
  EXPECT_EQ(str(env.replace(s0)), "2*" + str(s1));
}

TEST_F(ShapeEnvBehaviour, C103_EqualHintsEliminateLargerName) {
  const ExprId s77 = env.create_symbol(5, env.sources().size(local("x"), 0), DimDynamic::Dynamic);
  const ExprId s17 = env.create_symbol(5, env.sources().size(local("y"), 0), DimDynamic::Dynamic);
  ASSERT_EQ(str(s77), "s77");
  ASSERT_EQ(str(s17), "s17");
  EXPECT_TRUE(env.guard_bool(a.eq(s77, s17)));
  EXPECT_EQ(env.replacement(s77), s17);
  EXPECT_FALSE(env.replacement(s17).valid());
}

}  // namespace symshape::test
