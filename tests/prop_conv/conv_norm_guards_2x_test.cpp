// PyTorch 2.x guards of convolution and batch_norm (docs/torchref.md, "Propagation and
// guards: PyTorch 2.x rules"): ATen's conv backend selection (use_mkldnn) as the fake conv
// runs it, and the fake binary fast path of batch_norm's decomposition. Expected lists were
// measured with PyTorch 2.13 (FakeTensorMode + ShapeEnv on the same single ops).
#include "one_op_graph.h"

namespace symshape::test {
namespace {

std::string conv_args(const std::string& stride, const std::string& pad, const std::string& dil, int groups) {
  return fmt::format(R"([{{"node": "x"}}, {{"node": "w"}}, null, {}, {}, {}, {}])", stride, pad, dil, groups);
}

std::vector<std::string> conv_guards(std::vector<std::string> dims, std::vector<int64_t> x, std::vector<int64_t> w,
                                     const std::string& op, const std::string& args, const std::string& dtype = "float32") {
  OneOpGraph g;
  g.input("x", std::move(dims), std::move(x), dtype).attr("w", std::move(w), {}, dtype);
  g.call(op, args);
  EXPECT_TRUE(g.run());
  return g.guard_strs();
}

using Strs = std::vector<std::string>;

TEST(ConvGuards2x, Batch1SmallKernelAsksPerSampleNumel) {
  // 3x3 unstrided, batch 1: `h >= 3`, `w >= 3` (check_shape_forward), then C*H*W > 20480 false
  EXPECT_EQ(conv_guards({"1", "3", "h", "w"}, {1, 3, 20, 24}, {8, 3, 3, 3}, "aten.conv2d.default",
                        conv_args("[1, 1]", "[0, 0]", "[1, 1]", 1)),
            (Strs{"h >= 3", "w >= 3", "3*h*w <= 20480"}));
  // 1x1 (the single-thread term is decided by the reference host's thread count)
  EXPECT_EQ(conv_guards({"1", "16", "h", "w"}, {1, 16, 20, 24}, {8, 16, 1, 1}, "aten.conv2d.default",
                        conv_args("[2, 2]", "[0, 0]", "[1, 1]", 1)),
            (Strs{"16*h*w <= 20480"}));
}

TEST(ConvGuards2x, LargeKernelOrGroupsAskNothing) {
  EXPECT_EQ(conv_guards({"1", "3", "h", "w"}, {1, 3, 64, 64}, {8, 3, 7, 7}, "aten.conv2d.default",
                        conv_args("[2, 2]", "[3, 3]", "[1, 1]", 1)),
            Strs{});
  EXPECT_EQ(conv_guards({"1", "8", "h", "w"}, {1, 8, 20, 24}, {8, 1, 3, 3}, "aten.conv2d.default",
                        conv_args("[1, 1]", "[1, 1]", "[1, 1]", 8)),
            Strs{});
}

TEST(ConvGuards2x, SymbolicBatchUnstridedAsksBatchBelow16) {
  EXPECT_EQ(conv_guards({"n", "3", "20", "24"}, {2, 3, 20, 24}, {8, 3, 3, 3}, "aten.conv2d.default",
                        conv_args("[1, 1]", "[1, 1]", "[1, 1]", 1)),
            (Strs{"n < 16"}));
  // strided or dilated: the first term is true before the batch is asked
  EXPECT_EQ(conv_guards({"n", "3", "20", "24"}, {2, 3, 20, 24}, {8, 3, 3, 3}, "aten.conv2d.default",
                        conv_args("[2, 2]", "[1, 1]", "[1, 1]", 1)),
            Strs{});
  EXPECT_EQ(conv_guards({"n", "3", "20", "24"}, {2, 3, 20, 24}, {8, 3, 3, 3}, "aten.conv2d.default",
                        conv_args("[1, 1]", "[2, 2]", "[2, 2]", 1)),
            Strs{});
  // 1-d: seen as (N, C, 1, L)
  EXPECT_EQ(conv_guards({"n", "4", "30"}, {2, 4, 30}, {8, 4, 3}, "aten.conv1d.default",
                        conv_args("[1]", "[0]", "[1]", 1)),
            (Strs{"n < 16"}));
}

TEST(ConvGuards2x, OneDAndThreeDNumelUsesTheFirstFourSizesOfThe4dView) {
  EXPECT_EQ(conv_guards({"1", "4", "l"}, {1, 4, 30}, {8, 4, 1}, "aten.conv1d.default", conv_args("[1]", "[0]", "[1]", 1)),
            (Strs{"4*l <= 20480"}));
  EXPECT_EQ(conv_guards({"1", "2", "d", "h", "6"}, {1, 2, 6, 8, 6}, {4, 2, 1, 1, 1}, "aten.conv3d.default",
                        conv_args("[1, 1, 1]", "[0, 0, 0]", "[1, 1, 1]", 1)),
            (Strs{"2*d*h <= 20480"}));
}

TEST(ConvGuards2x, TransposedAndOtherDtypes) {
  OneOpGraph g;
  g.input("x", {"1", "8", "h", "w"}, {1, 8, 20, 24}).attr("w", {8, 4, 3, 3});
  g.call("aten.conv_transpose2d.input",
         R"([{"node": "x"}, {"node": "w"}, null, [2, 2], [1, 1], [0, 0], 1, [1, 1]])");
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.guard_strs(), (Strs{"8*h*w <= 20480"}));
  // float64: use_mkldnn fails its dtype test before any size
  EXPECT_EQ(conv_guards({"n", "3", "h", "w"}, {2, 3, 20, 24}, {8, 3, 1, 1}, "aten.conv2d.default",
                        conv_args("[1, 1]", "[0, 0]", "[1, 1]", 1), "float64"),
            Strs{});
}

// batch_norm after a stride-2 conv: the conv output's spatial sizes may be 1
void conv_then(OneOpGraph& g, const std::string& target, const std::string& args, std::vector<std::string> dims,
               std::vector<int64_t> x) {
  g.input("x", std::move(dims), std::move(x)).attr("w", {8, 3, 7, 7}).attr("v", {8});
  g.call("aten.conv2d.default", conv_args("[2, 2]", "[3, 3]", "[1, 1]", 1), "{}", "c");
  g.call(target, args);
}

TEST(BatchNormGuards2x, FastBinaryPathAsksSpatialSizesThenChannelsLast) {
  for (const char* training : {"false", "true"}) {
    OneOpGraph g;
    conv_then(
        g, "aten.batch_norm.default",
        fmt::format(R"([{{"node": "c"}}, {{"node": "v"}}, {{"node": "v"}}, {{"node": "v"}}, {{"node": "v"}}, {}, 0.1, 1e-05, true])",
                    training),
        {"1", "3", "h", "w"}, {1, 3, 64, 64});
    ASSERT_TRUE(g.run());
    // PyTorch 2.13 prints the same three (s53 = h, s0 = w)
    EXPECT_EQ(g.guard_strs(), (Strs{"Ne((((w - 1)//2)) + 1, 1)", "Ne((((h - 1)//2)) + 1, 1)",
                                    "Ne((((h - 1)//2))*(((w - 1)//2)) + (((h - 1)//2)) + (((w - 1)//2)) + 1, 1)"}))
        << training;
  }
  // the native variants share the decomposition
  OneOpGraph g;
  conv_then(
      g, "aten._native_batch_norm_legit_no_training.default",
      R"([{"node": "c"}, {"node": "v"}, {"node": "v"}, {"node": "v"}, {"node": "v"}, 0.1, 1e-05])", {"n", "3", "h", "w"},
      {2, 3, 64, 64});
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.guard_strs().size(), 3u);
}

}  // namespace
}  // namespace symshape::test
