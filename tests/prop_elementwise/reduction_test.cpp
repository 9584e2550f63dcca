// Behaviours 224-227 (reduction dtypes, dims, identity-less reductions), 269-274
// (normalisation, softmax, sort family, scans).
#include "prop_harness.h"

namespace symshape::test {
namespace {

TEST(Reduction, B224_SumAccumulatesIntegersInInt64) {
  for (const char* dt : {"int8", "bool"}) {
    PropHarness h;
    h.input("x", dt, {2, 3}).call("r", "aten.sum.default", "[" + N("x") + "]");
    ASSERT_TRUE(h.run()) << h.error();
    EXPECT_EQ(h.dtype("r"), DType::Int64) << dt;
    EXPECT_EQ(h.shape("r"), (Ints{}));
  }
}

TEST(Reduction, B224_MeanOfIntegersIsAnError) {
  PropHarness h;
  h.input("x", "int64", {2, 3}).call("r", "aten.mean.default", "[" + N("x") + "]");
  ASSERT_FALSE(h.run());
  EXPECT_NE(h.error().find("mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
                           "dtype. Got: Long"),
            std::string::npos)
      << h.error();
}

Ints sum_shape(const std::string& dims, bool keepdim, std::string* error = nullptr) {
  PropHarness h;
  h.input("x", "float32", {2, 3, 4}).call("r", "aten.sum.dim_IntList",
                                          "[" + N("x") + ", " + dims + ", " + (keepdim ? "true" : "false") + "]");
  if (!h.run()) {
    if (error) *error = h.error();
    return {-1};
  }
  EXPECT_EQ(h.stride("r").size(), h.shape("r").size());
  return h.shape("r");
}

TEST(Reduction, B225_DimsAndKeepdim) {
  EXPECT_EQ(sum_shape("[0, 2]", false), (Ints{3}));
  EXPECT_EQ(sum_shape("[0, 2]", true), (Ints{1, 3, 1}));
  EXPECT_EQ(sum_shape("[]", false), (Ints{}));
  EXPECT_EQ(sum_shape("null", false), (Ints{}));
  std::string err;
  EXPECT_EQ(sum_shape("[0, 0]", false, &err), (Ints{-1}));
  EXPECT_NE(err.find("dim 0 appears multiple times in the list of dims"), std::string::npos) << err;
  PropHarness h;
  h.input("x", "float32", {2, 3, 4}).call("r", "aten.sum.default", "[" + N("x") + "]");
  ASSERT_TRUE(h.run());
  EXPECT_EQ(h.shape("r"), (Ints{}));
}

TEST(Reduction, KeepdimResultIsContiguous) {
  PropHarness h;
  h.attr("w", "float32", {2, 3, 4, 5}, {60, 1, 15, 3}).call("r", "aten.mean.dim", "[" + N("w") + ", [-1, -2], true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("r"), (Ints{2, 3, 1, 1}));
  EXPECT_EQ(h.stride("r"), (Ints{3, 1, 1, 1}));
}

TEST(Reduction, B226_AmaxOverEmptyDim) {
  PropHarness bad;
  bad.input("x", "float32", {0, 3}).call("r", "aten.amax.default", "[" + N("x") + ", [0], false]");
  ASSERT_FALSE(bad.run());
  EXPECT_NE(bad.error().find("amax(): Expected reduction dim 0 to have non-zero size."), std::string::npos) << bad.error();
  PropHarness ok;
  ok.input("x", "float32", {0, 3}).call("r", "aten.amax.default", "[" + N("x") + ", [1], false]");
  ASSERT_TRUE(ok.run()) << ok.error();
  EXPECT_EQ(ok.shape("r"), (Ints{0}));
}

TEST(Reduction, B227_MaxDimAndArgmax) {
  PropHarness h;
  h.input("x", "float32", {2, 3});
  h.call("m", "aten.max.dim", "[" + N("x") + ", 1, false]");
  h.call("a", "aten.argmax.default", "[" + N("x") + ", null, false]");
  h.call("k", "aten.argmax.default", "[" + N("x") + ", 1, true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("m", 0), (Ints{2}));
  EXPECT_EQ(h.shape("m", 1), (Ints{2}));
  EXPECT_EQ(h.dtype("m", 1), DType::Int64);
  EXPECT_EQ(h.shape("a"), (Ints{}));
  EXPECT_EQ(h.shape("k"), (Ints{2, 1}));
  EXPECT_EQ(h.dtype("k"), DType::Int64);
}

TEST(Reduction, SymbolicReductionKeepsSymbols) {
  PropHarness h;
  h.input("x", "float32", {4, 6, 5}, {"b", "", "t"}).call("r", "aten.var.dim", "[" + N("x") + ", [1], true, true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("r")[0], h.shape_str("x")[0]);
  EXPECT_EQ(h.shape_str("r")[1], "1");
  EXPECT_EQ(h.shape_str("r")[2], h.shape_str("x")[2]);
  EXPECT_TRUE(h.env().guards().empty());
}

TEST(Reduction, CorrectionOverloadReadsKeywordKeepdim) {
  PropHarness h;
  h.input("x", "float32", {2, 3, 4});
  h.call("v", "aten.var.correction", "[" + N("x") + ", [1]]", R"({"correction": 0, "keepdim": true})");
  h.call("m", "aten.var_mean.correction", "[" + N("x") + ", null]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("v"), (Ints{2, 1, 4}));
  EXPECT_EQ(h.shape("m", 0), (Ints{}));
  EXPECT_EQ(h.shape("m", 1), (Ints{}));
}

TEST(Reduction, IntegerMeanNeedsAFloatDtype) {
  PropHarness h;
  h.input("x", "int32", {2, 3}).call("m", "aten.mean.dim", "[" + N("x") + ", [1], false]", R"({"dtype": {"dtype": "float64"}})");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.dtype("m"), DType::Float64);
}

// ---- normalisation (H.20) ----

TEST(Norm, B269_NativeLayerNorm) {
  PropHarness h;
  h.input("x", "float32", {2, 3, 4});
  h.call("a", "aten.native_layer_norm.default", "[" + N("x") + ", [4], null, null, 1e-05]");
  h.call("b", "aten.native_layer_norm.default", "[" + N("x") + ", [3, 4], null, null, 1e-05]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("a", 0), (Ints{2, 3, 4}));
  EXPECT_EQ(h.shape("a", 1), (Ints{2, 3, 1}));
  EXPECT_EQ(h.shape("a", 2), (Ints{2, 3, 1}));
  EXPECT_EQ(h.shape("b", 1), (Ints{2, 1, 1}));
  EXPECT_EQ(h.shape("b", 2), (Ints{2, 1, 1}));

  PropHarness bad;
  bad.input("x", "float32", {2, 3, 4}).call("r", "aten.layer_norm.default", "[" + N("x") + ", [3], null, null, 1e-05, true]");
  ASSERT_FALSE(bad.run());
  EXPECT_NE(bad.error().find("Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[2, 3, 4]"),
            std::string::npos)
      << bad.error();
}

TEST(Norm, LayerNormOfPermutedInputIsContiguous) {
  PropHarness h;
  h.attr("w", "float32", {1, 16, 16, 96}, {24576, 16, 1, 256})
      .call("r", "aten.layer_norm.default", "[" + N("w") + ", [96], null, null, 1e-06, true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("r"), (Ints{24576, 1536, 96, 1}));
}

// torch._refs.native_layer_norm's `* rstd` (and `* weight`) take fake_impls' binary fast
// path, which takes the literal 1 of `rstd = rsqrt(var + eps)` where the input's size is
// guarded equal to 1: mobilevit's (N, ceil(W'/2), C) patches at 64x64 come out (N, 1, C).
TEST(Norm, LayerNormTakesTheLiteralOneOfASizeGuardedOne) {
  for (int64_t w : {40, 80}) {  // (W // 32) is 1, then 2
    PropHarness h;
    h.input("x", "float32", {w}, {"W"});
    h.call("n", "aten.sym_size.int", "[" + N("x") + ", 0]");
    h.call("q", "operator.floordiv", "[" + N("n") + ", 32]");
    h.call("e", "aten.empty.memory_format", "[[2, " + N("q") + ", 96]]");
    h.call("r", "aten.layer_norm.default", "[" + N("e") + ", [96], null, null, 1e-05, true]");
    ASSERT_TRUE(h.run()) << h.error();
    if (w == 40) {
      EXPECT_EQ(h.shape_str("r"), (Strs{"2", "1", "96"}));
      EXPECT_EQ(h.stride_str("r"), (Strs{"96", "96", "1"}));
    } else {
      EXPECT_EQ(h.shape_str("r"), h.shape_str("e"));
      EXPECT_EQ(h.stride("r"), (Ints{192, 96, 1}));
    }
  }
}

// A size that can be 0 asks `size == 0` through prims.var's empty_strided (and the
// statistics' `numel < 2` through the layouts that follow): guards, in PyTorch's order.
TEST(Norm, LayerNormAsksTheStatisticsAllocationsQuestions) {
  PropHarness h;
  h.input("x", "float32", {40}, {"W"});
  h.call("n", "aten.sym_size.int", "[" + N("x") + ", 0]");
  h.call("q", "operator.floordiv", "[" + N("n") + ", 32]");
  h.call("e", "aten.empty.memory_format", "[[" + N("q") + ", 7, 96]]");
  h.call("r", "aten.layer_norm.default", "[" + N("e") + ", [96], null, null, 1e-05, true]");
  ASSERT_TRUE(h.run()) << h.error();
  std::vector<std::string> guards;
  for (const auto& g : h.env().guards()) guards.push_back(to_str(h.env().arena(), g.expr));
  const auto at = [&](const std::string& text) {
    return std::find(guards.begin(), guards.end(), text) - guards.begin();
  };
  ASSERT_LT(at("Ne((W//32), 0)"), static_cast<long>(guards.size())) << ::testing::PrintToString(guards);
}

// PyTorch 2.x's cumsum is torch._refs' masked sum: where(mask, x.unsqueeze(dim + 1), 0) over
// (1, L, L, W) with mask (L, L, 1) expanded (strides L*Max(1, L), Max(1, L), 1, 0), whose
// layout sort compares the mask's strides; the bool -> float32 conversion then asks
// is_non_overlapping_and_dense of the masked tensor. Over edgenext's `H // 8` these are guards.
TEST(Scan, CumsumAsksTheMaskedReductionsQuestions) {
  PropHarness h;
  h.input("x", "float32", {67, 73}, {"H", "W"});
  h.call("h", "aten.sym_size.int", "[" + N("x") + ", 0]").call("w", "aten.sym_size.int", "[" + N("x") + ", 1]");
  h.call("a", "operator.floordiv", "[" + N("h") + ", 8]").call("b", "operator.floordiv", "[" + N("w") + ", 8]");
  h.call("z", "aten.zeros.default", "[[1, " + N("a") + ", " + N("b") + "]]", R"({"dtype": {"dtype": "bool"}})");
  h.call("r", "aten.cumsum.default", "[" + N("z") + ", 1]", R"({"dtype": {"dtype": "float32"}})");
  ASSERT_TRUE(h.run()) << h.error();
  std::vector<std::string> guards;
  for (const auto& g : h.env().guards()) guards.push_back(to_str(h.env().arena(), g.expr));
  const auto has = [&](const std::string& text) { return std::find(guards.begin(), guards.end(), text) != guards.end(); };
  EXPECT_TRUE(has("Ne(Max(1, (H//8)), ((H//8))*Max(1, (H//8)))")) << ::testing::PrintToString(guards);
  EXPECT_TRUE(has("((H//8))*Max(1, (H//8)) >= Max(1, (H//8))")) << ::testing::PrintToString(guards);
  EXPECT_EQ(h.shape_str("r"), h.shape_str("z"));
  EXPECT_EQ(h.dtype("r"), DType::Float32);
}

TEST(Norm, B270_NativeBatchNormStats) {
  for (bool training : {true, false}) {
    PropHarness h;
    h.input("x", "float32", {2, 3, 4, 5}).attr("rm", "float32", {3}, {1}).attr("rv", "float32", {3}, {1});
    h.call("r", "aten.native_batch_norm.default",
           "[" + N("x") + ", null, null, " + N("rm") + ", " + N("rv") + ", " + (training ? "true" : "false") + ", 0.1, 1e-05]");
    ASSERT_TRUE(h.run()) << h.error();
    EXPECT_EQ(h.shape("r", 0), (Ints{2, 3, 4, 5}));
    EXPECT_EQ(h.shape("r", 1), training ? Ints{3} : Ints{0});
    EXPECT_EQ(h.shape("r", 2), training ? Ints{3} : Ints{0});
  }
}

TEST(Norm, BatchNormKeepsChannelsLast) {
  PropHarness h;
  h.attr("w", "float32", {2, 3, 4, 5}, {60, 1, 15, 3}).attr("rm", "float32", {3}, {1}).attr("rv", "float32", {3}, {1});
  h.call("r", "aten.batch_norm.default",
         "[" + N("w") + ", null, null, " + N("rm") + ", " + N("rv") + ", false, 0.1, 1e-05, true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("r"), (Ints{60, 1, 15, 3}));
}

TEST(Norm, BatchNormFeatureMismatch) {
  PropHarness h;
  h.input("x", "float32", {2, 3, 4}).attr("rm", "float32", {4}, {1}).attr("rv", "float32", {3}, {1});
  h.call("r", "aten.batch_norm.default",
         "[" + N("x") + ", null, null, " + N("rm") + ", " + N("rv") + ", false, 0.1, 1e-05, true]");
  ASSERT_FALSE(h.run());
  EXPECT_NE(h.error().find("running_mean should contain 3 elements not 4"), std::string::npos) << h.error();
}

TEST(Norm, B271_GroupNorm) {
  PropHarness h;
  h.input("x", "float32", {2, 6, 4, 5});
  h.call("r", "aten.native_group_norm.default", "[" + N("x") + ", null, null, 2, 6, 20, 3, 1e-05]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("r", 0), (Ints{2, 6, 4, 5}));
  EXPECT_EQ(h.shape("r", 1), (Ints{2, 3}));
  EXPECT_EQ(h.shape("r", 2), (Ints{2, 3}));

  PropHarness bad;
  bad.input("x", "float32", {2, 6, 4, 5}).call("r", "aten.group_norm.default", "[" + N("x") + ", 4, null, null, 1e-05, true]");
  ASSERT_FALSE(bad.run());
  EXPECT_NE(bad.error().find("Expected number of channels in input to be divisible by num_groups, but got input of shape "
                             "[2, 6, 4, 5] and num_groups=4"),
            std::string::npos)
      << bad.error();
}

TEST(Norm, GroupNormUsesSuggestedFormat) {
  PropHarness h;
  h.attr("w", "float32", {2, 6, 4, 5}, {120, 1, 30, 6});
  h.call("r", "aten.group_norm.default", "[" + N("w") + ", 3, null, null, 1e-05, true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("r"), (Ints{120, 1, 30, 6}));
}

TEST(Norm, B272_Softmax) {
  PropHarness h;
  h.input("x", "float32", {2, 3}).input("z", "float32", {3});
  h.call("s", "aten.softmax.int", "[" + N("x") + ", -1, null]");
  h.call("z0", "aten.sum.default", "[" + N("z") + "]");
  h.call("l", "aten.log_softmax.int", "[" + N("z0") + ", 0, null]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("s"), (Ints{2, 3}));
  EXPECT_EQ(h.shape("l"), (Ints{}));
}

TEST(Norm, SoftmaxDtypeArgument) {
  PropHarness h;
  h.input("x", "int64", {2, 3}).call("s", "aten.softmax.int", "[" + N("x") + ", 1, {\"dtype\": \"float64\"}]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.dtype("s"), DType::Float64);
}

// ---- sort family and scans (H.21) ----

TEST(Sort, B273_TopkAndSort) {
  PropHarness h;
  h.input("x", "float32", {2, 10});
  h.call("t", "aten.topk.default", "[" + N("x") + ", 3, -1, true, true]");
  h.call("s", "aten.sort.default", "[" + N("x") + ", 0, false]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("t", 0), (Ints{2, 3}));
  EXPECT_EQ(h.shape("t", 1), (Ints{2, 3}));
  EXPECT_EQ(h.dtype("t", 1), DType::Int64);
  EXPECT_EQ(h.shape("s", 0), (Ints{2, 10}));
  EXPECT_EQ(h.shape("s", 1), (Ints{2, 10}));

  PropHarness bad;
  bad.input("x", "float32", {2, 10}).call("t", "aten.topk.default", "[" + N("x") + ", 11, -1, true, true]");
  ASSERT_FALSE(bad.run());
  EXPECT_NE(bad.error().find("selected index k out of range"), std::string::npos) << bad.error();
}

TEST(Sort, SymbolicTopkGuardsOnK) {
  PropHarness h;
  h.input("x", "float32", {2, 10}, {"", "n"}).call("t", "aten.topk.default", "[" + N("x") + ", 4, 1, true, true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("t", 0), (Ints{2, 4}));
  EXPECT_FALSE(h.env().guards().empty());
}

TEST(Sort, SortOfNonDenseInputKeepsOrder) {
  PropHarness h;
  h.attr("w", "float32", {3, 4}, {1, 6}).call("s", "aten.sort.default", "[" + N("w") + ", -1, false]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("s", 0), (Ints{1, 3}));
}

TEST(Scan, B274_CumsumDtype) {
  for (auto [in, out] : {std::pair{"int32", DType::Int64}, std::pair{"bool", DType::Int64},
                         std::pair{"float32", DType::Float32}}) {
    PropHarness h;
    h.input("x", in, {2, 3}).call("c", "aten.cumsum.default", "[" + N("x") + ", 1]");
    ASSERT_TRUE(h.run()) << h.error();
    EXPECT_EQ(h.dtype("c"), out) << in;
    EXPECT_EQ(h.shape("c"), (Ints{2, 3}));
  }
}

}  // namespace
}  // namespace symshape::test
