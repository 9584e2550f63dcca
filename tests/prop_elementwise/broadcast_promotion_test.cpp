// Behaviours 213-218 (broadcasting, contiguous / channels_last strides) and 220-223
// (type promotion), through real graphs and the propagation driver.
#include "prop_harness.h"

namespace symshape::test {
namespace {

const std::string kAdd = "aten.add.Tensor";

TEST(Broadcast, B213_ShapesAndContiguousStrides) {
  PropHarness h;
  h.input("x", "float32", {5, 1, 4}).input("y", "float32", {3, 1}).call("r", kAdd, "[" + N("x") + ", " + N("y") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("r"), (Ints{5, 3, 4}));
  EXPECT_EQ(h.stride("r"), (Ints{12, 4, 1}));
}

TEST(Broadcast, B214_MismatchIsAnError) {
  PropHarness h;
  h.input("x", "float32", {2, 3}).input("y", "float32", {4, 3}).call("r", kAdd, "[" + N("x") + ", " + N("y") + "]");
  ASSERT_FALSE(h.run());
  EXPECT_NE(h.error().find("The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0"),
            std::string::npos)
      << h.error();
}

TEST(Broadcast, B215_ZeroBroadcastsOnlyWithOneOrZero) {
  PropHarness ok;
  ok.input("x", "float32", {0}).input("y", "float32", {1}).call("r", kAdd, "[" + N("x") + ", " + N("y") + "]");
  ASSERT_TRUE(ok.run()) << ok.error();
  EXPECT_EQ(ok.shape("r"), (Ints{0}));
  PropHarness bad;
  bad.input("x", "float32", {0}).input("y", "float32", {2}).call("r", kAdd, "[" + N("x") + ", " + N("y") + "]");
  ASSERT_FALSE(bad.run());
  EXPECT_NE(bad.error().find("tensor a (0) must match the size of tensor b (2) at non-singleton dimension 0"),
            std::string::npos)
      << bad.error();
}

TEST(Broadcast, B216_SymbolicEqualHintsGuardDifferentHintsFail) {
  PropHarness eq;
  eq.input("x", "float32", {5}, {"a"}).input("y", "float32", {5}, {"b"}).call("r", kAdd, "[" + N("x") + ", " + N("y") + "]");
  ASSERT_TRUE(eq.run()) << eq.error();
  EXPECT_EQ(eq.shape("r"), (Ints{5}));
  // the equality became a guard, which made the two symbols one
  EXPECT_FALSE(eq.env().guards().empty());
  EXPECT_EQ(eq.shape_str("r"), eq.shape_str("x"));
  EXPECT_EQ(eq.shape_str("x"), eq.shape_str("y"));

  PropHarness ne;
  ne.input("x", "float32", {5}, {"a"}).input("y", "float32", {6}, {"b"}).call("r", kAdd, "[" + N("x") + ", " + N("y") + "]");
  ASSERT_FALSE(ne.run());
  EXPECT_NE(ne.error().find("must match the size of tensor b"), std::string::npos) << ne.error();
  EXPECT_NE(ne.error().find("at non-singleton dimension 0)"), std::string::npos) << ne.error();
}

TEST(Broadcast, SymbolicOneTestDoesNotGuard) {
  PropHarness h;
  h.input("x", "float32", {3, 1}, {"a", ""}).input("y", "float32", {4}, {"b"}).call("r", kAdd, "[" + N("x") + ", " + N("y") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("r"), (Ints{3, 4}));
  EXPECT_TRUE(h.env().guards().empty());
}

TEST(Strides, B217_Contiguous) {
  for (auto [sizes, strides] : {std::pair<Ints, Ints>{{2, 3, 4}, {12, 4, 1}},
                                 std::pair<Ints, Ints>{{2, 0, 3}, {3, 3, 1}},
                                 std::pair<Ints, Ints>{{0, 3, 0, 5}, {15, 5, 5, 1}}}) {
    PropHarness h;
    std::string list = "[";
    for (size_t i = 0; i < sizes.size(); ++i) list += (i ? ", " : "") + std::to_string(sizes[i]);
    h.input("x", "float32", {1}).call("r", "aten.zeros.default", "[" + list + "]]");
    ASSERT_TRUE(h.run()) << h.error();
    EXPECT_EQ(h.stride("r"), strides);
  }
}

TEST(Strides, B218_ChannelsLast) {
  struct Case { Ints sizes, strides; const char* fmt; };
  for (const Case& c : {Case{{2, 3, 4, 5}, {60, 1, 15, 3}, "channels_last"},
                        Case{{2, 1, 4, 5}, {20, 1, 5, 1}, "channels_last"},
                        Case{{2, 0, 4, 5}, {0, 1, 0, 0}, "channels_last"},
                        Case{{2, 3, 4, 5, 6}, {360, 1, 90, 18, 3}, "channels_last_3d"}}) {
    PropHarness h;
    std::string list = "[";
    for (size_t i = 0; i < c.sizes.size(); ++i) list += (i ? ", " : "") + std::to_string(c.sizes[i]);
    h.input("x", "float32", {1}).call("r", "aten.empty.memory_format", "[" + list + "]]",
                                       std::string(R"({"memory_format": {"memory_format": ")") + c.fmt + "\"}}");
    ASSERT_TRUE(h.run()) << h.error();
    EXPECT_EQ(h.stride("r"), c.strides) << c.fmt;
  }
}

// ---- type promotion ----

DType promote(const std::string& a_dtype, Ints a_shape, const std::string& other, const std::string& target = kAdd,
              const std::string& b_dtype = "", Ints b_shape = {}) {
  PropHarness h;
  h.input("a", a_dtype, a_shape);
  std::string rhs = other;
  if (!b_dtype.empty()) {
    h.input("b", b_dtype, b_shape);
    rhs = N("b");
  }
  h.call("r", target, "[" + N("a") + ", " + rhs + "]");
  EXPECT_TRUE(h.run()) << h.error();
  return h.dtype("r");
}

// A 0-dim tensor of `dtype`: the full sum of an input.
DType promote_zero_dim(const std::string& a_dtype, Ints a_shape, const std::string& zero_dtype) {
  PropHarness h;
  h.input("a", a_dtype, a_shape).input("z", zero_dtype, {3});
  h.call("s", "aten.sum.default", "[" + N("z") + "]", R"({"dtype": {"dtype": ")" + zero_dtype + "\"}}");
  h.call("r", kAdd, "[" + N("a") + ", " + N("s") + "]");
  EXPECT_TRUE(h.run()) << h.error();
  return h.dtype("r");
}

TEST(Promotion, B220_TiersAndScalars) {
  EXPECT_EQ(promote("int32", {2}, "1.5"), DType::Float32);
  EXPECT_EQ(promote("int32", {2}, "1"), DType::Int32);
  EXPECT_EQ(promote_zero_dim("uint8", {2}, "int64"), DType::UInt8);
  EXPECT_EQ(promote_zero_dim("uint8", {2}, "float64"), DType::Float64);
  EXPECT_EQ(promote_zero_dim("float16", {2}, "float64"), DType::Float16);
}

// The format has no complex scalar literal: a 0-dim complex64 tensor stands in for 1j.
TEST(Promotion, B221_ComplexKeepsTheFloatWidth) {
  EXPECT_EQ(promote_zero_dim("float32", {2}, "complex64"), DType::Complex64);
  PropHarness h;  // float64 with a complex operand is complex128: not a modelled dtype
  h.input("a", "float64", {2}).input("z", "complex64", {3});
  h.call("s", "aten.sum.default", "[" + N("z") + "]");
  h.call("r", kAdd, "[" + N("a") + ", " + N("s") + "]");
  ASSERT_FALSE(h.run());
  EXPECT_NE(h.error().find("complex128"), std::string::npos) << h.error();
}

TEST(Promotion, B222_Lattice) {
  EXPECT_EQ(promote("bool", {2}, "", kAdd, "bool", {2}), DType::Bool);
  EXPECT_EQ(promote("bool", {2}, "1"), DType::Int64);
  EXPECT_EQ(promote("bool", {2}, "true"), DType::Bool);
  EXPECT_EQ(promote("int8", {2}, "", kAdd, "uint8", {2}), DType::Int16);
  EXPECT_EQ(promote("bfloat16", {2}, "", kAdd, "float16", {2}), DType::Float32);
  EXPECT_EQ(promote_zero_dim("int64", {2}, "float64"), DType::Float64);
  // two 0-dim operands: both in the zero-dim tier
  PropHarness h;
  h.input("a", "int64", {3}).input("z", "float64", {3});
  h.call("sa", "aten.sum.default", "[" + N("a") + "]").call("sz", "aten.sum.default", "[" + N("z") + "]");
  h.call("r", kAdd, "[" + N("sa") + ", " + N("sz") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.dtype("r"), DType::Float64);
  EXPECT_EQ(h.shape("r"), (Ints{}));
}

TEST(Promotion, B223_Kinds) {
  EXPECT_EQ(promote("int32", {2}, "", "aten.div.Tensor", "int32", {2}), DType::Float32);
  EXPECT_EQ(promote("int32", {2}, "", "aten.eq.Tensor", "int32", {2}), DType::Bool);
  EXPECT_EQ(promote("bool", {2}, "2", "aten.pow.Tensor_Scalar"), DType::Int64);
  for (auto [dt, op, want] : {std::tuple{"complex64", "aten.abs.default", DType::Float32},
                              std::tuple{"int64", "aten.sin.default", DType::Float32}}) {
    PropHarness h;
    h.input("a", dt, {2}).call("r", op, "[" + N("a") + "]");
    ASSERT_TRUE(h.run()) << h.error();
    EXPECT_EQ(h.dtype("r"), want) << op;
  }
}

TEST(Promotion, RoundingModeKeepsIntegers) {
  PropHarness h;
  h.input("a", "int32", {2}).input("b", "int32", {2});
  h.call("r", "aten.div.Tensor_mode", "[" + N("a") + ", " + N("b") + "]", R"({"rounding_mode": "floor"})");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.dtype("r"), DType::Int32);
}

