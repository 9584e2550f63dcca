// The division normal form (expr/division_form.h) and the exact-remainder decisions of
// expr/equality.h against brute-force evaluation: seeded random expressions built from
// floor divisions and remainders by constants (of both signs) and by a positive symbol,
// ModularIndexing, Min/Max of linear forms and sums of them.
#include <gtest/gtest.h>

#include <random>

#include "expr/bound.h"
#include "expr/division_form.h"
#include "expr/equality.h"
#include "expr/evaluate.h"
#include "expr/printer.h"
#include "expr_test_util.h"

namespace symshape::test {
namespace {

constexpr int64_t kLo = -7, kHi = 11;  // the box for x and y; the divisor symbol d is in [1, 6]

struct DivGen {
  ExprArena& a;
  std::mt19937_64& rng;
  ExprId x, y, d;
  int64_t pick(int64_t lo, int64_t hi) { return lo + int64_t(rng() % uint64_t(hi - lo + 1)); }
  ExprId linear() {
    return a.add({a.mul(a.integer(pick(-3, 4)), x), a.mul(a.integer(pick(-2, 3)), y), a.integer(pick(-6, 6))});
  }
  ExprId divisor() {
    if (pick(0, 4) == 0) return d;
    int64_t k = pick(2, 6);
    return a.integer(pick(0, 5) == 0 ? -k : k);
  }
  ExprId atom(int depth) {
    switch (depth <= 0 ? 0 : pick(0, 6)) {
      case 0: return linear();
      case 1: return a.floordiv(atom(depth - 1), divisor());
      case 2: return a.mod(atom(depth - 1), divisor());
      case 3: return a.min(atom(depth - 1), atom(depth - 1));
      case 4: return a.max(atom(depth - 1), atom(depth - 1));
      case 5: return a.modular_indexing(atom(depth - 1), a.integer(pick(1, 4)), a.integer(pick(2, 5)));
      default: return a.add(atom(depth - 1), a.mul(a.integer(pick(-4, 4)), atom(depth - 1)));
    }
  }
};

struct Fixture {
  ExprArena a;
  ExprId x = a.symbol("x", SymbolKind::Free, kFactInteger);
  ExprId y = a.symbol("y", SymbolKind::Free, kFactInteger);
  ExprId d = a.symbol("d", SymbolKind::Free, kFactInteger | kFactPositive | kFactNonNegative);
  std::vector<ValueRange> ranges() {
    std::vector<ValueRange> r(a.symbol_count(), R(kLo, kHi));
    r[a.symbol_id(d).index()] = R(1, 6);
    return r;
  }
  template <class Visit>
  void each_point(Visit&& visit) {
    Bindings b;
    for (int64_t xv = kLo; xv <= kHi; ++xv)
      for (int64_t yv = kLo; yv <= kHi; ++yv)
        for (int64_t dv = 1; dv <= 6; ++dv) {
          b.set(a.symbol_id(x), xv);
          b.set(a.symbol_id(y), yv);
          b.set(a.symbol_id(d), dv);
          visit(b);
        }
  }
};

TEST(DivisionFormProperty, NormalFormHasTheValueOfTheExpressionEverywhere) {
  std::mt19937_64 rng(20261126);
  for (int round = 0; round < 300; ++round) {
    Fixture f;
    DivGen g{f.a, rng, f.x, f.y, f.d};
    const ExprId e = g.atom(3);
    const ExprId n = division_normal_form(f.a, e, f.ranges());
    f.each_point([&](const Bindings& b) {
      ASSERT_EQ(evaluate_int(f.a, e, b), evaluate_int(f.a, n, b)) << to_str(f.a, e) << "  ->  " << to_str(f.a, n);
    });
  }
}

TEST(DivisionFormProperty, TightRangesContainEveryValue) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 300; ++round) {
    Fixture f;
    DivGen g{f.a, rng, f.x, f.y, f.d};
    const ExprId e = g.atom(3);
    const ValueRange r = tight_bound(f.a, e, f.ranges());
    f.each_point([&](const Bindings& b) {
      const int64_t v = evaluate_int(f.a, e, b);
      ASSERT_TRUE(r.contains(v)) << to_str(f.a, e) << " = " << v << " outside " << r.str();
    });
  }
}

