// Behaviours 275-276 (where, masked_fill), 279-280 (arange, triu), 284 (unbacked
// contiguous strides), and the eager TensorIterator layouts of pointwise ops, copies and
// in-place ops.
#include "prop_harness.h"

namespace symshape::test {
namespace {

TEST(Ternary, B275_WhereBroadcastsAllThree) {
  PropHarness h;
  h.input("c", "bool", {3, 1}).input("a", "float32", {1, 4}).input("b", "float32", {2, 1, 1});
  h.call("w", "aten.where.self", "[" + N("c") + ", " + N("a") + ", " + N("b") + "]");
  h.call("s", "aten.where.ScalarOther", "[" + N("c") + ", " + N("a") + ", 0.0]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("w"), (Ints{2, 3, 4}));
  EXPECT_EQ(h.shape("s"), (Ints{3, 4}));
  EXPECT_EQ(h.dtype("s"), DType::Float32);
}

TEST(Ternary, B276_MaskedFill) {
  PropHarness h;
  h.input("x", "float32", {3, 4}).input("m", "bool", {4}).input("y", "float32", {1, 4}).input("n", "bool", {3, 4});
  h.call("a", "aten.masked_fill.Scalar", "[" + N("x") + ", " + N("m") + ", 1.0]");
  h.call("b", "aten.masked_fill.Scalar", "[" + N("y") + ", " + N("n") + ", 1.0]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("a"), (Ints{3, 4}));
  EXPECT_EQ(h.shape("b"), (Ints{3, 4}));
  EXPECT_EQ(h.stride("b"), (Ints{4, 1}));

  PropHarness inplace;  // in place, the mask must broadcast to self
  inplace.input("y", "float32", {1, 4}).input("n", "bool", {3, 4});
  inplace.call("b", "aten.masked_fill_.Scalar", "[" + N("y") + ", " + N("n") + ", 1.0]");
  ASSERT_FALSE(inplace.run());
  EXPECT_NE(inplace.error().find("output with shape [1, 4] doesn't match the broadcast shape [3, 4]"), std::string::npos)
      << inplace.error();
}

Ints arange_shape(const std::string& target, const std::string& args, DType* dtype = nullptr, std::string* error = nullptr) {
  PropHarness h;
  h.input("x", "float32", {1}).call("r", target, args);
  if (!h.run()) {
    if (error) *error = h.error();
    return {-1};
  }
  if (dtype) *dtype = h.dtype("r");
  return h.shape("r");
}

TEST(Factory, B279_Arange) {
  DType dt;
  EXPECT_EQ(arange_shape("aten.arange.start_step", "[0, 10, 3]", &dt), (Ints{4}));
  EXPECT_EQ(dt, DType::Int64);
  EXPECT_EQ(arange_shape("aten.arange.start_step", "[0.5, 2.0, 0.5]", &dt), (Ints{3}));
  EXPECT_EQ(dt, DType::Float32);
  EXPECT_EQ(arange_shape("aten.arange.start_step", "[10, 0, -3]"), (Ints{4}));
  EXPECT_EQ(arange_shape("aten.arange.start", "[1, 1]"), (Ints{0}));
  EXPECT_EQ(arange_shape("aten.arange.default", "[5.0]", &dt), (Ints{5}));
  EXPECT_EQ(dt, DType::Float32);
  std::string err;
  arange_shape("aten.arange.start_step", "[0, 10, -1]", nullptr, &err);
  EXPECT_NE(err.find("upper bound and larger bound inconsistent with step sign"), std::string::npos) << err;
  arange_shape("aten.arange.start_step", "[0, 10, 0]", nullptr, &err);
  EXPECT_NE(err.find("step must be nonzero"), std::string::npos) << err;
}

TEST(Factory, SymbolicArangeLength) {
  PropHarness h;
  h.input("x", "float32", {7}, {"n"});
  h.call("n", "aten.sym_size.int", "[" + N("x") + ", 0]");
  h.call("a", "aten.arange.default", "[" + N("n") + "]", R"({"dtype": {"dtype": "int64"}})");
  h.call("b", "aten.arange.start_step", "[" + N("n") + ", -1, -1]", R"({"dtype": {"dtype": "int64"}})");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("a"), h.shape_str("x"));
  EXPECT_EQ(h.shape("b"), (Ints{8}));
  EXPECT_TRUE(h.env().guards().empty());
}

TEST(Factory, FullInfersDtypeFromValue) {
  PropHarness h;
  h.input("x", "float32", {2, 3});
  h.call("i", "aten.full.default", "[[2, 3], 7]");
  h.call("f", "aten.full.default", "[[2, 3], 1.5]");
  h.call("b", "aten.full.default", "[[2], true]");
  h.call("l", "aten.full_like.default", "[" + N("x") + ", 15]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.dtype("i"), DType::Int64);
  EXPECT_EQ(h.dtype("f"), DType::Float32);
  // fill_value is a Scalar parameter: torch.ops.aten.full.default([2], True) binds the
  // Python bool as an int in 1.13 (the goldens' reference interpreter), giving int64
  EXPECT_EQ(h.dtype("b"), DType::Int64);
  EXPECT_EQ(h.dtype("l"), DType::Float32);  // *_like keeps self's dtype
}

TEST(Factory, B280_TriuNeedsAMatrix) {
  PropHarness bad;
  bad.input("x", "float32", {5}).call("r", "aten.triu.default", "[" + N("x") + ", 0]");
  ASSERT_FALSE(bad.run());
  EXPECT_NE(bad.error().find("Dimension out of range (expected to be in range of [-1, 0], but got -2)"), std::string::npos)
      << bad.error();
  PropHarness ok;
  ok.input("x", "float32", {2, 3, 4}).call("r", "aten.triu.default", "[" + N("x") + ", 1]");
  ASSERT_TRUE(ok.run()) << ok.error();
  EXPECT_EQ(ok.shape("r"), (Ints{2, 3, 4}));
}

TEST(Copy, B284_UnbackedCloneIsContiguous) {
  PropHarness h;
  h.input("x", "int64", {3});
  h.call("s", "aten.sum.default", "[" + N("x") + "]");
  h.call("u", "aten._local_scalar_dense.default", "[" + N("s") + "]");
  h.call("z", "aten.zeros.default", "[[" + N("u") + ", " + N("u") + "]]");
  h.call("c", "aten.clone.default", "[" + N("z") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  const Strs st = h.stride_str("c");
  ASSERT_EQ(st.size(), 2u);
  EXPECT_EQ(st[0], "Max(1, " + h.shape_str("c")[0] + ")");
  EXPECT_EQ(st[1], "1");
}

// ---- TensorIterator layouts ----

TEST(Layout, NonDenseInputGivesDenseOutputInItsOrder) {
  PropHarness h;  // a slice of a permuted tensor (llama_tiny's neg)
  h.attr("w", "float32", {1, 4, 8, 8}, {512, 16, 64, 1}).call("r", "aten.neg.default", "[" + N("w") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("r"), (Ints{256, 8, 32, 1}));
}

// Under symbolic sizes PyTorch 2.x runs relu's refs (a prims elementwise meta): a
// channels_last result gets make_contiguous_strides_for's Max(1, size) factors, where
// hardswish (`x * ...` on the binary fast path) keeps the raw products; the values agree.
TEST(Layout, RefsUnaryOpsGiveChannelsLastStridesMaxFactors) {
  PropHarness h;
  h.input("x", "float32", {2, 8, 40, 40}, {"", "", "H", "W"}).attr("k", "float32", {16, 8, 4, 4}, {128, 16, 4, 1});
  h.call("c", "aten.contiguous.default", "[" + N("x") + "]", R"({"memory_format": {"memory_format": "channels_last"}})");
  h.call("y", "aten.conv2d.default", "[" + N("c") + ", " + N("k") + ", null, [4, 4], [0, 0], [1, 1], 1]");
  h.call("r", "aten.relu.default", "[" + N("y") + "]");
  h.call("s", "aten.hardswish.default", "[" + N("y") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  // as built (the harness's stride_str simplifies, which folds Max by the ranges)
  const auto built = [&](const std::string& node) { return to_str(h.env().arena(), h.stride_exprs(node)[2]); };
  const std::string w = to_str(h.env().arena(), h.shape_exprs("y")[3]);
  EXPECT_EQ(built("r"), "16*Max(1, " + w + ")");
  EXPECT_EQ(built("s"), built("y"));
  EXPECT_EQ(built("y").find("Max"), std::string::npos) << built("y");
  EXPECT_EQ(h.stride("r"), h.stride("y"));
  EXPECT_EQ(h.stride("s"), (Ints{1600, 1, 160, 16}));
}

// FakeTensorMode's own strides (ReferenceHost::fake_strides) differ from TensorIterator's at
// size-1 dims: the binary fast path allocates torch.empty(contiguous), gelu's decomposition
// runs the refs first, dropout's clone of a strided select is dense, and a static
// layer_norm's steps are laid out by the refs. Eager keeps its own.
TEST(Layout, FakeStridesFollowTheFastPathTheRefsAndTheClone) {
  for (const bool fake : {false, true}) {
    PropHarness h;
    if (fake) h.fake_strides();
    h.input("x", "float32", {2, 64, 1, 1}, {"N", "", "", ""}).input("y", "float32", {2, 2, 32}, {"N", "", ""});
    h.input("z", "float32", {2, 5, 64}, {"N", "T", ""});
    h.call("p", "aten.permute.default", "[" + N("x") + ", [0, 2, 3, 1]]");
    h.call("s", "aten.sum.dim_IntList", "[" + N("p") + ", [-1], true]");
    h.call("m", "aten.mul.Tensor", "[" + N("p") + ", " + N("s") + "]");
    h.call("t", "aten.transpose.int", "[" + N("y") + ", 1, 2]");
    h.call("c", "aten.slice.Tensor", "[" + N("t") + ", 2, 0, -1, 1]");
    h.call("g", "aten.gelu.default", "[" + N("c") + "]");
    h.call("e", "aten.select.int", "[" + N("z") + ", 1, 0]");
    h.call("d", "aten.dropout.default", "[" + N("e") + ", 0.0, false]");
    // a static layer_norm takes no fast path: its refs steps keep (1, 1, 1, C)'s strides
    h.attr("a", "float32", {1, 8, 1, 1}, {8, 1, 1, 1}).attr("lw", "float32", {8}, {1}).attr("lb", "float32", {8}, {1});
    h.call("q", "aten.permute.default", "[" + N("a") + ", [0, 2, 3, 1]]");
    h.call("l", "aten.layer_norm.default", "[" + N("q") + ", [8], " + N("lw") + ", " + N("lb") + ", 1e-05, false]");
    ASSERT_TRUE(h.run()) << h.error();
    EXPECT_EQ(h.stride("l"), fake ? (Ints{8, 1, 1, 1}) : (Ints{8, 8, 8, 1}));
    EXPECT_EQ(h.stride("m"), fake ? (Ints{64, 64, 64, 1}) : (Ints{64, 1, 1, 1}));
    EXPECT_EQ(h.stride("g"), fake ? (Ints{32, 1, 1}) : (Ints{32, 1, 32}));
    EXPECT_EQ(h.stride("d"), fake ? (Ints{64, 1}) : (Ints{320, 1}));
  }
}

TEST(Layout, ChannelsLastOperandDecides) {
  PropHarness h;
  h.attr("w", "float32", {2, 3, 4, 5}, {60, 1, 15, 3}).input("x", "float32", {2, 3, 4, 5});
  h.call("a", "aten.add.Tensor", "[" + N("w") + ", " + N("x") + "]");
  h.call("b", "aten.mul.Tensor", "[" + N("w") + ", 0.5]");
  h.call("c", "aten.add.Tensor", "[" + N("x") + ", " + N("w") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("a"), (Ints{60, 1, 15, 3}));
  EXPECT_EQ(h.stride("b"), (Ints{60, 1, 15, 3}));
  EXPECT_EQ(h.stride("c"), (Ints{60, 20, 5, 1}));
}

TEST(Layout, BroadcastOperandNeverDecides) {
  PropHarness h;  // (N, C, H, W) channels_last times an (N, C, 1, 1) gate
  h.attr("w", "float32", {2, 3, 4, 5}, {60, 1, 15, 3}).input("g", "float32", {2, 3, 1, 1});
  h.call("a", "aten.mul.Tensor", "[" + N("g") + ", " + N("w") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("a"), (Ints{60, 1, 15, 3}));
}

TEST(Layout, ScalarOperandTakesTheGeneralPath) {
  // an (N, C, 1, 1) tensor with channels_last strides is contiguous, so a unary op
  // allocates contiguously, but with a wrapped scalar operand TensorIterator sorts the
  // strides and keeps the channels_last-like order (convnext's pooled features)
  PropHarness h;
  h.attr("p", "float32", {1, 768, 1, 1}, {768, 1, 768, 768});
  h.call("u", "aten.relu.default", "[" + N("p") + "]");
  h.call("s", "aten.mul.Tensor", "[" + N("p") + ", 0.5]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("u"), (Ints{768, 1, 1, 1}));
  EXPECT_EQ(h.stride("s"), (Ints{768, 1, 768, 768}));
}

TEST(Layout, EmptyLikeKernelsPreserveNonDenseOrder) {
  PropHarness h;  // hardtanh allocates empty_like(self): dense strides in self's order
  h.attr("w", "float32", {4, 3}, {1, 8}).call("r", "aten.hardtanh.default", "[" + N("w") + ", -1.0, 1.0]");
  h.call("z", "aten.zeros_like.default", "[" + N("w") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("r"), (Ints{1, 4}));
  EXPECT_EQ(h.stride("z"), (Ints{1, 4}));
}

TEST(Layout, TransposedDenseInputKeepsStrides) {
  PropHarness h;
  h.attr("w", "float32", {3, 4}, {1, 3}).call("r", "aten.sigmoid.default", "[" + N("w") + "]");
  h.call("e", "aten.exp.default", "[" + N("w") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("r"), (Ints{1, 3}));
}

TEST(Layout, InPlaceReturnsSelfAndChecksShape) {
  PropHarness h;
  h.input("x", "float32", {3, 4}).input("y", "float32", {4});
  h.call("r", "aten.add_.Tensor", "[" + N("x") + ", " + N("y") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_TRUE(h.same_tensor("r", "x"));

  PropHarness bad;
  bad.input("x", "float32", {3, 1}).input("y", "float32", {3, 4});
  bad.call("r", "aten.add_.Tensor", "[" + N("x") + ", " + N("y") + "]");
  ASSERT_FALSE(bad.run());
  EXPECT_NE(bad.error().find("output with shape [3, 1] doesn't match the broadcast shape [3, 4]"), std::string::npos)
      << bad.error();

  PropHarness cast;
  cast.input("x", "int64", {3}).call("r", "aten.mul_.Tensor", "[" + N("x") + ", 0.5]");
  ASSERT_FALSE(cast.run());
  EXPECT_NE(cast.error().find("result type Float can't be cast to the desired output type Long"), std::string::npos)
      << cast.error();
}

// floor_divide_ (transformers' dab-detr: `arange // 2` in place): self's shape, strides and
// dtype; PyTorch's in-place errors for a result that would grow self or change its dtype.
TEST(Layout, InPlaceFloorDivide) {
  PropHarness ok;
  ok.input("i", "int64", {6}).input("x", "float32", {2, 3}).input("y", "int64", {2});
  ok.call("t", "aten.t.default", "[" + N("x") + "]");
  ok.call("a", "aten.floor_divide_.Tensor", "[" + N("i") + ", 2]");
  ok.call("b", "aten.floor_divide_.Scalar", "[" + N("i") + ", 3]");
  ok.call("c", "aten.floor_divide_.Tensor", "[" + N("t") + ", " + N("y") + "]");
  ASSERT_TRUE(ok.run()) << ok.error();
  EXPECT_TRUE(ok.same_tensor("a", "i"));
  EXPECT_TRUE(ok.same_tensor("b", "i"));
  EXPECT_TRUE(ok.same_tensor("c", "t"));
  EXPECT_EQ(ok.shape("c"), (Ints{3, 2}));
  EXPECT_EQ(ok.stride("c"), (Ints{1, 3}));

  PropHarness grow;
  grow.input("x", "float32", {3}).input("y", "float32", {2, 3});
  grow.call("r", "aten.floor_divide_.Tensor", "[" + N("x") + ", " + N("y") + "]");
  ASSERT_FALSE(grow.run());
  EXPECT_NE(grow.error().find("output with shape [3] doesn't match the broadcast shape [2, 3]"), std::string::npos)
      << grow.error();

  PropHarness cast;
  cast.input("i", "int64", {6}).input("x", "float32", {6});
  cast.call("r", "aten.floor_divide_.Tensor", "[" + N("i") + ", " + N("x") + "]");
  ASSERT_FALSE(cast.run());
  EXPECT_NE(cast.error().find("result type Float can't be cast to the desired output type Long"), std::string::npos)
      << cast.error();
}

// ---- conversions and copies ----

TEST(Copy, ToSameDtypeAliasesOtherwiseCopies) {
  PropHarness h;
  h.attr("w", "float32", {3, 4}, {1, 3});
  h.call("same", "aten.to.dtype", "[" + N("w") + ", {\"dtype\": \"float32\"}, false, false, null]");
  h.call("half", "aten.to.dtype", "[" + N("w") + ", {\"dtype\": \"float16\"}, false, false, null]");
  h.call("cont", "aten.contiguous.default", "[" + N("w") + "]");
  h.call("cl", "aten.clone.default", "[" + N("w") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_TRUE(h.same_tensor("same", "w"));
  EXPECT_EQ(h.dtype("half"), DType::Float16);
  EXPECT_EQ(h.stride("half"), (Ints{1, 3}));  // preserve_format keeps dense strides
  EXPECT_EQ(h.stride("cont"), (Ints{4, 1}));
  EXPECT_EQ(h.stride("cl"), (Ints{1, 3}));
}

TEST(Copy, CloneOfNonDenseInfersDenseStrides) {
  PropHarness h;
  h.attr("w", "float32", {1, 4, 8, 8}, {512, 16, 64, 1}).call("r", "aten.clone.default", "[" + N("w") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("r"), (Ints{256, 8, 32, 1}));
}

TEST(Copy, ContiguousOfContiguousIsSelf) {
  PropHarness h;
  h.input("x", "float32", {2, 3}).call("r", "aten.contiguous.default", "[" + N("x") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_TRUE(h.same_tensor("r", "x"));
}

TEST(Dropout, EvalIsIdentityTrainingIsAProduct) {
  PropHarness h;
  h.attr("w", "float32", {2, 3, 4, 5}, {60, 1, 15, 3});
  h.call("e", "aten.dropout.default", "[" + N("w") + ", 0.2, false]");
  h.call("t", "aten.dropout.default", "[" + N("w") + ", 0.2, true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_TRUE(h.same_tensor("e", "w"));
  EXPECT_FALSE(h.same_tensor("t", "w"));
  EXPECT_EQ(h.stride("t"), (Ints{60, 1, 15, 3}));
}

}  // namespace
}  // namespace symshape::test