// The equality guard's sides are PyTorch 2.13's (measured: x[1:].clone() and x[::2] at 3).
// An in-place op runs its torch._refs form under the Python dispatcher, whose
// _broadcast_shapes asks `other == self` first: `((1 + s) // 2) == ((-1) + s)`; the
// out-of-place add takes FakeTensor's fast path, whose infer_size asks `self == other`.
TEST(Broadcast, InplaceOpAsksTheRefsEqualityOtherFirst) {
  for (const bool inplace : {true, false}) {
    PropHarness h;
    h.input("x", "float32", {3}, {"s"})
        .call("sl", "aten.slice.Tensor", "[" + N("x") + ", 0, 1, 9223372036854775807]")
        .call("a", "aten.clone.default", "[" + N("sl") + "]")
        .call("b", "aten.slice.Tensor", "[" + N("x") + ", 0, 0, 9223372036854775807, 2]")
        .call("r", inplace ? "aten.add_.Tensor" : kAdd, "[" + N("a") + ", " + N("b") + "]");
    ASSERT_TRUE(h.run()) << h.error();
    const ExprId a = h.shape_exprs("a")[0], b = h.shape_exprs("b")[0];
    const ExprArena& ar = h.env().arena();
    int found = 0;
    for (const Guard& g : h.env().guards()) {
      if (ar.kind(g.expr) != ExprKind::Eq) continue;
      ++found;
      const auto ops = ar.operands(g.expr);
      EXPECT_EQ(ops[0], inplace ? b : a) << inplace;
      EXPECT_EQ(ops[1], inplace ? a : b) << inplace;
    }
    EXPECT_EQ(found, 1) << inplace;
  }
}

}  // namespace
}  // namespace symshape::test