// Pairs equal by a division identity (rearranged, with coefficients and shifts), and
// random near-misses: every claimed equality holds at every point of the box.
TEST(DivisionFormProperty, ClaimedEqualitiesHoldAndIdentitiesAreDecided) {
  std::mt19937_64 rng(5);
  int identities = 0, decided = 0;
  for (int round = 0; round < 600; ++round) {
    Fixture f;
    ExprArena& a = f.a;
    DivGen g{a, rng, f.x, f.y, f.d};
    const ExprId p = g.atom(round % 2), q = g.linear(), c = g.divisor();
    const int64_t m = g.pick(-3, 3), k = g.pick(-2, 2);
    ExprId lhs, rhs;
    const int shape = round % 5;
    switch (shape) {
      case 0:  // m*(p//c*c + p%c) + q == m*p + q
        lhs = a.add(a.mul(a.integer(m), a.add(a.mul(a.floordiv(p, c), c), a.mod(p, c))), q);
        rhs = a.add(a.mul(a.integer(m), p), q);
        break;
      case 1:  // (p + k*c) // c == p // c + k, and the remainder is unchanged
        lhs = a.add(a.floordiv(a.add(p, a.mul(a.integer(k), c)), c), a.mod(a.add(p, a.mul(a.integer(k), c)), c));
        rhs = a.add(a.add(a.floordiv(p, c), a.integer(k)), a.mod(p, c));
        break;
      case 2:  // Min(p + q, r + q) == Min(p, r) + q, Max alike
        lhs = a.max(a.add(p, q), a.add(g.linear(), q));
        rhs = a.add(a.max(p, a.sub(a.max(a.add(p, q), a.add(g.linear(), q)), q)), q);
        break;
      default:  // random pairs (mostly not equal)
        lhs = g.atom(2);
        rhs = g.pick(0, 1) ? g.atom(2) : a.add(lhs, a.integer(g.pick(-1, 1)));
        break;
    }
    const bool claimed = provably_equal(a, lhs, rhs, f.ranges());
    if (shape <= 1) {
      ++identities;
      decided += claimed;
    }
    if (!claimed) continue;
    f.each_point([&](const Bindings& b) {
      ASSERT_EQ(evaluate_int(a, lhs, b), evaluate_int(a, rhs, b)) << to_str(a, lhs) << " vs " << to_str(a, rhs);
    });
  }
  std::printf("division identities decided: %d of %d\n", decided, identities);
  EXPECT_GE(decided, identities * 9 / 10);
}

TEST_F(ExprTest, WorkedDivisionIdentities) {
  const ExprId x = a.symbol("x", SymbolKind::Free, kFactInteger), y = a.symbol("y", SymbolKind::Free, kFactInteger);
  std::vector<ValueRange> r(a.symbol_count(), ValueRange::unknown_int());
  auto eq = [&](ExprId p, ExprId q) { return provably_equal(a, p, q, r) && provably_equal(a, q, p, r); };
  EXPECT_TRUE(eq(a.add(a.mul(a.floordiv(x, I(8)), I(8)), a.mod(x, I(8))), x));
  EXPECT_TRUE(eq(a.sub(x, a.mul(a.floordiv(x, I(3)), I(3))), a.mod(x, I(3))));
  EXPECT_TRUE(eq(a.sub(a.floordiv(a.add(x, I(5)), I(3)), a.floordiv(x, I(3))),
                 a.floordiv(a.add(a.mod(x, I(3)), I(5)), I(3))));
  EXPECT_TRUE(eq(a.sub(a.mul(y, I(3)), a.mul(a.floordiv(y, I(2)), I(6))), a.mul(a.mod(y, I(2)), I(3))));
  EXPECT_TRUE(eq(a.mod(a.add(a.mul(I(4), x), I(2)), I(4)), I(2)));
  EXPECT_TRUE(eq(a.floordiv(a.mul(x, I(6)), I(3)), a.mul(I(2), x)));
  EXPECT_FALSE(eq(a.add(a.mul(a.floordiv(x, I(8)), I(8)), a.mod(x, I(8))), a.add(x, I(1))));
  EXPECT_FALSE(eq(a.floordiv(x, I(-2)), a.neg(a.floordiv(x, I(2)))));
  // x % y for x in [0, 100], y in [2, 100]: [0, 99] (PyTorch's bound() says [-99, 99])
  r[a.symbol_id(x).index()] = R(0, 100);
  r[a.symbol_id(y).index()] = R(2, 100);
  EXPECT_EQ(tight_bound(a, a.python_mod(x, y), r).str(), "[0, 99]");
  EXPECT_EQ(bound(a, a.python_mod(x, y), r).str(), "[-99, 99]");
}

