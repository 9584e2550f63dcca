// The arena itself: hash-consing, stable operand spans and symbol names while it grows,
// topological ids, facts, structural order, substitution and expansion.
#include <string>

#include "expr/printer.h"
#include "expr_test_util.h"

namespace symshape::test {

using Arena = ExprTest;

TEST_F(Arena, HashConsingGivesEqualIdsForEqualNodes) {
  const ExprId x = a.add(a.mul(I(3), s0), s1);
  const ExprId y = a.add(s1, a.mul(s0, I(3)));
  EXPECT_EQ(x, y);
  const uint32_t before = a.size();
  (void)a.add(a.mul(I(3), s0), s1);
  EXPECT_EQ(a.size(), before);
}

TEST_F(Arena, OperandSpansAndNamesStayValidWhileGrowing) {
  const ExprId sum = a.add({s0, s1, s2, I(7)});
  const std::span<const ExprId> ops = a.operands(sum);
  const std::vector<ExprId> copy(ops.begin(), ops.end());
  const std::string_view name = a.symbol_name(s0);
  for (int i = 0; i < 200000; ++i) (void)a.add(s0, I(i));
  for (int i = 0; i < 5000; ++i) (void)backed(a, std::string("g").append(std::to_string(i)));
  EXPECT_TRUE(std::equal(ops.begin(), ops.end(), copy.begin(), copy.end()));
  EXPECT_EQ(name, "s0");
  // a builder distributing over a sum while the arena grows under it
  ExprArena fresh;
  const ExprId p = backed(fresh, "p"), q = unbacked(fresh, "q");
  EXPECT_EQ(to_str(fresh, fresh.floordiv(fresh.add(p, q), fresh.integer(-1))), "-p - q");
}

TEST_F(Arena, IdsAreTopological) {
  const ExprId e = a.floordiv(a.add(a.mul(I(3), s0), a.max(s1, u0)), I(7));
  std::vector<ExprId> stack{e};
  while (!stack.empty()) {
    const ExprId x = stack.back();
    stack.pop_back();
    for (ExprId o : a.operands(x)) {
      EXPECT_LT(o.value, x.value);
      stack.push_back(o);
    }
  }
}

TEST_F(Arena, FactsOfBuiltNodes) {
  EXPECT_TRUE(a.is_positive(a.add(s0, s1)));
  EXPECT_TRUE(a.is_nonnegative(a.floordiv(s0, I(2))));
  EXPECT_FALSE(a.is_nonnegative(a.add(s0, u0)));
  EXPECT_TRUE(a.is_integer(a.mod(u0, I(3))));
  EXPECT_TRUE(a.is_boolean(a.lt(u0, I(3))));
  EXPECT_TRUE(a.facts(a.add(u0, I(1))) & kFactHasUnbacked);
  EXPECT_TRUE(a.is_constant(I(5)));
  EXPECT_FALSE(a.is_constant(s0));
}

// SymPy's Add positivity for `c + t` (each case measured with torch 2.13's SymPy):
// c plus the least value of t, so Max(1, .) of a conv length `(s - 1)//32 + 1` folds and
// that of `(s - 3)//16 + 1` stays.
TEST_F(Arena, FactsOfANumberPlusOneTermFollowSympy) {
  const ExprId F = a.floordiv(a.add(s0, I(-1)), I(32));
  struct Case {
    ExprId e;
    bool positive, nonnegative;
  };
  for (const Case& c : {Case{a.add(s0, I(-1)), false, true}, Case{a.add(s0, I(-2)), false, false},
                        Case{a.add(F, I(1)), true, true}, Case{a.add(a.floordiv(a.add(s0, I(-3)), I(16)), I(1)), false, false},
                        Case{a.add(a.mul(I(2), s0), I(-2)), false, true}, Case{a.add(a.mul(I(2), s0), I(-1)), true, true},
                        Case{a.add(a.mul(I(3), s0), I(-2)), true, true}, Case{a.add(a.mul(I(2), s0), I(-3)), false, false},
                        Case{a.add(a.mul(a.mul(I(2), s0), s1), I(-2)), false, true},
                        Case{a.add(a.mul(a.mul(I(3), s0), s1), I(-2)), false, false},
                        Case{a.add(a.mul(s0, s1), I(-1)), false, true}, Case{a.add(a.add(s0, s1), I(-1)), false, false},
                        Case{a.add(a.mul(I(2), F), I(1)), true, true}, Case{a.add(a.mul(I(2), F), I(-1)), false, false},
                        Case{a.add(a.mod(s0, I(3)), I(-1)), false, false}}) {
    EXPECT_EQ(a.is_positive(c.e), c.positive) << to_str(a, c.e);
    EXPECT_EQ(a.is_nonnegative(c.e), c.nonnegative) << to_str(a, c.e);
  }
  EXPECT_EQ(a.max(I(1), a.add(F, I(1))), a.add(F, I(1)));
  EXPECT_NE(a.max(I(1), a.add(s0, I(-1))), a.add(s0, I(-1)));
}

// SymPy's Eq asks (x - y).is_zero, and its parity rules answer it: an odd difference of
// integers is never zero. Each case printed by SymPy 1.14 under PyTorch 2.13 (integer
// positive s0, s1; FloorDiv and CeilToInt are integers of unknown parity).
TEST_F(Arena, EqualityOfIntegersOfOtherParityIsDecided) {
  const ExprId F = a.floordiv(s0, I(2));
  const ExprId C = a.ceil_to_int(a.int_true_div(s1, I(2)));
  EXPECT_EQ(a.eq(a.mul({I(2), s0, s1}), I(1)), a.false_());
  EXPECT_EQ(a.ne(a.mul({I(2), s0, s1}), I(1)), a.true_());
  EXPECT_EQ(a.eq(a.mul(I(2), F), I(1)), a.false_());  // F may be 0: no bound decides it
  EXPECT_EQ(a.ne(a.mul({I(2), C, F}), I(1)), a.true_());
  EXPECT_EQ(a.eq(a.add(a.mul(I(2), F), I(1)), a.mul(I(2), s1)), a.false_());
  // unknown parity stays a relation, as SymPy keeps Eq(s0*s1, 1) and Eq(F, 1)
  EXPECT_EQ(a.kind(a.eq(a.mul(s0, s1), I(1))), ExprKind::Eq);
  EXPECT_EQ(a.kind(a.eq(F, I(1))), ExprKind::Eq);
  EXPECT_EQ(a.kind(a.eq(a.mul(I(2), F), I(2))), ExprKind::Eq);
}

// safe_expand leaves SymPy's And / Or / Not alone (they have no expand()): a junction keeps
// its operands' factored forms, which is how PyTorch prints and deduplicates such guards.
TEST_F(Arena, ExpandStopsAtJunctions) {
  const ExprId product = a.mul(s0, a.add(s1, I(1)));
  const ExprId either = a.logical_or(a.eq(product, I(320)), a.eq(a.mod(product, I(320)), I(0)));
  EXPECT_EQ(a.expand(either), either);
  EXPECT_NE(a.expand(a.eq(product, I(320))), a.eq(product, I(320)));
}

TEST_F(Arena, StructuralOrderOfSumArguments) {
  // A.3.2: numbers first, then symbols before products, integers numerically, names as strings
  auto args = [&](ExprId e) {
    std::vector<std::string> out;
    for (ExprId o : a.operands(e)) out.push_back(to_str(a, o));
    return out;
  };
  EXPECT_EQ(args(a.add(s0, I(1))), (std::vector<std::string>{"1", "s0"}));
  EXPECT_EQ(args(a.add(a.mul(I(2), s0), s1)), (std::vector<std::string>{"s1", "2*s0"}));
  EXPECT_EQ(args(a.add({a.mul(I(3), s0), a.mul(I(2), s1), I(1)})), (std::vector<std::string>{"1", "2*s1", "3*s0"}));
  EXPECT_EQ(args(a.add(a.pow(s0, 2), s0)), (std::vector<std::string>{"s0", "s0**2"}));
  const ExprId s77 = backed(a, "s77"), s17 = backed(a, "s17"), s9 = backed(a, "s9");
  EXPECT_EQ(args(a.add(s77, s17)), (std::vector<std::string>{"s17", "s77"}));
  EXPECT_EQ(args(a.add(s9, s17)), (std::vector<std::string>{"s17", "s9"}));
}

TEST_F(Arena, SubstituteRebuildsCanonically) {
  const ExprId e = a.floordiv(a.add(s0, s1), I(2));
  const ExprId syms[1] = {s1}, vals[1] = {a.add(s0, I(4))};
  EXPECT_EQ(a.substitute(e, syms, vals), a.add(s0, I(2)));  // (2*s0 + 4)//2
}

TEST_F(Arena, ExpandDistributesProducts) {
  const ExprId p = a.mul(a.add(s0, I(1)), a.add(s1, I(2)));
  EXPECT_EQ(to_str(a, a.expand(p)), "s0*s1 + 2*s0 + s1 + 2");
  EXPECT_EQ(to_str(a, a.expand(a.pow(a.add(s0, I(1)), 2))), "s0**2 + 2*s0 + 1");
}

// Max(1, x) folds as SymPy folds it, from assumptions only (make_contiguous_strides_for's
// `sym_max(size, 1)`): a floor division of a non-negative base by a positive divisor is
// non-negative, never known positive (checked against torch.utils._sympy FloorDiv).
TEST_F(Arena, MaxFoldsFloorDivisionsLikeSympyAssumptions) {
  const ExprId block = a.add(a.floordiv(a.sub(s0, I(1)), I(8)), I(1));  // (s0 - 1)//8 + 1
  EXPECT_EQ(a.max(I(1), block), block);
  const ExprId up = a.floordiv(a.add(s0, I(7)), I(8));  // (s0 + 7)//8: only known >= 0
  EXPECT_EQ(a.kind(a.max(I(1), up)), ExprKind::Max);
  const ExprId inception = a.sub(a.floordiv(a.sub(s0, I(3)), I(2)), I(1));  // (s0 - 3)//2 - 1
  EXPECT_EQ(a.kind(a.max(I(1), inception)), ExprKind::Max);
  const ExprId sum = a.add({a.floordiv(s0, I(2)), a.floordiv(s0, I(4)), I(1)});
  EXPECT_EQ(a.max(I(1), sum), sum);
}

}  // namespace symshape::test
