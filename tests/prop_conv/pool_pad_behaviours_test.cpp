// Pooling, upsampling, padding and pixel_shuffle behaviours (behaviours.md 259-267) and
// the eager 1.13 layouts the golden corpus shows.
#include "one_op_graph.h"

namespace symshape::test {
namespace {

Shape max_pool2d_hw(int64_t s, const std::string& k, const std::string& st, const std::string& p,
                    const std::string& d, bool ceil) {
  OneOpGraph g;
  g.attr("x", {1, 2, s, s});
  g.call("aten.max_pool2d.default", fmt::format(R"([{{"node": "x"}}, {}, {}, {}, {}, {}])", k, st, p, d, ceil));
  EXPECT_TRUE(g.run());
  const Shape r = g.result().shape;
  return {r[2], r[3]};
}

TEST(PoolBehaviours, B259_MaxPoolOutputSizes) {
  EXPECT_EQ(max_pool2d_hw(10, "[3, 3]", "[2, 2]", "[0, 0]", "[1, 1]", false), (Shape{4, 4}));
  EXPECT_EQ(max_pool2d_hw(10, "[3, 3]", "[2, 2]", "[0, 0]", "[1, 1]", true), (Shape{5, 5}));
  EXPECT_EQ(max_pool2d_hw(5, "[2, 2]", "[2, 2]", "[1, 1]", "[1, 1]", true), (Shape{3, 3}));
  EXPECT_EQ(max_pool2d_hw(6, "[3, 3]", "[3, 3]", "[0, 0]", "[1, 1]", true), (Shape{2, 2}));
  EXPECT_EQ(max_pool2d_hw(6, "[3, 3]", "[2, 2]", "[0, 0]", "[1, 1]", true), (Shape{3, 3}));
  EXPECT_EQ(max_pool2d_hw(10, "[3, 3]", "[1, 1]", "[0, 0]", "[2, 2]", false), (Shape{6, 6}));
  // an empty stride means stride = kernel
  EXPECT_EQ(max_pool2d_hw(10, "[3, 3]", "[]", "[0, 0]", "[1, 1]", false), (Shape{3, 3}));
}

TEST(PoolBehaviours, B260_PadTooLargeAndOutputTooSmall) {
  {
    OneOpGraph g;
    g.attr("x", {1, 1, 6, 6});
    g.call("aten.max_pool2d.default", R"([{"node": "x"}, [2, 2], [2, 2], [2, 2], [1, 1], false])");
    std::string msg;
    ASSERT_FALSE(g.run(&msg));
    EXPECT_NE(msg.find("pad should be at most half of kernel size"), std::string::npos) << msg;
  }
  {
    OneOpGraph g;
    g.attr("x", {1, 1, 2, 2});
    g.call("aten.max_pool2d.default", R"([{"node": "x"}, [3, 3], [3, 3], [0, 0], [1, 1], false])");
    std::string msg;
    ASSERT_FALSE(g.run(&msg));
    EXPECT_NE(msg.find("Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small"),
              std::string::npos)
        << msg;
  }
}

TEST(PoolBehaviours, B261_AvgPoolCeilAndMaxPool1d) {
  {
    OneOpGraph g;
    g.attr("x", {1, 2, 10, 10});
    g.call("aten.avg_pool2d.default", R"([{"node": "x"}, [3, 3], [2, 2], [1, 1], true, true, null])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, (Shape{1, 2, 6, 6}));
  }
  {
    OneOpGraph g;
    g.attr("x", {2, 3, 9});
    g.call("aten.max_pool1d.default", R"([{"node": "x"}, [2], [], [0], [1], false])");
    ASSERT_TRUE(g.run());
    const TensorResult r = g.result();
    EXPECT_EQ(r.shape, (Shape{2, 3, 4}));
    EXPECT_EQ(r.stride, (Shape{12, 4, 1}));
  }
}

TEST(PoolBehaviours, B262_AdaptivePools) {
  {
    OneOpGraph g;
    g.attr("x", {1, 2, 5, 7});
    g.call("aten.adaptive_avg_pool2d.default", R"([{"node": "x"}, [3, 7]])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, (Shape{1, 2, 3, 7}));
  }
  {
    OneOpGraph g;
    g.attr("x", {1, 2, 5});
    g.call("aten.adaptive_max_pool1d.default", R"([{"node": "x"}, [4]])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result(0).shape, (Shape{1, 2, 4}));
    const TensorResult idx = g.result(1);
    EXPECT_EQ(idx.shape, (Shape{1, 2, 4}));
    EXPECT_EQ(idx.dtype, DType::Int64);
  }
}

TEST(PoolLayout, AdaptiveAvgToOneKeepsChannelsLast) {
  // convnext: the mean path re-strided to (c, 1, c, c) for a channels_last input
  OneOpGraph g;
  g.attr("x", {2, 768, 3, 4}, {9216, 1, 3072, 768});
  g.call("aten.adaptive_avg_pool2d.default", R"([{"node": "x"}, [1, 1]])");
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.result().stride, (Shape{768, 1, 768, 768}));
}

TEST(PoolLayout, AdaptiveAvgToOneOfAmbiguousInputIsContiguous) {
  // (3, 768, 1, 1) with strides (768, 1, 1, 1) does not look channels_last
  OneOpGraph g;
  g.attr("x", {3, 768, 1, 1}, {768, 1, 1, 1});
  g.call("aten.adaptive_avg_pool2d.default", R"([{"node": "x"}, [1, 1]])");
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.result().stride, (Shape{768, 1, 1, 1}));
}

TEST(UpsampleBehaviours, B263_SizesAndScales) {
  struct Case {
    std::string args;
    Shape hw;
  };
  const Case cases[] = {
      {R"([{"node": "x"}, [10, 3], null])", {10, 3}},
      {R"([{"node": "x"}, null, [1.5, 1.5]])", {7, 10}},
      {R"([{"node": "x"}, null, [0.3, 0.3]])", {1, 2}},
      {R"([{"node": "x"}, null, [2.9, 2.9]])", {14, 20}},
  };
  for (const Case& c : cases) {
    OneOpGraph g;
    g.attr("x", {1, 2, 5, 7});
    g.call("aten.upsample_nearest2d.vec", c.args);
    ASSERT_TRUE(g.run());
    const Shape r = g.result().shape;
    EXPECT_EQ((Shape{r[2], r[3]}), c.hw) << c.args;
  }
  OneOpGraph g;
  g.attr("x", {1, 2, 5, 7});
  g.call("aten.upsample_bilinear2d.vec", R"([{"node": "x"}, null, true, [1.5, 1.5]])");
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.result().shape, (Shape{1, 2, 7, 10}));
}

TEST(UpsampleBehaviours, B264_ExactlyOneOfSizeAndScale) {
  for (const char* args : {R"([{"node": "x"}, [4, 4], [2.0, 2.0]])", R"([{"node": "x"}, null, null])"}) {
    OneOpGraph g;
    g.attr("x", {1, 2, 5, 7});
    g.call("aten.upsample_nearest2d.vec", args);
    std::string msg;
    ASSERT_FALSE(g.run(&msg));
    EXPECT_NE(msg.find("Must specify exactly one of output_size and scale_factors"), std::string::npos) << msg;
  }
}

TEST(UpsampleSymbolic, ScaledSizeEvaluatesLikeEagerForEveryHint) {
  // floor(double(S) * 1.5) as a TruncToInt expression: checked at the hint 17 -> 25
  OneOpGraph g;
  g.input("x", {"1", "8", "h", "w"}, {1, 8, 17, 9});
  g.call("aten.upsample_nearest2d.vec", R"([{"node": "x"}, null, [1.5, 1.5]])");
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.result().shape, (Shape{1, 8, 25, 13}));
}

// Eager 1.13's bicubic2d kernels write a contiguous output; 2.x's follow the input's
// suggested format as bilinear2d always did (2.13 and 2.14: strides (2240, 1, 448, 64) here).
TEST(UpsampleLayout, BilinearKeepsChannelsLastBicubicFrom2x) {
  for (const char* torch : {"1.13.1", "2.14.1"})
    for (const char* op : {"aten.upsample_bilinear2d.vec", "aten.upsample_bicubic2d.vec",
                           "aten.upsample_bicubic2d.default", "aten._upsample_bicubic2d_aa.vec"}) {
      OneOpGraph g;
      g.producer_torch(torch);
      g.attr("x", {1, 64, 4, 4}, {1024, 1, 256, 64});
      const bool vec = std::string(op).ends_with(".vec");
      g.call(op, vec ? R"([{"node": "x"}, [5, 7], false, null])" : R"([{"node": "x"}, [5, 7], false])");
      ASSERT_TRUE(g.run()) << op;
      const bool channels_last = std::string(op).find("bilinear") != std::string::npos || torch[0] == '2';
      EXPECT_EQ(g.result().stride, channels_last ? (Shape{2240, 1, 448, 64}) : (Shape{2240, 35, 7, 1}))
          << op << " " << torch;
    }
}

TEST(PadBehaviours, B265_ConstantPad) {
  struct Case {
    std::string pad;
    Shape out;
  };
  for (const Case& c : {Case{"[1, 2]", {2, 3, 7}}, Case{"[1, 2, 3, 4]", {2, 10, 7}}, Case{"[-1, -2]", {2, 3, 1}}}) {
    OneOpGraph g;
    g.attr("x", {2, 3, 4});
    g.call("aten.pad.default", fmt::format(R"([{{"node": "x"}}, {}, "constant", null])", c.pad));
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, c.out) << c.pad;
  }
  struct Bad {
    std::string pad;
    std::string msg;
  };
  for (const Bad& b : {Bad{"[1, 2, 3]", "Padding length must be divisible by 2"},
                       Bad{"[1, 1, 1, 1, 1, 1, 1, 1]", "Padding length too large"}}) {
    OneOpGraph g;
    g.attr("x", {2, 3, 4});
    g.call("aten.pad.default", fmt::format(R"([{{"node": "x"}}, {}, "constant", null])", b.pad));
    std::string msg;
    ASSERT_FALSE(g.run(&msg));
    EXPECT_NE(msg.find(b.msg), std::string::npos) << msg;
  }
}