// PyTorch's FloorDiv cancels only divisor factors written alike in every summand
// (simple_floordiv_gcd over Mul.make_args): s1**2 from s0*s1**2, not s1 from s1**2; the
// forms below are SymPy's under PyTorch 2.13. Deciding equalities still cancels powers.
TEST_F(ExprTest, FloorDivCancelsFactorsWrittenAlikeAndEqualityCancelsPowers) {
  const ExprId x = a.symbol("x", SymbolKind::Free, kFactInteger | kFactPositive | kFactNonNegative);
  const ExprId z = a.symbol("z", SymbolKind::Free, kFactInteger | kFactPositive | kFactNonNegative);
  EXPECT_EQ(to_str(a, a.floordiv(a.mul({z, x, x}), a.mul(x, x))), "z");
  EXPECT_EQ(to_str(a, a.floordiv(a.mul({I(4), z, x, x}), a.mul(I(2), x))), "((2*x**2*z)//x)");
  const ExprId kept = a.floordiv(a.mul({I(2), x, x, z}), a.mul({I(4), x, x, x}));
  EXPECT_EQ(to_str(a, kept), "((x**2*z)//(2*x**3))");
  std::vector<ValueRange> r(a.symbol_count(), R(1, 40));
  const ExprId reduced = a.floordiv(z, a.mul(I(2), x));
  EXPECT_TRUE(provably_equal(a, kept, reduced, r) && provably_equal(a, reduced, kept, r));
  Bindings b;
  for (int64_t xv = 1; xv <= 12; ++xv)
    for (int64_t zv = 1; zv <= 40; ++zv) {
      b.set(a.symbol_id(x), xv);
      b.set(a.symbol_id(z), zv);
      EXPECT_EQ(evaluate_int(a, kept, b), evaluate_int(a, reduced, b)) << xv << " " << zv;
    }
}

}  // namespace
// Mod / PythonMod by a monomial divisor (SymPy's `(p/q).is_integer` rule,
// expr_build_div.cpp monomial_divides): a remainder folded to 0 is 0 at every point, and
// the multiples it is meant for fold (Mod(6*a, 2*a), Mod(4*a*b + 2*a, 2*a)).
TEST(DivisionFormProperty, MonomialDivisorRemainderFoldsOnlyWhenZeroEverywhere) {
  ExprArena a;
  const uint8_t pos = kFactInteger | kFactPositive | kFactNonNegative;
  const ExprId s = a.symbol("s", SymbolKind::Free, pos), t = a.symbol("t", SymbolKind::Free, pos);
  const ExprId u = a.symbol("u", SymbolKind::Free, kFactInteger);
  EXPECT_EQ(a.mod(a.mul(a.integer(6), s), a.mul(a.integer(2), s)), a.zero());
  EXPECT_EQ(a.mod(a.add(a.mul({a.integer(4), s, t}), a.mul(a.integer(2), s)), a.mul(a.integer(2), s)), a.zero());
  EXPECT_EQ(a.python_mod(a.mul({a.integer(-9), s, s, t}), a.mul({a.integer(3), s, s})), a.zero());
  std::mt19937_64 rng(27);
  auto pick = [&](int64_t lo, int64_t hi) { return lo + int64_t(rng() % uint64_t(hi - lo + 1)); };
  const ExprId syms[] = {s, t, u};
  auto monomial = [&](bool positive_only) {
    std::vector<ExprId> f{a.integer(pick(positive_only ? 1 : -4, 4))};
    if (f[0] == a.zero()) f[0] = a.one();
    for (int k = int(pick(0, 2)); k > 0; --k) f.push_back(syms[pick(0, positive_only ? 1 : 2)]);
    return a.mul(f);
  };
  int folded = 0;
  for (int round = 0; round < 2000; ++round) {
    const ExprId q = monomial(true);
    std::vector<ExprId> terms;
    for (int k = int(pick(1, 3)); k > 0; --k) terms.push_back(monomial(false));
    const ExprId p = a.add(terms);
    for (const ExprId r : {a.mod(p, q), a.python_mod(p, q)}) {
      if (r != a.zero()) continue;
      ++folded;
      Bindings b;
      for (int64_t sv = 1; sv <= 5; ++sv)
        for (int64_t tv = 1; tv <= 4; ++tv)
          for (int64_t uv = -4; uv <= 4; ++uv) {
            b.set(a.symbol_id(s), sv);
            b.set(a.symbol_id(t), tv);
            b.set(a.symbol_id(u), uv);
            const int64_t qv = evaluate_int(a, q, b);
            if (qv == 0) continue;
            const int64_t pv = evaluate_int(a, p, b);
            ASSERT_EQ(((pv % qv) + qv) % qv, 0) << to_str(a, p) << " mod " << to_str(a, q) << " folded to 0";
          }
    }
  }
  EXPECT_GT(folded, 100);
}

// A sum divides a product that holds it as a factor (SymPy's Mul cancels equal bases in
// `p / q`), never the expanded product (Mul does not distribute): checked against
// torch.utils._sympy.functions.Mod / PythonMod in PyTorch 2.13. caformer's view helper asks
// `Mod((1 + a)*(1 + b), 1 + b) != 0` and PyTorch records nothing.
TEST(DivisionFormProperty, SumDividesOnlyAProductHoldingItAsAFactor) {
  ExprArena a;
  const uint8_t pos = kFactInteger | kFactPositive | kFactNonNegative;
  const ExprId s = a.symbol("s", SymbolKind::Free, pos), t = a.symbol("t", SymbolKind::Free, pos);
  const ExprId s1 = a.add(s, a.one()), t1 = a.add(t, a.one());
  EXPECT_EQ(a.mod(a.mul(s1, t1), t1), a.zero());
  EXPECT_EQ(a.python_mod(a.mul(s1, t1), t1), a.zero());
  EXPECT_EQ(a.mod(a.mul(s, a.pow(t1, 2)), t1), a.zero());
  EXPECT_NE(a.mod(a.expand(a.mul(s1, t1)), t1), a.zero());  // Mod(s*t + s + t + 1, t + 1)
  EXPECT_NE(a.mod(a.mul(s1, a.add(a.mul(a.integer(2), t), a.integer(2))), t1), a.zero());
  EXPECT_NE(a.mod(a.mul(s1, a.add(a.mul(a.integer(320), t), a.integer(320))), a.integer(320)), a.zero());
}

}  // namespace symshape::test
