// PositiveBlockFacts at the boundaries of each rule: what a clause holding tells about its
// one non-constant term (every relation, both signs of the coefficient, != at either end
// of the range), the cancellation of equal terms, and what it must not conclude. The
// random programs of guard_eval_property_test.cpp check the verdicts; these pin each step.
#include <gtest/gtest.h>

#include "batch/guard_program.h"
#include "batch/positive_block_facts.h"

namespace symshape {
namespace {

struct FactsTest : ::testing::Test {
  ExprArena a;
  ExprId s = a.symbol("s", SymbolKind::Backed, kFactInteger);
  ExprId w = a.symbol("w", SymbolKind::Backed, kFactInteger);
  PositiveBlockFacts facts{a};
  ExprId k(int64_t v) { return a.integer(v); }
  void SetUp() override {
    facts.bind_size(a.symbol_id(s).index());
    facts.bind_size(a.symbol_id(w).index());
  }
};

TEST_F(FactsTest, SizesAreAtLeastOneAndBelowTheNarrowLimit) {
  EXPECT_TRUE(facts.implies(a.le(k(1), s)));
  EXPECT_FALSE(facts.implies(a.le(k(2), s)));
  EXPECT_TRUE(facts.implies(a.lt(s, k(kNarrowSizeLimit))));
  EXPECT_FALSE(facts.implies(a.lt(s, k(kNarrowSizeLimit - 1))));
}

// A symbol that reads no size column (a derived dim's root) takes whatever the examples
// give it: its declared facts are not assumed.
TEST_F(FactsTest, SymbolsNotBoundToASizeAreUnknown) {
  const ExprId root = a.symbol("r", SymbolKind::Backed, kFactInteger | kFactPositive);
  // 0 < r + w - 1 holds for a positive r and w >= 1 (w reads a size): not assumed
  const ExprId clause = a.lt(a.integer(0), a.add(a.add(root, w), a.integer(-1)));
  EXPECT_FALSE(facts.implies(clause));
  facts.assume(a.le(a.integer(3), root));
  EXPECT_TRUE(facts.implies(clause));  // an earlier clause says r >= 3
}

TEST_F(FactsTest, NotEqualTrimsTheLowEnd) {
  facts.assume(a.ne(s, k(1)));
  EXPECT_TRUE(facts.implies(a.le(k(2), s)));
  EXPECT_FALSE(facts.implies(a.le(k(3), s)));
}

TEST_F(FactsTest, NotEqualOfTheNegatedSizeTrimsTheSize) {
  const ExprId neg = a.neg(s);  // -s != -1 is s != 1
  facts.assume(a.ne(neg, k(-1)));
  EXPECT_TRUE(facts.implies(a.le(neg, k(-2))));
  EXPECT_FALSE(facts.implies(a.le(neg, k(-3))));
}

TEST_F(FactsTest, NotEqualTrimsAnEarlierUpperBound) {
  facts.assume(a.le(s, k(3)));
  facts.assume(a.ne(s, k(3)));
  EXPECT_TRUE(facts.implies(a.le(s, k(2))));
  EXPECT_FALSE(facts.implies(a.le(s, k(1))));
}

TEST_F(FactsTest, NotEqualInsideTheRangeTellsNothing) {
  facts.assume(a.ne(s, k(5)));
  EXPECT_FALSE(facts.implies(a.le(k(2), s)));
  EXPECT_FALSE(facts.implies(a.ne(s, k(6))));
  facts.assume(a.ne(a.mul(k(2), s), k(3)));  // no integer s has 2*s == 3
  EXPECT_FALSE(facts.implies(a.le(k(2), s)));
}

TEST_F(FactsTest, ClausesOverTwoTermsTellNothing) {
  facts.assume(a.ne(a.add(s, w), k(1)));  // always true here: says nothing about s or w alone
  EXPECT_FALSE(facts.implies(a.le(k(2), s)));
  EXPECT_FALSE(facts.implies(a.le(k(2), w)));
}

TEST_F(FactsTest, NegativeCoefficientFlipsTheRelation) {
  facts.assume(a.gt(a.add(k(5), a.mul(k(-2), s)), k(0)));  // 5 - 2*s > 0: s <= 2
  EXPECT_TRUE(facts.implies(a.le(s, k(2))));
  EXPECT_FALSE(facts.implies(a.le(s, k(1))));
}

TEST_F(FactsTest, EachRelationBoundsItsTermExactly) {
  const ExprId t = a.floordiv(a.sub(s, k(1)), k(4));  // (s - 1)//4
  PositiveBlockFacts lt(a), le(a), ge(a), eq(a);
  for (PositiveBlockFacts* f : {&lt, &le, &ge, &eq}) f->bind_size(a.symbol_id(s).index());
  lt.assume(a.lt(k(7), a.mul(k(3), t)));  // 3t > 7: t >= 3
  EXPECT_TRUE(lt.implies(a.le(k(3), t)));
  EXPECT_FALSE(lt.implies(a.le(k(4), t)));
  le.assume(a.le(a.mul(k(3), t), k(7)));  // 3t <= 7: t <= 2
  EXPECT_TRUE(le.implies(a.le(t, k(2))));
  EXPECT_FALSE(le.implies(a.le(t, k(1))));
  ge.assume(a.ge(a.add(t, k(1)), k(4)));  // t >= 3
  EXPECT_TRUE(ge.implies(a.gt(t, k(2))));
  EXPECT_FALSE(ge.implies(a.gt(t, k(3))));
  eq.assume(a.eq(a.add(t, k(1)), k(4)));  // t == 3
  EXPECT_TRUE(eq.implies(a.eq(t, k(3))));
  EXPECT_TRUE(eq.implies(a.ne(t, k(2))));
  EXPECT_FALSE(eq.implies(a.eq(t, k(4))));
}

TEST_F(FactsTest, CeilModePoolingPairCancelsTheSharedTerm) {
  const ExprId h = a.floordiv(a.sub(s, k(1)), k(4)), v = a.floordiv(a.sub(w, k(1)), k(4));
  const ExprId pooled = a.lt(a.add(k(1), v), a.add(a.add(a.add(k(1), a.mul(h, v)), h), v));
  EXPECT_FALSE(facts.implies(pooled));  // h may be 0
  facts.assume(a.ne(a.add(k(1), h), k(1)));
  EXPECT_TRUE(facts.implies(pooled));
  EXPECT_FALSE(facts.implies(a.lt(a.add(k(1), v), a.add(a.add(k(1), a.mul(h, v)), v))));  // h*v may be 0
}

TEST_F(FactsTest, AndNeedsEveryOperand) {
  EXPECT_TRUE(facts.implies(a.logical_and(a.le(k(1), s), a.le(k(1), w))));
  EXPECT_FALSE(facts.implies(a.logical_and(a.le(k(1), s), a.le(k(2), w))));
  facts.assume(a.logical_and(a.le(k(2), w), a.le(w, k(64))));
  EXPECT_TRUE(facts.implies(a.logical_and(a.le(k(2), w), a.lt(w, k(65)))));
}

// A clause the facts imply but whose computation may overflow in a narrow block (s**5 for
// s near 2**20) is evaluated after all: the kernels would fail it there.
TEST(PositiveBlockClauses, ImpliedButOverflowingClauseIsNotSkipped) {
  ExprArena a;
  const ExprId s = a.symbol("s", SymbolKind::Backed, kFactInteger);
  const ExprId s5 = a.mul(a.mul(a.mul(a.mul(s, s), s), s), s);
  const ExprId clauses[] = {a.ne(s, a.integer(1)), a.le(a.integer(2), s), a.lt(a.integer(0), s5)};
  const uint32_t col[] = {0};
  const GuardProgram p = compile_clauses(a, clauses, col, {1});
  EXPECT_EQ(p.clause_positive, (std::vector<uint8_t>{0, kPositiveByFacts, 0}));
}

}  // namespace
}  // namespace symshape
