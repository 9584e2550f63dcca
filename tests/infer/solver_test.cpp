// The solver alone (engine/infer/solver.h): CRT, linear congruences, unification, nearest
// values, minimal conflicts. Predicates here are plain functions of the unknowns.
#include <gtest/gtest.h>

#include "infer/solver.h"

using namespace symshape::infer;

namespace {

SolverPredicate eq_const(uint32_t u, int64_t a, int64_t c) {  // a*x_u == c
  SolverPredicate p;
  p.kind = PredicateKind::Eq;
  p.unknowns = {u};
  p.difference = [=](std::span<const int64_t> v) { return std::optional<int64_t>(a * v[u] - c); };
  p.holds = [=](std::span<const int64_t> v) { return std::optional<int64_t>(a * v[u] == c); };
  return p;
}
SolverPredicate divides(uint32_t u, int64_t k, int64_t add) {  // k | x_u + add
  SolverPredicate p;
  p.kind = PredicateKind::Divides;
  p.unknowns = {u};
  p.dividend = [=](std::span<const int64_t> v) { return std::optional<int64_t>(v[u] + add); };
  p.divisor = [=](std::span<const int64_t>) { return std::optional<int64_t>(k); };
  p.holds = [=](std::span<const int64_t> v) { return std::optional<int64_t>((v[u] + add) % k == 0); };
  return p;
}

}  // namespace

TEST(Solver, CrtCombinesNonCoprimeModuli) {
  auto c = combine({0, 32}, {1344 % 47 == 0 ? 0 : 47 - 1344 % 47, 47});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->modulus, 1504);
  EXPECT_EQ((c->residue + 1344) % 1504, 0);
  auto d = combine({2, 4}, {0, 6});  // x ≡ 2 (4), x ≡ 0 (6) -> x ≡ 6 (12)
  ASSERT_TRUE(d);
  EXPECT_EQ(d->modulus, 12);
  EXPECT_EQ(d->residue, 6);
  EXPECT_FALSE(combine({1, 4}, {0, 6}));  // odd and even
}

TEST(Solver, LinearCongruence) {
  auto c = linear_congruence(2, 2688, 64);  // 2x + 2688 ≡ 0 (64) -> x ≡ 0 (32)
  ASSERT_TRUE(c);
  EXPECT_EQ(c->modulus, 32);
  EXPECT_EQ(c->residue, 0);
  EXPECT_FALSE(linear_congruence(2, 1, 4));  // 2x + 1 is odd
}

// Behaviour 158's padding: 32 | s6 + 1344 and 47 | s6 + 1344 -> s6 ≡ -1344 (mod 1504); the
// nearest value >= the example 2 is 1504 - 1344 = 160.
TEST(Solver, DivisibilityCombinesByCrtToTheNearestValue) {
  const std::vector<int64_t> example = {2};
  const std::vector<SolverPredicate> preds = {divides(0, 32, 1344), divides(0, 47, 1344)};
  const SolveResult r = solve(example, preds);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.values[0], 160);
}

TEST(Solver, LinearEqualityFixesAndConflictsAreMinimal) {
  const std::vector<int64_t> example = {2, 2};
  std::vector<SolverPredicate> preds = {eq_const(1, 1, 1773), divides(0, 2, 0), eq_const(1, 2, 2 * 1773)};
  SolveResult r = solve(example, preds);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.values, (std::vector<int64_t>{2, 1773}));
  preds.push_back(eq_const(1, 1, 1000));  // conflicts with 0 and 2, not with 1
  r = solve(example, preds);
  ASSERT_FALSE(r.ok);
  ASSERT_EQ(r.conflict.size(), 2u);  // one of the two 1773s and the 1000: a minimal set
  EXPECT_EQ(r.conflict.back(), 3u);
}

TEST(Solver, UnifiedUnknownsShareTheirValue) {
  const std::vector<int64_t> example = {5, 9, 3};
  SolverPredicate u;
  u.kind = PredicateKind::Eq;
  u.unknowns = {0, 2};
  u.unify = std::make_pair(2u, 0u);
  u.holds = [](std::span<const int64_t> v) { return std::optional<int64_t>(v[0] == v[2]); };
  const std::vector<SolverPredicate> preds = {u, eq_const(2, 1, 7)};
  const SolveResult r = solve(example, preds);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.values, (std::vector<int64_t>{7, 9, 7}));
}

TEST(Solver, RangesFromLeTakeTheNearestValue) {
  SolverPredicate le;  // 3*x - 2 >= 40 (a conv input too small): x >= 14
  le.kind = PredicateKind::Le;
  le.unknowns = {0};
  le.holds = [](std::span<const int64_t> v) { return std::optional<int64_t>(3 * v[0] - 2 >= 40); };
  const std::vector<int64_t> example = {5};
  const std::vector<SolverPredicate> preds = {le};
  const SolveResult r = solve(example, preds);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.values[0], 14);
}

// A product of two dims, (h // 4) * (w // 4) == 64 from (40, 40): neither alone can fix it
// with the other kept, so both move to the nearest pair, (35, 35) (L1 distance 10; 35 // 4 = 8).
TEST(Solver, ProductOfTwoUnknownsMovesBoth) {
  SolverPredicate p;
  p.kind = PredicateKind::Eq;
  p.unknowns = {0, 1};
  p.difference = [](std::span<const int64_t> v) { return std::optional<int64_t>((v[0] / 4) * (v[1] / 4) - 64); };
  p.holds = [](std::span<const int64_t> v) { return std::optional<int64_t>((v[0] / 4) * (v[1] / 4) == 64); };
  const std::vector<int64_t> example = {40, 40};
  const std::vector<SolverPredicate> preds = {p};
  const SolveResult r = solve(example, preds);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.values, (std::vector<int64_t>{35, 35}));
}
