// The two printed forms (A.9), byte for byte: SymPy's StrPrinter orders and parentheses,
// PyTorch's PythonPrinter guard syntax.
#include <cmath>
#include <limits>

#include "expr/printer.h"
#include "expr_test_util.h"

namespace symshape::test {

class Printer : public ExprTest {
 protected:
  std::string str(ExprId e) { return to_str(a, e); }
  // s0 -> L['x'].size()[0], s1 -> L['y'].size()[0], others by name
  std::string guard(ExprId e) {
    return to_guard_str(a, e, [&](ExprId sym) -> std::string {
      if (sym == s0) return "L['x'].size()[0]";
      if (sym == s1) return "L['y'].size()[0]";
      return std::string(a.symbol_name(sym));
    });
  }
  ExprId raw(ExprKind k, std::initializer_list<ExprId> ops) { return a.make_raw(k, std::vector<ExprId>(ops)); }
};

TEST_F(Printer, StrSumsOrderByDegreeWithConstantLast) {
  EXPECT_EQ(str(a.add(s0, I(1))), "s0 + 1");
  EXPECT_EQ(str(a.sub(s0, I(1))), "s0 - 1");
  EXPECT_EQ(str(a.sub(I(1), s0)), "1 - s0");  // Add(positive number, -x) keeps the number first
  EXPECT_EQ(str(a.sub(a.neg(s0), I(1))), "-s0 - 1");
  EXPECT_EQ(str(a.add(a.mul(I(2), s0), s1)), "2*s0 + s1");
  EXPECT_EQ(str(a.add({a.mul(I(3), s0), a.mul(I(2), s1), I(1)})), "3*s0 + 2*s1 + 1");
  EXPECT_EQ(str(a.add(a.pow(s0, 2), s0)), "s0**2 + s0");
  EXPECT_EQ(str(a.add(a.mul(s0, s1), a.pow(s0, 2))), "s0**2 + s0*s1");
  const ExprId s57 = backed(a, "s57"), s75 = backed(a, "s75");
  EXPECT_EQ(str(a.add(s75, s57)), "s57 + s75");
  EXPECT_EQ(str(a.sub(s1, s0)), "-s0 + s1");
}

TEST_F(Printer, StrProductsAndPowers) {
  EXPECT_EQ(str(a.mul(I(2), s0)), "2*s0");
  EXPECT_EQ(str(a.neg(s0)), "-s0");
  EXPECT_EQ(str(a.mul({I(-2), s1, s0})), "-2*s0*s1");
  EXPECT_EQ(str(a.mul(s0, s0)), "s0**2");
  EXPECT_EQ(str(a.mul(s0, a.pow(s1, 3))), "s0*s1**3");
  EXPECT_EQ(str(raw(ExprKind::Mul, {a.add(s0, I(1)), a.add(s1, I(2))})), "(s0 + 1)*(s1 + 2)");
  EXPECT_EQ(str(a.pow(a.add(s0, I(1)), 2)), "(s0 + 1)**2");
  EXPECT_EQ(str(a.mul(a.floating(2.0), a.to_float(s0))), "2.0*ToFloat(s0)");
  EXPECT_EQ(str(a.mul(I(std::numeric_limits<int64_t>::min()), s0)), "-9223372036854775808*s0");
}

TEST_F(Printer, StrFloorDivIsWrappedAndBindsLooserThanAdd) {
  EXPECT_EQ(str(a.floordiv(s0, I(2))), "(s0//2)");
  EXPECT_EQ(str(a.floordiv(a.add(s0, I(1)), I(2))), "((s0 + 1)//2)");
  // FloorDiv's precedence (35) is below Add's: as a summand or factor it gains parentheses
  EXPECT_EQ(str(a.add(a.floordiv(a.add(s1, I(1)), I(2)), I(1))), "(((s1 + 1)//2)) + 1");
  EXPECT_EQ(str(a.mul({I(32), a.floordiv(s0, I(2)), a.floordiv(s1, I(2))})), "32*((s0//2))*((s1//2))");
  EXPECT_EQ(str(a.neg(a.floordiv(s0, I(2)))), "-((s0//2))");
  EXPECT_EQ(str(a.floordiv(a.max(s0, s1), I(2))), "(Max(s0, s1)//2)");
  EXPECT_EQ(str(a.floordiv(a.mul(I(2), s0), I(3))), "((2*s0)//3)");  // operands: parenthesised unless atomic
  EXPECT_EQ(str(a.lt(a.floordiv(s0, I(2)), I(3))), "((s0//2)) < 3");
}

TEST_F(Printer, StrFunctionsRelationsAndLogic) {
  const ExprId s97 = backed(a, "s97"), s26 = backed(a, "s26"), s57 = backed(a, "s57");
  EXPECT_EQ(str(a.eq(s97, I(2))), "Eq(s97, 2)");
  EXPECT_EQ(str(a.ne(s0, I(3))), "Ne(s0, 3)");
  EXPECT_EQ(str(a.lt(s0, I(3))), "s0 < 3");
  EXPECT_EQ(str(a.ge(u1, I(0))), "u1 >= 0");
  EXPECT_EQ(str(a.eq(u1, a.pow(u0, 2))), "Eq(u1, u0**2)");
  EXPECT_EQ(str(a.mod(s0, I(2))), "Mod(s0, 2)");
  EXPECT_EQ(str(a.mod(u0, I(2))), "PythonMod(u0, 2)");
  EXPECT_EQ(str(a.max(I(1), u0)), "Max(1, u0)");
  EXPECT_EQ(str(a.min(a.add(u0, I(1)), u1)), "Min(u1, u0 + 1)");
  EXPECT_EQ(str(a.sym_ite(a.eq(s97, I(5)), s97, s26)), "Piecewise((s97, Eq(s97, 5)), (s26, True))");
  EXPECT_EQ(str(a.bool_to_int(a.gt(s0, I(5)))), "Piecewise((1, s0 > 5), (0, True))");
  EXPECT_EQ(str(a.trunc_to_int(a.int_true_div(s26, I(2)))), "TruncToInt(IntTrueDiv(s26, 2))");
  EXPECT_EQ(str(a.floor_to_int(a.int_true_div(s97, I(2)))), "FloorToInt(IntTrueDiv(s97, 2))");
  EXPECT_EQ(str(a.ceil_to_int(a.int_true_div(s97, I(2)))), "CeilToInt(IntTrueDiv(s97, 2))");
  EXPECT_EQ(str(a.trunc_to_int(a.mul(a.floating(2.0), a.to_float(s57)))), "TruncToInt(2.0*ToFloat(s57))");
  EXPECT_EQ(str(a.opaque_unary(OpaqueFn::Sqrt, a.to_float(s97))), "OpaqueUnaryFn_sqrt(ToFloat(s97))");
  EXPECT_EQ(str(a.eq(a.opaque_unary(OpaqueFn::Log2, a.to_float(s97)), a.floating(2.0))),
            "Eq(OpaqueUnaryFn_log2(ToFloat(s97)), 2.0)");
  EXPECT_EQ(str(a.bitwise_and(s97, s26)), "BitwiseFn_bitwise_and(s97, s26)");
  EXPECT_EQ(str(a.logical_and(a.le(I(2), s0), a.le(s0, I(16)))), "(2 <= s0) & (s0 <= 16)");
  EXPECT_EQ(str(a.logical_or(a.eq(s0, I(2)), a.lt(s1, I(3)))), "Eq(s0, 2) | (s1 < 3)");
  EXPECT_EQ(str(a.logical_not(a.logical_and(a.lt(s0, I(5)), a.lt(s1, I(3))))), "~((s0 < 5) & (s1 < 3))");
}

TEST_F(Printer, StrNumbers) {
  EXPECT_EQ(str(a.int_infinity()), "int_oo");
  EXPECT_EQ(str(a.int_infinity(false)), "-int_oo");
  EXPECT_EQ(str(a.floating(INFINITY)), "oo");
  EXPECT_EQ(str(a.floating(-INFINITY)), "-oo");
  EXPECT_EQ(str(a.floating(2.0)), "2.00000000000000");  // top level keeps SymPy's 15 digits
  EXPECT_EQ(str(a.floating(0.1)), "0.100000000000000");
  EXPECT_EQ(str(a.floating(1e20)), "1.00000000000000e+20");
  EXPECT_EQ(str(a.true_()), "True");
  EXPECT_EQ(str(I(-7)), "-7");
}

TEST_F(Printer, GuardSumsKeepArgumentOrder) {
  EXPECT_EQ(guard(a.add(s0, I(1))), "1 + L['x'].size()[0]");
  EXPECT_EQ(guard(a.sub(s0, I(1))), "(-1) + L['x'].size()[0]");
  EXPECT_EQ(guard(a.add(a.mul(I(2), s0), I(1))), "1 + 2*L['x'].size()[0]");
  EXPECT_EQ(guard(a.sub(s1, s0)), "L['y'].size()[0] + ((-1)*L['x'].size()[0])");
  EXPECT_EQ(guard(a.pow(s0, 2)), "L['x'].size()[0]*L['x'].size()[0]");
  EXPECT_EQ(guard(a.mul(I(3), a.pow(a.add(s0, I(1)), 2))), "3*(1 + L['x'].size()[0])*(1 + L['x'].size()[0])");
  EXPECT_EQ(guard(raw(ExprKind::Pow, {s0, I(0)})), "1");
}

TEST_F(Printer, GuardRelationsUseSympyPrecedence) {
  EXPECT_EQ(guard(a.eq(s0, I(3))), "L['x'].size()[0] == 3");
  EXPECT_EQ(guard(a.ne(s0, I(3))), "L['x'].size()[0] != 3");
  EXPECT_EQ(guard(a.eq(s0, a.mul(I(2), s1))), "L['x'].size()[0] == (2*L['y'].size()[0])");
  EXPECT_EQ(guard(a.eq(a.add(s0, s1), I(10))), "(L['x'].size()[0] + L['y'].size()[0]) == 10");
  EXPECT_EQ(guard(a.lt(a.mul(I(2), s0), a.add(a.mul(I(2), s1), I(1)))), "2*L['x'].size()[0] < 1 + 2*L['y'].size()[0]");
  EXPECT_EQ(guard(a.gt(a.floordiv(s0, I(2)), I(3))), "(L['x'].size()[0] // 2) > 3");
  EXPECT_EQ(guard(a.logical_and(a.le(I(2), s0), a.le(s0, I(16)))), "2 <= L['x'].size()[0] and L['x'].size()[0] <= 16");
  EXPECT_EQ(guard(a.logical_or(a.lt(s0, I(2)), a.logical_and(a.gt(s1, I(3)), a.lt(s1, I(9))))),
            "L['x'].size()[0] < 2 or L['y'].size()[0] > 3 and L['y'].size()[0] < 9");
  EXPECT_EQ(guard(a.logical_and(a.lt(s0, I(2)), a.logical_or(a.gt(s1, I(3)), a.lt(s1, I(2))))),
            "L['x'].size()[0] < 2 and (L['y'].size()[0] > 3 or L['y'].size()[0] < 2)");
  EXPECT_EQ(guard(raw(ExprKind::Not, {a.logical_and(a.lt(s0, I(2)), a.lt(s1, I(2)))})),
            "not (L['x'].size()[0] < 2 and L['y'].size()[0] < 2)");
}

TEST_F(Printer, GuardDivisionModuloAndFunctions) {
  EXPECT_EQ(guard(a.floordiv(a.add(s0, I(1)), I(2))), "(1 + L['x'].size()[0]) // 2");
  EXPECT_EQ(guard(a.mod(s0, I(2))), "L['x'].size()[0] % 2");
  EXPECT_EQ(guard(a.mod(u0, s1)), "u0 % L['y'].size()[0]");
  EXPECT_EQ(guard(a.modular_indexing(s0, I(2), I(4))), "((L['x'].size()[0] // 2) % 4)");
  EXPECT_EQ(guard(raw(ExprKind::ModularIndexing, {s0, I(1), I(4)})), "(L['x'].size()[0] % 4)");
  EXPECT_EQ(guard(a.max(I(1), u0)), "max(1, u0)");
  EXPECT_EQ(guard(a.min(s0, s1)), "min(L['x'].size()[0], L['y'].size()[0])");
  EXPECT_EQ(guard(a.to_float(s0)), "torch.sym_float(L['x'].size()[0])");
  EXPECT_EQ(guard(a.trunc_to_int(a.int_true_div(s0, I(2)))), "math.trunc(L['x'].size()[0] / 2)");
  EXPECT_EQ(guard(a.float_true_div(a.to_float(s0), a.floating(2.0))),
            "((torch.sym_float(L['x'].size()[0])) / 2.0000000000000000)");
  EXPECT_EQ(guard(a.floor_to_int(a.to_float(s0))), "math.floor(torch.sym_float(L['x'].size()[0]))");
  EXPECT_EQ(guard(a.ceil_to_int(a.to_float(s0))), "math.ceil(torch.sym_float(L['x'].size()[0]))");
  EXPECT_EQ(guard(a.round_to_int(a.to_float(s0))), "round(torch.sym_float(L['x'].size()[0]))");
  EXPECT_EQ(guard(a.opaque_unary(OpaqueFn::Sqrt, a.to_float(s0))), "math.sqrt(torch.sym_float(L['x'].size()[0]))");
  EXPECT_EQ(guard(a.opaque_unary(OpaqueFn::Log2, a.to_float(s0))), "math.log2(torch.sym_float(L['x'].size()[0]))");
  EXPECT_EQ(guard(a.pow_by_natural(s0, s1)), "L['x'].size()[0] ** L['y'].size()[0]");
  EXPECT_EQ(guard(a.bitwise_and(s0, s1)), "L['x'].size()[0] & L['y'].size()[0]");
  EXPECT_EQ(guard(a.floating(0.1)), "0.10000000000000001");
  EXPECT_EQ(guard(a.floating(INFINITY)), "math.inf");
}

// sympy's precedence_Mul: a product with a division or modulo factor (PyTorch functions
// with precedence 35) binds as Mul even with a negative coefficient, so a sum does not
// parenthesise it; torch's PythonPrinter prints `64 + (-1)*(x % 64)`.
TEST_F(Printer, GuardNegatedDivisionOrModuloTermIsNotParenthesised) {
  EXPECT_EQ(guard(a.sub(I(64), a.mod(s0, I(64)))), "64 + (-1)*(L['x'].size()[0] % 64)");
  EXPECT_EQ(guard(a.sub(I(3), a.floordiv(s0, I(2)))), "3 + (-1)*(L['x'].size()[0] // 2)");
  EXPECT_EQ(guard(a.sub(I(1), a.mul(I(2), a.mul(s1, a.floordiv(s0, I(2)))))),
            "1 + (-2)*L['y'].size()[0]*(L['x'].size()[0] // 2)");
  EXPECT_EQ(guard(a.sub(s1, s0)), "L['y'].size()[0] + ((-1)*L['x'].size()[0])");
}

TEST_F(Printer, GuardPiecewiseIsANestedTernary) {
  const ExprId pw = a.piecewise(std::vector<ExprId>{I(1), a.gt(s0, I(5)), I(2), a.gt(s1, I(3)), I(0), a.true_()});
  EXPECT_EQ(guard(pw), "(1 if L['x'].size()[0] > 5 else (2 if L['y'].size()[0] > 3 else 0))");
}

}  // namespace symshape::test
