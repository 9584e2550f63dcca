// max_unpool2d/3d, fractional_max_pool2d/3d and lp_pool1d/2d/3d. Reference values: eager
// PyTorch 1.13.1 (CPU); lp_pool via torch.nn.functional (lp_pool3d is not in 1.13: its
// values follow from avg_pool3d's contiguous output).
#include "views_test_util.h"

namespace symshape::test {
namespace {

std::string two(const std::string& a, const std::string& b, const std::string& rest) {
  return "[" + N(a) + ", " + N(b) + ", " + rest + "]";
}

TEST(MaxUnpool, TwoDKeepsTheSuggestedLayout) {
  // (2, 3, 4, 5) -> [8, 10]: (2, 3, 8, 10) (240, 80, 10, 1); a channels_last input ->
  // (240, 1, 30, 3); a 3-d input (3, 4, 5) -> (3, 8, 10) (80, 10, 1)
  PropHarness h;
  h.input("x", "float32", {2, 3, 4, 5}).input("i", "int64", {2, 3, 4, 5});
  h.attr("c", "float32", {2, 3, 4, 5}, {60, 1, 15, 3}).input("x3", "float32", {3, 4, 5}).input("i3", "int64", {3, 4, 5});
  h.call("u", "aten.max_unpool2d.default", two("x", "i", "[8, 10]"));
  h.call("uc", "aten.max_unpool2d.default", two("c", "i", "[8, 10]"));
  h.call("u3", "aten.max_unpool2d.default", two("x3", "i3", "[8, 10]"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("u"), (Ints{2, 3, 8, 10}));
  EXPECT_EQ(h.stride("u"), (Ints{240, 80, 10, 1}));
  EXPECT_EQ(h.stride("uc"), (Ints{240, 1, 30, 3}));
  EXPECT_EQ(h.shape("u3"), (Ints{3, 8, 10}));
  EXPECT_EQ(h.stride("u3"), (Ints{80, 10, 1}));
  EXPECT_EQ(h.dtype("u"), DType::Float32);
}

TEST(MaxUnpool, ThreeDIsContiguousAndSymbolic) {
  // (2, 3, 4, 5, 6) -> [8, 10, 12]: (2880, 960, 120, 12, 1), channels_last_3d input too
  PropHarness h;
  h.input("x", "float32", {2, 3, 4, 5, 6}).input("i", "int64", {2, 3, 4, 5, 6});
  h.attr("c", "float32", {2, 3, 4, 5, 6}, {360, 1, 90, 18, 3});
  h.call("u", "aten.max_unpool3d.default", two("x", "i", "[8, 10, 12], [2, 2, 2], [0, 0, 0]"));
  h.call("uc", "aten.max_unpool3d.default", two("c", "i", "[8, 10, 12], [2, 2, 2], [0, 0, 0]"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("u"), (Ints{2, 3, 8, 10, 12}));
  EXPECT_EQ(h.stride("u"), (Ints{2880, 960, 120, 12, 1}));
  EXPECT_EQ(h.stride("uc"), (Ints{2880, 960, 120, 12, 1}));
  // symbolic batch, output size from the input's symbolic height
  PropHarness s;
  s.input("x", "float32", {2, 3, 4, 5}, {"n", "", "h"}).input("i", "int64", {2, 3, 4, 5}, {"n", "", "h"});
  s.call("sz", "aten.sym_size.int", "[" + N("x") + ", 2]");
  s.call("hh", "operator.mul", "[" + N("sz") + ", 2]");
  s.call("u", "aten.max_unpool2d.default", two("x", "i", "[" + N("hh") + ", 10]"));
  ASSERT_TRUE(s.run()) << s.error();
  const Strs sx = s.shape_str("x");
  EXPECT_EQ(s.shape_str("u"), (Strs{sx[0], "3", "2*" + sx[2], "10"}));
  EXPECT_EQ(s.stride_str("u"), (Strs{"60*" + sx[2], "20*" + sx[2], "10", "1"}));
}

TEST(MaxUnpool, Errors) {
  // eager: "Expected shape of indices to be same as that of the input tensor ([2, 3, 4, 5]) but got
  // indices tensor with shape: [2, 3, 3, 5]"; "elements in indices should be type int64 but got:
  // Int"; 3-d: "strides should be greater than zero, but got stride: [0, 2, 2]"
  PropHarness shape;
  shape.input("x", "float32", {2, 3, 4, 5}).input("i", "int64", {2, 3, 3, 5});
  shape.call("u", "aten.max_unpool2d.default", two("x", "i", "[8, 10]"));
  ASSERT_FALSE(shape.run());
  EXPECT_TRUE(has(shape.error(), "Expected shape of indices to be same as that of the input tensor ([2, 3, 4, 5]) "
                                 "but got indices tensor with shape: [2, 3, 3, 5]"))
      << shape.error();
  PropHarness dtype;
  dtype.input("x", "float32", {2, 3, 4, 5}).input("i", "int32", {2, 3, 4, 5});
  dtype.call("u", "aten.max_unpool2d.default", two("x", "i", "[8, 10]"));
  ASSERT_FALSE(dtype.run());
  EXPECT_TRUE(has(dtype.error(), "elements in indices should be type int64 but got: Int")) << dtype.error();
  PropHarness stride;
  stride.input("x", "float32", {2, 3, 4, 5, 6}).input("i", "int64", {2, 3, 4, 5, 6});
  stride.call("u", "aten.max_unpool3d.default", two("x", "i", "[8, 10, 12], [0, 2, 2], [0, 0, 0]"));
  ASSERT_FALSE(stride.run());
  EXPECT_TRUE(has(stride.error(), "strides should be greater than zero, but got stride: [0, 2, 2]")) << stride.error();
}

TEST(FractionalMaxPool, ContiguousValuesAndInt64Indices) {
  // 2-d (2, 3, 10, 12), kernel 3, output [5, 6]: both (2, 3, 5, 6) (90, 30, 6, 1), also for a
  // channels_last input; 3-d (2, 3, 8, 10, 12), kernel 2, output [4, 5, 6]: (360, 120, 30, 6, 1)
  PropHarness h;
  h.input("x", "float32", {2, 3, 10, 12}).input("r", "float32", {2, 3, 2});
  h.attr("c", "float32", {2, 3, 10, 12}, {360, 1, 36, 3});
  h.input("y", "float32", {2, 3, 8, 10, 12}).input("r3", "float32", {2, 3, 3});
  h.call("f", "aten.fractional_max_pool2d.default", "[" + N("x") + ", [3, 3], [5, 6], " + N("r") + "]");
  h.call("fc", "aten.fractional_max_pool2d.default", "[" + N("c") + ", [3, 3], [5, 6], " + N("r") + "]");
  h.call("f3", "aten.fractional_max_pool3d.default", "[" + N("y") + ", [2, 2, 2], [4, 5, 6], " + N("r3") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("f", 0), (Ints{2, 3, 5, 6}));
  EXPECT_EQ(h.stride("f", 0), (Ints{90, 30, 6, 1}));
  EXPECT_EQ(h.dtype("f", 1), DType::Int64);
  EXPECT_EQ(h.stride("f", 1), (Ints{90, 30, 6, 1}));
  EXPECT_EQ(h.stride("fc", 0), (Ints{90, 30, 6, 1}));
  EXPECT_EQ(h.shape("f3", 0), (Ints{2, 3, 4, 5, 6}));
  EXPECT_EQ(h.stride("f3", 1), (Ints{360, 120, 30, 6, 1}));
}

TEST(FractionalMaxPool, SymbolicAndErrors) {
  // symbolic batch and height: output + kernel - 1 <= h (7 <= h) becomes a guard
  PropHarness s;
  s.input("x", "float32", {2, 3, 10, 12}, {"n", "", "h"}).input("r", "float32", {2, 3, 2}, {"n"});
  s.call("f", "aten.fractional_max_pool2d.default", "[" + N("x") + ", [3, 3], [5, 6], " + N("r") + "]");
  ASSERT_TRUE(s.run()) << s.error();
  EXPECT_EQ(s.shape_str("f", 0), (Strs{s.shape_str("x")[0], "3", "5", "6"}));
  EXPECT_EQ(s.stride_str("f", 1), (Strs{"90", "30", "6", "1"}));
  EXPECT_FALSE(s.env().guards().empty());
  // eager: "fractional_max_pool2d(): pool height 3 too large relative to input height 10"
  // and the 3-d kernel's strict test: "fractional_max_pool3d_out(): pool time 2 too large
  // relative to input time 8" for output time 7
  PropHarness e2;
  e2.input("x", "float32", {2, 3, 10, 12}).input("r", "float32", {2, 3, 2});
  e2.call("f", "aten.fractional_max_pool2d.default", "[" + N("x") + ", [3, 3], [9, 6], " + N("r") + "]");
  ASSERT_FALSE(e2.run());
  EXPECT_TRUE(has(e2.error(), "fractional_max_pool2d(): pool height 3 too large relative to input height 10"))
      << e2.error();
  PropHarness e3;
  e3.input("y", "float32", {2, 3, 8, 10, 12}).input("r", "float32", {2, 3, 3});
  e3.call("f", "aten.fractional_max_pool3d.default", "[" + N("y") + ", [2, 2, 2], [7, 5, 6], " + N("r") + "]");
  ASSERT_FALSE(e3.run());
  EXPECT_TRUE(has(e3.error(), "fractional_max_pool3d_out(): pool time 2 too large relative to input time 8"))
      << e3.error();
}

TEST(LpPool, DecompositionLayouts) {
  // F.lp_pool1d((2, 3, 10), 2.0, 3) -> (2, 3, 3) (9, 3, 1); stride 2 -> (2, 3, 4) (12, 4, 1);
  // F.lp_pool2d((2, 3, 10, 12), 2.0, 3) -> (2, 3, 3, 4) (36, 12, 4, 1); channels_last input,
  // kernel (3, 2), stride 2, ceil_mode -> (2, 3, 5, 6) (90, 1, 18, 3); 3-d (3, 10, 12), norm 3,
  // kernel 2 -> (3, 5, 6) (30, 6, 1); int64 input, norm 2 -> float32;
  // lp_pool3d((2, 3, 8, 10, 12), 2.0, 2) -> (2, 3, 4, 5, 6) contiguous
  PropHarness h;
  h.input("a", "float32", {2, 3, 10}).input("b", "float32", {2, 3, 10, 12});
  h.attr("c", "float32", {2, 3, 10, 12}, {360, 1, 36, 3}).input("d", "float32", {3, 10, 12});
  h.input("e", "int64", {2, 3, 10, 12}).input("f", "float32", {2, 3, 8, 10, 12});
  h.call("l1", "aten.lp_pool1d.default", "[" + N("a") + ", 2.0, [3], null, false]");
  h.call("l1s", "aten.lp_pool1d.default", "[" + N("a") + ", 2.0, [3], [2], false]");
  h.call("l2", "aten.lp_pool2d.default", "[" + N("b") + ", 2.0, [3, 3], null, false]");
  h.call("l2c", "aten.lp_pool2d.default", "[" + N("c") + ", 2.0, [3, 2], [2, 2], true]");
  h.call("l2d", "aten.lp_pool2d.default", "[" + N("d") + ", 3, [2, 2], null, false]");
  h.call("l2i", "aten.lp_pool2d.default", "[" + N("e") + ", 2, [2, 2], null, false]");
  h.call("l3", "aten.lp_pool3d.default", "[" + N("f") + ", 2.0, [2, 2, 2], null, false]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("l1"), (Ints{2, 3, 3}));
  EXPECT_EQ(h.stride("l1"), (Ints{9, 3, 1}));
  EXPECT_EQ(h.shape("l1s"), (Ints{2, 3, 4}));
  EXPECT_EQ(h.stride("l1s"), (Ints{12, 4, 1}));
  EXPECT_EQ(h.shape("l2"), (Ints{2, 3, 3, 4}));
  EXPECT_EQ(h.stride("l2"), (Ints{36, 12, 4, 1}));
  EXPECT_EQ(h.shape("l2c"), (Ints{2, 3, 5, 6}));
  EXPECT_EQ(h.stride("l2c"), (Ints{90, 1, 18, 3}));
  EXPECT_EQ(h.shape("l2d"), (Ints{3, 5, 6}));
  EXPECT_EQ(h.stride("l2d"), (Ints{30, 6, 1}));
  EXPECT_EQ(h.dtype("l2i"), DType::Float32);
  EXPECT_EQ(h.stride("l2i"), (Ints{90, 30, 6, 1}));
  EXPECT_EQ(h.shape("l3"), (Ints{2, 3, 4, 5, 6}));
  EXPECT_EQ(h.stride("l3"), (Ints{360, 120, 30, 6, 1}));
}

TEST(LpPool, SymbolicAndErrors) {
  PropHarness s;
  s.input("x", "float32", {2, 3, 10, 12}, {"n", "", "h", "w"});
  s.call("l", "aten.lp_pool2d.default", "[" + N("x") + ", 2.0, [2, 2], null, false]");
  ASSERT_TRUE(s.run()) << s.error();
  const Strs sx = s.shape_str("x");
  const Strs out = s.shape_str("l");
  EXPECT_EQ(out[0], sx[0]);
  EXPECT_EQ(out[2], "(" + sx[2] + "//2)");
  // eager: "Given input size: (3x2x2). Calculated output size: (3x0x0). Output size is too small"
  PropHarness small;
  small.input("x", "float32", {2, 3, 2, 2});
  small.call("l", "aten.lp_pool2d.default", "[" + N("x") + ", 2.0, [3, 3], null, false]");
  ASSERT_FALSE(small.run());
  EXPECT_TRUE(has(small.error(), "Given input size: (3x2x2). Calculated output size: (3x0x0). Output size is too small"))
      << small.error();
}


TEST(LpPool, OtherLayouts) {
  // eager 1.13: F.lp_pool1d of a (2, 10, 3).transpose(1, 2) input (strides (30, 1, 3)), kernel 3
  // -> (2, 3, 3) (9, 1, 3) (the 2-d kernel on the unsqueezed input keeps channels_last);
  // F.lp_pool2d((2, 3, 1, 12), 2.0, (1, 3)) -> (2, 3, 1, 4) (12, 4, 4, 1);
  // max_unpool2d of (2, 3, 1, 1) to [2, 2] -> (12, 4, 2, 1)
  PropHarness h;
  h.attr("t", "float32", {2, 3, 10}, {30, 1, 3}).input("x", "float32", {2, 3, 1, 12});
  h.input("s", "float32", {2, 3, 1, 1}).input("i", "int64", {2, 3, 1, 1});
  h.call("l1", "aten.lp_pool1d.default", "[" + N("t") + ", 2.0, [3], null, false]");
  h.call("l2", "aten.lp_pool2d.default", "[" + N("x") + ", 2.0, [1, 3], null, false]");
  h.call("u", "aten.max_unpool2d.default", two("s", "i", "[2, 2]"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("l1"), (Ints{2, 3, 3}));
  EXPECT_EQ(h.stride("l1"), (Ints{9, 1, 3}));
  EXPECT_EQ(h.shape("l2"), (Ints{2, 3, 1, 4}));
  EXPECT_EQ(h.stride("l2"), (Ints{12, 4, 4, 1}));
  EXPECT_EQ(h.stride("u"), (Ints{12, 4, 2, 1}));
}

}  // namespace
}  // namespace symshape::test
