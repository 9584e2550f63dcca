// The decision rules of expr/sum_bound.h and expr/equality.h (issue: equalities the engine
// could not decide): the two worked equalities, and seeded properties checking every rule
// against brute-force evaluation over a box of symbol values.
#include <gtest/gtest.h>

#include <random>

#include "expr/bound.h"
#include "expr/equality.h"
#include "expr/evaluate.h"
#include "expr/printer.h"
#include "expr/sum_bound.h"
#include "expr_test_util.h"

namespace symshape::test {
namespace {

// Plain integer symbols: no positivity fact, so the box may hold negative values too.
ExprId integer_symbol(ExprArena& a, const std::string& name) { return a.symbol(name, SymbolKind::Backed, kFactInteger); }

std::vector<ValueRange> ranges_for(ExprArena& a, int64_t lo, int64_t hi) {
  return std::vector<ValueRange>(a.symbol_count(), ValueRange(ExtNum::of(lo), ExtNum::of(hi)));
}

ExprId conv_out(ExprArena& a, ExprId x) {  // k=3, s=2, p=1: (x + 2 - 2 - 1)//2 + 1
  return a.add(a.floordiv(a.add(x, a.integer(2 - 2 - 1)), a.integer(2)), a.one());
}

TEST_F(ExprTest, MinOfASymbolAndItsSuccessorEqualsTheSymbol) {
  const ExprId m = a.min(s0, a.add(s0, I(1)));
  std::vector<ValueRange> r = ranges_for(a, 1, 1 << 20);
  r[a.symbol_id(s0).index()] = ValueRange(ExtNum::of(1), ExtNum::int_oo());
  EXPECT_EQ(to_str(a, m), "Min(s0, s0 + 1)");  // the printed form is PyTorch's, unchanged
  EXPECT_TRUE(provably_equal(a, m, s0, r));
  EXPECT_EQ(tight_bound(a, a.sub(m, s0), r).str(), "[0, 0]");
  EXPECT_EQ(bound(a, a.sub(m, s0), r).str(), "[-int_oo, int_oo]");  // interval arithmetic alone cannot
  EXPECT_FALSE(provably_equal(a, m, a.add(s0, I(1)), r));
}

TEST_F(ExprTest, FiveStrideTwoConvsEqualCeilingDivisionBy32) {
  ExprId x = s0;
  for (int i = 0; i < 5; ++i) x = conv_out(a, x);
  EXPECT_EQ(to_str(a, x), "(((s0 - 1)//32)) + 1");  // printed form unchanged
  const ExprId ceil32 = a.floordiv(a.add(s0, I(31)), I(32));
  std::vector<ValueRange> r = ranges_for(a, 1, 1);
  r[a.symbol_id(s0).index()] = ValueRange(ExtNum::of(1), ExtNum::int_oo());
  EXPECT_TRUE(provably_equal(a, x, ceil32, r));
  EXPECT_TRUE(provably_equal(a, ceil32, x, r));
  EXPECT_FALSE(provably_equal(a, x, a.floordiv(a.add(s0, I(30)), I(32)), r));
}

// Random sums of Min/Max and floor-division terms over two symbols.
struct SumGen {
  ExprArena& a;
  std::mt19937_64& rng;
  ExprId x, y;
  int64_t pick(int64_t lo, int64_t hi) { return lo + int64_t(rng() % uint64_t(hi - lo + 1)); }
  ExprId linear() { return a.add({a.mul(a.integer(pick(-2, 2)), x), a.mul(a.integer(pick(-1, 2)), y), a.integer(pick(-5, 5))}); }
  ExprId term() {
    switch (pick(0, 3)) {
      case 0: return a.min(linear(), linear());
      case 1: return a.max(linear(), linear());
      case 2: return a.floordiv(linear(), a.integer(pick(1, 6)));
      default: return linear();
    }
  }
  ExprId sum() {
    const ExprId t = term();
    // often the same term shifted, so differences cancel and the rules have work to do
    const ExprId u = pick(0, 1) ? a.sub(t, linear()) : term();
    return a.add({t, a.mul(a.integer(pick(0, 1) ? -1 : 1), u), linear()});
  }
};

TEST(SumBoundProperty, RangeContainsEveryValueInTheBox) {
  std::mt19937_64 rng(20261124);
  for (int round = 0; round < 400; ++round) {
    ExprArena a;
    const ExprId x = integer_symbol(a, "x"), y = integer_symbol(a, "y");
    SumGen g{a, rng, x, y};
    const ExprId e = g.sum();
    const std::vector<ValueRange> box = ranges_for(a, -6, 9);
    const ValueRange r = tight_bound(a, e, box);
    Bindings b;
    for (int64_t xv = -6; xv <= 9; ++xv)
      for (int64_t yv = -6; yv <= 9; ++yv) {
        b.set(a.symbol_id(x), xv);
        b.set(a.symbol_id(y), yv);
        const int64_t v = evaluate_int(a, e, b);
        ASSERT_TRUE(r.contains(v)) << to_str(a, e) << " = " << v << " at x=" << xv << " y=" << yv << " outside " << r.str();
      }
  }
}

TEST(SumBoundProperty, ProvableEqualitiesHoldAtEveryPointOfTheBox) {
  std::mt19937_64 rng(7);
  int proved = 0;
  for (int round = 0; round < 600; ++round) {
    ExprArena a;
    const ExprId x = integer_symbol(a, "x"), y = integer_symbol(a, "y");
    SumGen g{a, rng, x, y};
    // pairs equal by construction (a//c + k vs (a + k*c)//c; Min(p, q) + r vs Min(p + r, q + r))
    // and random pairs
    const ExprId p = g.linear(), q = g.linear(), r = g.linear();
    const int64_t c = g.pick(1, 7), k = g.pick(-3, 3);
    ExprId lhs, rhs;
    switch (round % 3) {
      case 0: lhs = a.add(a.floordiv(p, a.integer(c)), a.integer(k)); rhs = a.floordiv(a.add(p, a.integer(k * c)), a.integer(c)); break;
      case 1: lhs = a.add(a.min(p, q), r); rhs = a.min(a.add(p, r), a.add(q, r)); break;
      default: lhs = g.sum(); rhs = g.sum(); break;
    }
    const std::vector<ValueRange> box = ranges_for(a, -6, 9);
    const bool eq = provably_equal(a, lhs, rhs, box);
    if (round % 3 != 2) {
      EXPECT_TRUE(eq) << to_str(a, lhs) << " vs " << to_str(a, rhs);
    }
    if (!eq) continue;
    ++proved;
    Bindings b;
    for (int64_t xv = -6; xv <= 9; ++xv)
      for (int64_t yv = -6; yv <= 9; ++yv) {
        b.set(a.symbol_id(x), xv);
        b.set(a.symbol_id(y), yv);
        ASSERT_EQ(evaluate_int(a, lhs, b), evaluate_int(a, rhs, b)) << to_str(a, lhs) << " vs " << to_str(a, rhs);
      }
  }
  EXPECT_GE(proved, 400);
}

// The partial-quotient rule (A - k*(A//d), 0 < k < d), the remainder-minus-divisor rule
// (c*(A % y) against c*y, y >= 1) and the negative-quotient rule (n // d <= -1 for n < 0 < d)
// on symbols with one- and two-sided ranges: every value of the box lies in the range, and
// the rules do tighten ranges bound() leaves open.
TEST(SumBoundProperty, QuotientAndRemainderRulesContainEveryValue) {
  std::mt19937_64 rng(20260808);
  int tighter = 0;
  for (int round = 0; round < 900; ++round) {
    ExprArena a;
    const ExprId x = integer_symbol(a, "x"), y = integer_symbol(a, "y");
    SumGen g{a, rng, x, y};
    const int64_t xl = g.pick(-8, 5), yl = g.pick(1, 4);
    const bool x_open = g.pick(0, 1), y_open = g.pick(0, 1);
    std::vector<ValueRange> ranges(a.symbol_count());
    ranges[a.symbol_id(x).index()] = ValueRange(ExtNum::of(xl), x_open ? ExtNum::int_oo(1) : ExtNum::of(xl + g.pick(0, 20)));
    ranges[a.symbol_id(y).index()] = ValueRange(ExtNum::of(yl), y_open ? ExtNum::int_oo(1) : ExtNum::of(yl + g.pick(0, 12)));
    const ExprId A = a.add({a.mul(a.integer(g.pick(1, 3)), x), a.mul(a.integer(g.pick(0, 2)), y), a.integer(g.pick(-9, 9))});
    const int64_t d = g.pick(2, 7), k = g.pick(1, d - 1), c = g.pick(-3, 3);
    ExprId e;
    switch (round % 3) {
      case 0: e = a.add({A, a.mul(a.integer(-k), a.floordiv(A, a.integer(d))), a.mul(a.integer(g.pick(-1, 1)), x)}); break;
      case 1: e = a.add({a.mul(a.integer(c), a.mod(A, y)), a.mul(a.integer(-c * g.pick(0, 1)), y), a.integer(g.pick(-3, 3))}); break;
      default: e = a.floordiv(a.sub(a.integer(-g.pick(1, 9)), a.mul(a.integer(g.pick(0, 2)), x)), a.add(y, a.integer(g.pick(0, 3)))); break;
    }
    const ValueRange r = tight_bound(a, e, ranges);
    const ValueRange plain = bound(a, e, ranges);
    if (r.lo > plain.lo || r.hi < plain.hi) ++tighter;
    Bindings b;
    const int64_t xh = std::min<int64_t>(ranges[a.symbol_id(x).index()].hi.kind == ExtNum::Kind::Int ? ranges[a.symbol_id(x).index()].hi.i : xl + 40, xl + 40);
    const int64_t yh = std::min<int64_t>(ranges[a.symbol_id(y).index()].hi.kind == ExtNum::Kind::Int ? ranges[a.symbol_id(y).index()].hi.i : yl + 30, yl + 30);
    for (int64_t xv = xl; xv <= xh; ++xv)
      for (int64_t yv = yl; yv <= yh; ++yv) {
        b.set(a.symbol_id(x), xv);
        b.set(a.symbol_id(y), yv);
        const int64_t v = evaluate_int(a, e, b);
        ASSERT_TRUE(r.contains(v)) << to_str(a, e) << " = " << v << " at x=" << xv << " y=" << yv << " outside " << r.str();
      }
  }
  EXPECT_GE(tighter, 300);
}

TEST(SumBoundProperty, OverflowingHelpersFallBackToThePlainRange) {
  ExprArena a;
  const ExprId x = backed(a, "x");
  const ExprId big = a.integer(INT64_MAX / 2);
  const ExprId e = a.sub(a.floordiv(a.add(x, big), a.integer(3)), a.floordiv(a.sub(x, big), a.integer(3)));
  const std::vector<ValueRange> box = ranges_for(a, 1, 1000);
  EXPECT_NO_THROW(tight_bound(a, e, box));
}

}  // namespace
}  // namespace symshape::test
