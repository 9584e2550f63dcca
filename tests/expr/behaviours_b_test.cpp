// Behaviours 36-44 of docs/behaviours.md (B: value ranges). 45-56 need a ShapeEnv and are
// tested by its owner.
#include "behaviour_fixture.h"
#include "expr/bound.h"

namespace symshape::test {

TEST_F(ExprBehaviour, B36_BoundsOfFloorDivModAndLinear) {
  const auto ranges = size_ranges();
  EXPECT_EQ(bound(a, a.floordiv(s0, I(2)), ranges).str(), "[1, int_oo]");
  EXPECT_EQ(bound(a, a.mod(s0, I(2)), ranges).str(), "[0, 1]");
  EXPECT_EQ(bound(a, a.add(a.mul(I(2), s0), I(1)), ranges).str(), "[5, int_oo]");
}

TEST_F(ExprBehaviour, B37_BoundsOfProductAndDifference) {
  const auto ranges = size_ranges();
  EXPECT_EQ(bound(a, a.mul(s0, s1), ranges).str(), "[4, int_oo]");
  EXPECT_EQ(bound(a, a.sub(s0, s1), ranges).str(), "[-int_oo, int_oo]");
}

TEST_F(ExprBehaviour, B38_FloorDivByRangeContainingZeroIsUnknown) {
  const ExprId x = a.symbol("x", SymbolKind::Free, kFactInteger);
  const ExprId y = a.symbol("y", SymbolKind::Free, kFactInteger);
  std::vector<ValueRange> ranges(a.symbol_count(), ValueRange::unknown_int());
  ranges[a.symbol_id(x).index()] = R(1, 10);
  ranges[a.symbol_id(y).index()] = R(-3, 3);
  const ValueRange r = bound(a, a.floordiv(x, y), ranges);
  EXPECT_EQ(r.str(), "[-oo, oo]");
  EXPECT_EQ(vr::floordiv(R(-4, 10), R(0, 5)).str(), "[-oo, oo]");
}

// PyTorch 2.x keeps the quotient's sign when neither operand changes sign
// (docs/torchref.md, "A divisor range that holds 0").
TEST_F(ExprBehaviour, B38_FloorDivByRangeFromZeroKeepsTheSign) {
  EXPECT_EQ(vr::floordiv(R(1, 10), R(0, 5)).str(), "[0, int_oo]");
  EXPECT_EQ(vr::floordiv(R(-10, -1), R(-5, 0)).str(), "[0, int_oo]");
  EXPECT_EQ(vr::floordiv(R(0, 10), R(-5, 0)).str(), "[-int_oo, 0]");
  EXPECT_EQ(vr::floordiv(R(-10, 0), R(0, 5)).str(), "[-int_oo, 0]");
  // a size-like chain: (c - 1)//2 + 1 over ceil((..)/2) of a range from 0
  const ExprId c = a.symbol("c", SymbolKind::Free, kFactInteger);
  std::vector<ValueRange> ranges(a.symbol_count(), ValueRange::unknown_int());
  ranges[a.symbol_id(c).index()] = R(0, 100);
  const ExprId num = a.add(a.floordiv(a.sub(c, a.one()), a.integer(2)), a.one());
  EXPECT_EQ(bound(a, a.floordiv(num, c), ranges).str(), "[0, int_oo]");
}

TEST_F(ExprBehaviour, B39_ZeroTimesUnknownIsZero) {
  EXPECT_EQ(vr::mul(R(0, 0), ValueRange::unknown()).str(), "[0, 0]");
  EXPECT_EQ(vr::mul(ValueRange::unknown_int(), R(0, 0)).str(), "[0, 0]");
}

TEST_F(ExprBehaviour, B40_ModUsesTruncationSemantics) {
  EXPECT_EQ(vr::mod(R(3, 5), R(10, 10)).str(), "[3, 5]");
  EXPECT_EQ(vr::mod(R(-5, 5), R(3, 3)).str(), "[-2, 2]");
  EXPECT_EQ(vr::mod(R(7, 20), R(3, 3)).str(), "[0, 2]");
  EXPECT_EQ(vr::mod(R(-100, 100), R(2, 5)).str(), "[-4, 4]");
  EXPECT_EQ(vr::mod(R(-1000, -1), R(2, 5)).str(), "[-4, 4]");
}

TEST_F(ExprBehaviour, B41_RelationsOnRanges) {
  EXPECT_TRUE(vr::eq(R(1, 3), R(5, 7)).known_false());
  EXPECT_TRUE(vr::lt(R(1, 3), R(5, 7)).known_true());
  EXPECT_EQ(vr::lt(R(1, 5), R(5, 7)).str(), "[False, True]");
  EXPECT_EQ(vr::le(R(5, 7), R(1, 5)).str(), "[False, True]");
  EXPECT_TRUE(vr::gt(R(6, 9), R(1, 5)).known_true());
}

TEST_F(ExprBehaviour, B42_InvalidRangeIsAnError) {
  try {
    ValueRange r(ExtNum::of(3), ExtNum::of(2));
    FAIL() << "constructed " << r.str();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidRange);
    EXPECT_STREQ(e.what(), "Invalid ranges [3:2]");
  }
}

TEST_F(ExprBehaviour, B43_IntersectionUnionSingleton) {
  EXPECT_EQ((R(2, 10) & R(5, 20)).str(), "[5, 10]");
  EXPECT_EQ((R(2, 10) | R(5, 20)).str(), "[2, 20]");
  EXPECT_TRUE(R(0, 0).is_singleton());
  EXPECT_FALSE(R(0, 1).is_singleton());
}

TEST_F(ExprBehaviour, B44_PowByNatural) {
  EXPECT_EQ(vr::pow_by_natural(R(2, 3), R(2, 2)).str(), "[4, 9]");
  EXPECT_EQ(vr::pow_by_natural(R(-3, 2), R(2, 2)).str(), "[0, 9]");
  EXPECT_EQ(vr::pow_by_natural(R(-3, 2), R(3, 3)).str(), "[-27, 8]");
}

}  // namespace symshape::test
