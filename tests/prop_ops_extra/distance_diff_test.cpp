// pairwise_distance, cdist / _cdist_forward, cross / linalg_cross and diff. Every
// concrete reference value below is what eager PyTorch 1.13.1 (CPU) returned.
#include "views_test_util.h"

namespace symshape::test {
namespace {

std::string two(const std::string& a, const std::string& b, const std::string& rest) {
  return "[" + N(a) + ", " + N(b) + (rest.empty() ? "" : ", " + rest) + "]";
}

TEST(PairwiseDistance, ReducesTheLastBroadcastDim) {
  // (3, 5) vs (3, 5) -> (3,) stride (1,); keepdim -> (3, 1) stride (1, 1)
  PropHarness h;
  h.input("a", "float32", {3, 5}).input("b", "float32", {3, 5});
  h.call("d", "aten.pairwise_distance.default", two("a", "b", "2.0, 1e-06, false"));
  h.call("k", "aten.pairwise_distance.default", two("a", "b", "2.0, 1e-06, true"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("d"), (Ints{3}));
  EXPECT_EQ(h.stride("d"), (Ints{1}));
  EXPECT_EQ(h.shape("k"), (Ints{3, 1}));
  EXPECT_EQ(h.stride("k"), (Ints{1, 1}));
  // (2, 1, 5) vs (3, 5) -> (2, 3) stride (3, 1); int64 operands -> float32 (the float eps)
  PropHarness b;
  b.input("a", "float32", {2, 1, 5}).input("b", "float32", {3, 5}).input("i", "int64", {3, 5}).input("j", "int64", {5});
  b.call("d", "aten.pairwise_distance.default", two("a", "b", "2.0, 1e-06, false"));
  b.call("n", "aten.pairwise_distance.default", two("i", "j", "2.0, 1e-06, true"));
  ASSERT_TRUE(b.run()) << b.error();
  EXPECT_EQ(b.shape("d"), (Ints{2, 3}));
  EXPECT_EQ(b.stride("d"), (Ints{3, 1}));
  EXPECT_EQ(b.shape("n"), (Ints{3, 1}));
  EXPECT_EQ(b.dtype("n"), DType::Float32);
}

TEST(PairwiseDistance, SymbolicAndErrors) {
  PropHarness h;
  h.input("a", "float32", {6, 5}, {"n"}).input("b", "float32", {6, 5}, {"n"});
  h.call("d", "aten.pairwise_distance.default", two("a", "b", "2.0, 1e-06, false"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("d"), (Strs{h.shape_str("a")[0]}));
  EXPECT_EQ(h.stride_str("d"), (Strs{"1"}));
  PropHarness bad;
  bad.input("a", "float32", {3, 5}).input("b", "float32", {4, 5});
  bad.call("d", "aten.pairwise_distance.default", two("a", "b", "2.0, 1e-06, false"));
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(), "must match the size of tensor b")) << bad.error();
}

TEST(Cdist, BroadcastBatchAndContiguousResult) {
  // (2, 4, 3) x (1, 6, 3) -> (2, 4, 6) stride (24, 6, 1); 30 rows (the mm-based euclidean
  // path) -> (2, 30, 6) stride (180, 6, 1); transposed operands (4, 3) x (6, 3) -> (4, 6)
  // stride (6, 1); _cdist_forward (2, 4, 3) x (5, 3) -> (2, 4, 5) stride (20, 5, 1)
  PropHarness h;
  h.input("a", "float32", {2, 4, 3}).input("b", "float32", {1, 6, 3}).input("c", "float32", {2, 30, 3});
  h.attr("at", "float32", {4, 3}, {1, 4}).attr("bt", "float32", {6, 3}, {1, 6}).input("e", "float32", {5, 3});
  h.call("d", "aten.cdist.default", two("a", "b", "2.0, null"));
  h.call("l", "aten.cdist.default", two("c", "b", "2.0, null"));
  h.call("t", "aten.cdist.default", two("at", "bt", "2.0, null"));
  h.call("f", "aten._cdist_forward.default", two("a", "e", "1.0, null"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("d"), (Ints{2, 4, 6}));
  EXPECT_EQ(h.stride("d"), (Ints{24, 6, 1}));
  EXPECT_EQ(h.shape("l"), (Ints{2, 30, 6}));
  EXPECT_EQ(h.stride("l"), (Ints{180, 6, 1}));
  EXPECT_EQ(h.shape("t"), (Ints{4, 6}));
  EXPECT_EQ(h.stride("t"), (Ints{6, 1}));
  EXPECT_EQ(h.shape("f"), (Ints{2, 4, 5}));
  EXPECT_EQ(h.stride("f"), (Ints{20, 5, 1}));
  EXPECT_EQ(h.dtype("f"), DType::Float32);
}

TEST(Cdist, SymbolicAndErrors) {
  PropHarness h;
  h.input("a", "float64", {2, 7, 3}, {"b", "r"}).input("m", "float64", {9, 3}, {"m"});
  h.call("d", "aten.cdist.default", two("a", "m", "2.0, null"));
  ASSERT_TRUE(h.run()) << h.error();
  const Strs sa = h.shape_str("a");
  const std::string m = h.shape_str("m")[0];
  EXPECT_EQ(h.shape_str("d"), (Strs{sa[0], sa[1], m}));
  EXPECT_EQ(h.stride_str("d")[1], m);
  EXPECT_EQ(h.stride("d"), (Ints{63, 9, 1}));
  EXPECT_EQ(h.dtype("d"), DType::Float64);
  // eager: "X1 and X2 must have the same number of columns. X1: 3 X2: 2"
  PropHarness cols;
  cols.input("a", "float32", {2, 4, 3}).input("b", "float32", {5, 2});
  cols.call("d", "aten.cdist.default", two("a", "b", "2.0, null"));
  ASSERT_FALSE(cols.run());
  EXPECT_TRUE(has(cols.error(), "X1 and X2 must have the same number of columns. X1: 3 X2: 2")) << cols.error();
}

TEST(Cross, DefaultDimAndLayout) {
  // cross((4, 3, 5), (1, 3, 5), None) picks dim 1 -> (4, 3, 5) stride (15, 5, 1);
  // a transposed (3, 5) operand still gives a contiguous (3, 5) (5, 1);
  // linalg_cross((4, 5, 3), (4, 5, 3)) -> (4, 5, 3) (15, 3, 1)
  PropHarness h;
  h.input("a", "float32", {4, 3, 5}).input("b", "float32", {1, 3, 5});
  h.attr("t", "float32", {3, 5}, {1, 3}).input("u", "float32", {3, 5});
  h.input("x", "float32", {4, 5, 3}).input("y", "float32", {4, 5, 3});
  h.call("c", "aten.cross.default", two("a", "b", "null"));
  h.call("ct", "aten.cross.default", two("t", "u", "null"));
  h.call("l", "aten.linalg_cross.default", two("x", "y", ""));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("c"), (Ints{4, 3, 5}));
  EXPECT_EQ(h.stride("c"), (Ints{15, 5, 1}));
  EXPECT_EQ(h.stride("ct"), (Ints{5, 1}));
  EXPECT_EQ(h.shape("l"), (Ints{4, 5, 3}));
  EXPECT_EQ(h.stride("l"), (Ints{15, 3, 1}));
}

TEST(Cross, SymbolicAndErrors) {
  PropHarness h;
  h.input("x", "float32", {4, 3}, {"n"}).input("y", "float32", {4, 3}, {"n"});
  h.call("l", "aten.linalg_cross.default", two("x", "y", ""), R"({"dim": 1})");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("l"), (Strs{h.shape_str("x")[0], "3"}));
  // eager: "linalg.cross: inputs dimension -1 must have length 3. Got 5 and 5" and
  // "no dimension of size 3 in input"
  PropHarness len;
  len.input("x", "float32", {4, 5}).input("y", "float32", {4, 5});
  len.call("l", "aten.linalg_cross.default", two("x", "y", ""));
  ASSERT_FALSE(len.run());
  EXPECT_TRUE(has(len.error(), "linalg.cross: inputs dimension -1 must have length 3. Got 5 and 5")) << len.error();
  PropHarness none;
  none.input("x", "float32", {4, 5}).input("y", "float32", {4, 5});
  none.call("l", "aten.cross.default", two("x", "y", "null"));
  ASSERT_FALSE(none.run());
  EXPECT_TRUE(has(none.error(), "no dimension of size 3 in input")) << none.error();
}

TEST(Diff, StepsFollowTensorIteratorLayouts) {
  // eager 1.13 on (4, 10): n=1 dim=-1 -> (4, 9) (9, 1); n=2 dim=0 -> (2, 10) (10, 1);
  // a transposed (4, 10) (strides (1, 4)) -> (4, 9) (1, 4); n=0 of it -> zeros_like:
  // (4, 10) (1, 4); prepend (4, 2) + append (4, 3) on dim 1 -> (4, 14) (14, 1);
  // (4, 3) with n=5 on dim 1 -> (4, 0) (1, 1); bool -> (4, 2) (2, 1) bool
  PropHarness h;
  h.input("x", "float32", {4, 10}).attr("t", "float32", {4, 10}, {1, 4});
  h.input("p", "float32", {4, 2}).input("q", "float32", {4, 3}).input("s", "float32", {4, 3});
  h.input("b", "bool", {4, 3});
  h.call("d1", "aten.diff.default", "[" + N("x") + ", 1, -1, null, null]");
  h.call("d2", "aten.diff.default", "[" + N("x") + ", 2, 0, null, null]");
  h.call("dt", "aten.diff.default", "[" + N("t") + ", 1, -1, null, null]");
  h.call("d0", "aten.diff.default", "[" + N("t") + ", 0, -1, null, null]");
  h.call("pa", "aten.diff.default", "[" + N("x") + ", 1, 1, " + N("p") + ", " + N("q") + "]");
  h.call("big", "aten.diff.default", "[" + N("s") + ", 5, 1, null, null]");
  h.call("db", "aten.diff.default", "[" + N("b") + ", 1, 1, null, null]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("d1"), (Ints{4, 9}));
  EXPECT_EQ(h.stride("d1"), (Ints{9, 1}));
  EXPECT_EQ(h.shape("d2"), (Ints{2, 10}));
  EXPECT_EQ(h.stride("d2"), (Ints{10, 1}));
  EXPECT_EQ(h.shape("dt"), (Ints{4, 9}));
  EXPECT_EQ(h.stride("dt"), (Ints{1, 4}));
  EXPECT_EQ(h.shape("d0"), (Ints{4, 10}));
  EXPECT_EQ(h.stride("d0"), (Ints{1, 4}));
  EXPECT_EQ(h.shape("pa"), (Ints{4, 14}));
  EXPECT_EQ(h.stride("pa"), (Ints{14, 1}));
  EXPECT_EQ(h.shape("big"), (Ints{4, 0}));
  EXPECT_EQ(h.stride("big"), (Ints{1, 1}));
  EXPECT_EQ(h.shape("db"), (Ints{4, 2}));
  EXPECT_EQ(h.stride("db"), (Ints{2, 1}));
  EXPECT_EQ(h.dtype("db"), DType::Bool);
}

TEST(Diff, SymbolicAndErrors) {
  PropHarness h;
  h.input("x", "float32", {4, 10}, {"", "n"});
  h.call("d", "aten.diff.default", "[" + N("x") + ", 1, -1, null, null]");
  ASSERT_TRUE(h.run()) << h.error();
  const std::string n = h.shape_str("x")[1];
  EXPECT_EQ(h.shape_str("d"), (Strs{"4", n + " - 1"}));
  EXPECT_EQ(h.stride_str("d"), (Strs{n + " - 1", "1"}));
  // eager: "diff expects input to be at least one-dimensional"
  PropHarness zero;
  zero.input("x", "float32", {});
  zero.call("d", "aten.diff.default", "[" + N("x") + ", 1, -1, null, null]");
  ASSERT_FALSE(zero.run());
  EXPECT_TRUE(has(zero.error(), "diff expects input to be at least one-dimensional")) << zero.error();
}


TEST(DistanceDiff, OtherLayouts) {
  // eager 1.13: pairwise_distance of a transposed (3, 5) and (3, 5), keepdim -> (3, 1) (1, 1);
  // of two (5,) keepdim -> (1,) (1,); cdist of an expanded (2, 4, 3) (stride 0) -> (2, 4, 5)
  // (20, 5, 1); cdist with 0 rows -> (2, 0, 5) (5, 5, 1); cross of channels_last (2, 3, 4, 5) on
  // dim 1 -> contiguous (60, 20, 5, 1); diff of channels_last (2, 3, 4, 5): dim -1 -> (2, 3, 4, 4)
  // (48, 1, 12, 3), dim 1 -> (2, 2, 4, 5) (40, 1, 10, 2), n=0 -> (60, 1, 15, 3)
  PropHarness h;
  h.attr("at", "float32", {3, 5}, {1, 3}).input("b", "float32", {3, 5}).input("u", "float32", {5}).input("v", "float32", {5});
  h.attr("ex", "float32", {2, 4, 3}, {0, 3, 1}).input("m", "float32", {5, 3}).input("z", "float32", {2, 0, 3});
  h.attr("cl", "float32", {2, 3, 4, 5}, {60, 1, 15, 3});
  h.call("pt", "aten.pairwise_distance.default", two("at", "b", "2.0, 1e-06, true"));
  h.call("p1", "aten.pairwise_distance.default", two("u", "v", "2.0, 1e-06, true"));
  h.call("ce", "aten.cdist.default", two("ex", "m", "2.0, null"));
  h.call("c0", "aten.cdist.default", two("z", "m", "2.0, null"));
  h.call("xc", "aten.cross.default", two("cl", "cl", "1"));
  h.call("dl", "aten.diff.default", "[" + N("cl") + ", 1, -1, null, null]");
  h.call("d1", "aten.diff.default", "[" + N("cl") + ", 1, 1, null, null]");
  h.call("d0", "aten.diff.default", "[" + N("cl") + ", 0, 1, null, null]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("pt"), (Ints{1, 1}));
  EXPECT_EQ(h.shape("p1"), (Ints{1}));
  EXPECT_EQ(h.stride("ce"), (Ints{20, 5, 1}));
  EXPECT_EQ(h.shape("c0"), (Ints{2, 0, 5}));
  EXPECT_EQ(h.stride("c0"), (Ints{5, 5, 1}));
  EXPECT_EQ(h.stride("xc"), (Ints{60, 20, 5, 1}));
  EXPECT_EQ(h.shape("dl"), (Ints{2, 3, 4, 4}));
  EXPECT_EQ(h.stride("dl"), (Ints{48, 1, 12, 3}));
  EXPECT_EQ(h.shape("d1"), (Ints{2, 2, 4, 5}));
  EXPECT_EQ(h.stride("d1"), (Ints{40, 1, 10, 2}));
  EXPECT_EQ(h.stride("d0"), (Ints{60, 1, 15, 3}));
}

}  // namespace
}  // namespace symshape::test
