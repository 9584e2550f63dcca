// embedding_bag and its _embedding_bag / _embedding_bag_forward_only kernels. Reference
// values: eager PyTorch 1.13.1 (CPU) with weight (10, 3) float32 (requires_grad, so the
// composite takes _embedding_bag), indices (8,) and offsets (2,) int64.
#include "views_test_util.h"

namespace symshape::test {
namespace {

struct Bag {
  PropHarness h;
  explicit Bag(const std::string& weight_dtype = "float32", const std::string& idx_dtype = "int64",
               const std::string& off_dtype = "int64") {
    h.attr("w", weight_dtype, {10, 3}, {3, 1}).input("i", idx_dtype, {8}).input("o", off_dtype, {2});
  }
  Bag& call(const std::string& target, const std::string& rest) {
    h.call("e", target, "[" + N("w") + ", " + N("i") + ", " + N("o") + ", " + rest + "]");
    return *this;
  }
};

TEST(EmbeddingBag, SumFastPathSkipsOffset2bag) {
  // mode sum: output (2, 3) (3, 1) float32; offset2bag (0,); bag_size (2,); max_indices (2,)
  Bag b;
  b.call("aten.embedding_bag.default", "false, 0, false, null, false");
  ASSERT_TRUE(b.h.run()) << b.h.error();
  ASSERT_EQ(b.h.list_size("e"), 4u);
  EXPECT_EQ(b.h.shape("e", 0), (Ints{2, 3}));
  EXPECT_EQ(b.h.stride("e", 0), (Ints{3, 1}));
  EXPECT_EQ(b.h.dtype("e", 0), DType::Float32);
  EXPECT_EQ(b.h.shape("e", 1), (Ints{0}));
  EXPECT_EQ(b.h.shape("e", 2), (Ints{2}));
  EXPECT_EQ(b.h.shape("e", 3), (Ints{2}));
  EXPECT_EQ(b.h.dtype("e", 3), DType::Int64);
}

TEST(EmbeddingBag, ModesAndIncludeLastOffset) {
  // mean: offset2bag (8,); max: max_indices (2, 3) (3, 1) int64;
  // include_last_offset (sum): output (1, 3), bag_size (1,), max_indices (1,)
  Bag mean;
  mean.call("aten.embedding_bag.default", "false, 1, false, null, false");
  ASSERT_TRUE(mean.h.run()) << mean.h.error();
  EXPECT_EQ(mean.h.shape("e", 1), (Ints{8}));
  Bag max;
  max.call("aten.embedding_bag.default", "false, 2, false, null, false");
  ASSERT_TRUE(max.h.run()) << max.h.error();
  EXPECT_EQ(max.h.shape("e", 3), (Ints{2, 3}));
  EXPECT_EQ(max.h.stride("e", 3), (Ints{3, 1}));
  Bag last;
  last.call("aten.embedding_bag.default", "false, 0, false, null, true");
  ASSERT_TRUE(last.h.run()) << last.h.error();
  EXPECT_EQ(last.h.shape("e", 0), (Ints{1, 3}));
  EXPECT_EQ(last.h.shape("e", 2), (Ints{1}));
  EXPECT_EQ(last.h.shape("e", 3), (Ints{1}));
  // _embedding_bag_forward_only, sum, include_last_offset: bag_size / max_indices keep
  // offsets' shape (2,); mean: (1,)
  Bag fwd;
  fwd.call("aten._embedding_bag_forward_only.default", "false, 0, false, null, true, -1");
  ASSERT_TRUE(fwd.h.run()) << fwd.h.error();
  EXPECT_EQ(fwd.h.shape("e", 0), (Ints{1, 3}));
  EXPECT_EQ(fwd.h.shape("e", 2), (Ints{2}));
  EXPECT_EQ(fwd.h.shape("e", 3), (Ints{2}));
  Bag fwd_mean;
  fwd_mean.call("aten._embedding_bag_forward_only.default", "false, 1, false, null, true, -1");
  ASSERT_TRUE(fwd_mean.h.run()) << fwd_mean.h.error();
  EXPECT_EQ(fwd_mean.h.shape("e", 2), (Ints{1}));
  // _embedding_bag, sum, no last offset: like the composite
  Bag impl;
  impl.call("aten._embedding_bag.default", "false, 0, false, null, false, -1");
  ASSERT_TRUE(impl.h.run()) << impl.h.error();
  EXPECT_EQ(impl.h.shape("e", 1), (Ints{0}));
  EXPECT_EQ(impl.h.shape("e", 2), (Ints{2}));
}

TEST(EmbeddingBag, SlowPathsAndIndexDtypes) {
  // padding_idx=2 or a float64 weight leave the fast path: offset2bag (8,);
  // int32 indices with int64 offsets -> int64 index results; int32 both -> int32
  Bag pad;
  pad.call("aten.embedding_bag.padding_idx", "false, 0, false, null, false, 2");
  ASSERT_TRUE(pad.h.run()) << pad.h.error();
  EXPECT_EQ(pad.h.shape("e", 1), (Ints{8}));
  Bag dbl("float64");
  dbl.call("aten.embedding_bag.default", "false, 0, false, null, false");
  ASSERT_TRUE(dbl.h.run()) << dbl.h.error();
  EXPECT_EQ(dbl.h.shape("e", 1), (Ints{8}));
  EXPECT_EQ(dbl.h.dtype("e", 0), DType::Float64);
  Bag mixed("float32", "int32", "int64");
  mixed.call("aten.embedding_bag.default", "false, 0, false, null, false");
  ASSERT_TRUE(mixed.h.run()) << mixed.h.error();
  EXPECT_EQ(mixed.h.dtype("e", 2), DType::Int64);
  Bag i32("float32", "int32", "int32");
  i32.call("aten.embedding_bag.default", "false, 0, false, null, false");
  ASSERT_TRUE(i32.h.run()) << i32.h.error();
  EXPECT_EQ(i32.h.dtype("e", 1), DType::Int32);
  EXPECT_EQ(i32.h.dtype("e", 3), DType::Int32);
}

TEST(EmbeddingBag, Symbolic) {
  // indices (n,), offsets (b,), mean: output (b, 3), offset2bag (n,), bag_size (b,)
  PropHarness h;
  h.attr("w", "float32", {10, 3}, {3, 1}).input("i", "int64", {8}, {"n"}).input("o", "int64", {3}, {"b"});
  h.call("e", "aten.embedding_bag.default", "[" + N("w") + ", " + N("i") + ", " + N("o") + ", false, 1, false, null, false]");
  ASSERT_TRUE(h.run()) << h.error();
  const std::string n = h.shape_str("i")[0], b = h.shape_str("o")[0];
  EXPECT_EQ(h.shape_str("e", 0), (Strs{b, "3"}));
  EXPECT_EQ(h.shape_str("e", 1), (Strs{n}));
  EXPECT_EQ(h.shape_str("e", 2), (Strs{b}));
  EXPECT_EQ(h.shape_str("e", 3), (Strs{b}));
}

TEST(EmbeddingBag, Errors) {
  // eager: "embedding_bag: per_sample_weights only supported with mode='sum'"
  PropHarness psw;
  psw.attr("w", "float32", {10, 3}, {3, 1}).input("i", "int64", {8}).input("o", "int64", {2}).input("p", "float32", {8});
  psw.call("e", "aten.embedding_bag.default",
           "[" + N("w") + ", " + N("i") + ", " + N("o") + ", false, 1, false, " + N("p") + ", false]");
  ASSERT_FALSE(psw.run());
  EXPECT_TRUE(has(psw.error(), "per_sample_weights only supported with mode='sum'")) << psw.error();
  Bag fl("float32", "float32");
  fl.call("aten.embedding_bag.default", "false, 0, false, null, false");
  ASSERT_FALSE(fl.h.run());
  EXPECT_TRUE(has(fl.h.error(), "expected indices to be long or int")) << fl.h.error();
}

}  // namespace
}  // namespace symshape::test