TEST(PadBehaviours, B266_ReflectPadMustBeSmallerThanInput) {
  OneOpGraph g;
  g.attr("x", {1, 2, 3});
  g.call("aten.pad.default", R"([{"node": "x"}, [3, 3], "reflect", null])");
  std::string msg;
  ASSERT_FALSE(g.run(&msg));
  EXPECT_NE(msg.find("Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                     "padding (3, 3) at dimension 2 of input [1, 2, 3]"),
            std::string::npos)
      << msg;
}

TEST(PadBehaviours, Reflect2dNamesTheInputRankAsEager113) {
  OneOpGraph g;
  g.attr("x", {1, 4, 4, 2});
  g.call("aten.pad.default", R"([{"node": "x"}, [2, 2, 1, 1], "reflect", null])");
  std::string msg;
  ASSERT_FALSE(g.run(&msg));
  EXPECT_NE(msg.find("padding (2, 2) at dimension 3 of input 4"), std::string::npos) << msg;
}

TEST(PadBehaviours, ReplicateAndCircular) {
  {
    OneOpGraph g;
    g.attr("x", {2, 4, 9, 13});
    g.call("aten.pad.default", R"([{"node": "x"}, [1, 1, 1, 1], "replicate", null])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, (Shape{2, 4, 11, 15}));
  }
  {
    OneOpGraph g;
    g.attr("x", {2, 4, 3});
    g.call("aten.pad.default", R"([{"node": "x"}, [4, 0], "circular", null])");
    std::string msg;
    ASSERT_FALSE(g.run(&msg));
    EXPECT_NE(msg.find("Padding value causes wrapping around more than once."), std::string::npos) << msg;
  }
}

TEST(FoldBehaviours, B267_PixelShuffleAndUnshuffle) {
  {
    OneOpGraph g;
    g.attr("x", {1, 8, 3, 4});
    g.call("aten.pixel_shuffle.default", R"([{"node": "x"}, 2])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, (Shape{1, 2, 6, 8}));
  }
  {
    OneOpGraph g;
    g.attr("x", {1, 6, 3, 4});
    g.call("aten.pixel_shuffle.default", R"([{"node": "x"}, 2])");
    std::string msg;
    ASSERT_FALSE(g.run(&msg));
    EXPECT_NE(msg.find("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                       "upscale_factor, but input.size(-3)=6 is not divisible by 4"),
              std::string::npos)
        << msg;
  }
  {
    OneOpGraph g;
    g.attr("x", {1, 2, 4, 6});
    g.call("aten.pixel_unshuffle.default", R"([{"node": "x"}, 2])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, (Shape{1, 8, 2, 3}));
  }
}

TEST(FoldBehaviours, Im2col) {
  OneOpGraph g;
  g.attr("x", {2, 4, 9, 13});
  g.call("aten.im2col.default", R"([{"node": "x"}, [3, 3], [1, 1], [1, 1], [2, 2]])");
  ASSERT_TRUE(g.run());
  const TensorResult r = g.result();
  EXPECT_EQ(r.shape, (Shape{2, 36, 35}));
  EXPECT_EQ(r.stride, (Shape{1260, 35, 1}));
}

}  // namespace
}  // namespace symshape::test

namespace symshape::test {
namespace {

TEST(GridSample, OutputTakesTheGridsSpatialSize) {
  OneOpGraph g;
  g.attr("x", {2, 3, 8, 9}).attr("grid", {2, 5, 7, 2});
  g.call("aten.grid_sampler.default", R"([{"node": "x"}, {"node": "grid"}, 0, 0, false])");
  ASSERT_TRUE(g.run());
  const TensorResult r = g.result();
  EXPECT_EQ(r.shape, (Shape{2, 3, 5, 7}));
  EXPECT_EQ(r.stride, (Shape{105, 35, 7, 1}));
}

TEST(GridSample, GridLastDimMustMatchSpatialRank) {
  OneOpGraph g;
  g.attr("x", {2, 3, 8, 9}).attr("grid", {2, 5, 7, 3});
  g.call("aten.grid_sampler.default", R"([{"node": "x"}, {"node": "grid"}, 0, 0, false])");
  std::string msg;
  ASSERT_FALSE(g.run(&msg));
  EXPECT_NE(msg.find("expected grid to have size 2 in last dimension"), std::string::npos) << msg;
}

TEST(GridSample, AffineGrid) {
  OneOpGraph g;
  g.attr("theta", {4, 2, 3});
  g.call("aten.affine_grid_generator.default", R"([{"node": "theta"}, [4, 3, 6, 5], false])");
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.result().shape, (Shape{4, 6, 5, 2}));
}

}  // namespace
}  // namespace symshape::test
