// narrow.Tensor and the fused scaled-dot-product-attention kernels. Reference values for
// narrow.Tensor: eager PyTorch 1.13.1 (CPU). The attention kernels do not exist in 1.13;
// their layouts are those of the 2.x CPU kernel and meta functions (fused_attention_ops.cpp).
#include "views_test_util.h"

namespace symshape::test {
namespace {

std::string nodes(std::initializer_list<std::string> names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + N(n);
  return s;
}

TEST(NarrowTensor, KnownStartIsTheTableContent) {
  // torch.ops.aten.narrow.Tensor(torch.randn(4, 10), 1, torch.tensor(-3), 2):
  // size (4, 2), stride (10, 1), storage_offset 7, float32, a view of x
  PropHarness h;
  h.input("x", "float32", {4, 10}).attr_data("st", "int64", {}, {}, {-3});
  h.call("n", "aten.narrow.Tensor", "[" + nodes({"x"}) + ", 1, " + N("st") + ", 2]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("n"), (Ints{4, 2}));
  EXPECT_EQ(h.stride("n"), (Ints{10, 1}));
  EXPECT_EQ(h.offset_str("n"), "7");
  EXPECT_EQ(h.dtype("n"), DType::Float32);
  EXPECT_TRUE(h.same_storage("n", "x"));
}

TEST(NarrowTensor, UnknownStartIsAnUnbackedSymbol) {
  // symbolic batch; the start is item() of an input: an unbacked u0 of unknown sign, so
  // no guard on it, the bounds are runtime asserts and the offset is the wrapped start
  PropHarness h;
  h.input("x", "float32", {4, 10}, {"batch", ""}).input("st", "int64", {});
  h.call("n", "aten.narrow.Tensor", "[" + N("x") + ", 1, " + N("st") + ", 2]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("n"), (Strs{h.shape_str("x")[0], "2"}));
  EXPECT_EQ(h.stride_str("n"), (Strs{"10", "1"}));
  EXPECT_TRUE(has(h.offset_str("n"), "u0")) << h.offset_str("n");
  EXPECT_FALSE(h.env().runtime_asserts().empty());
  EXPECT_TRUE(h.env().guards().empty());
}

TEST(NarrowTensor, ReusesAnEarlierItemOfTheSameTensor) {
  PropHarness h;
  h.input("x", "float32", {4, 10}).input("st", "int64", {});
  h.call("i", "aten.item.default", "[" + N("st") + "]");
  h.call("n", "aten.narrow.Tensor", "[" + N("x") + ", 1, " + N("st") + ", 2]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_TRUE(has(h.offset_str("n"), "u0")) << h.offset_str("n");
  EXPECT_FALSE(h.env().arena().find_symbol("u1").valid());
}

TEST(NarrowTensor, Errors) {
  // eager 1.13: "start (9) + length (2) exceeds dimension size (10)."
  PropHarness big;
  big.input("x", "float32", {4, 10}).attr_data("st", "int64", {}, {}, {9});
  big.call("n", "aten.narrow.Tensor", "[" + N("x") + ", 1, " + N("st") + ", 2]");
  ASSERT_FALSE(big.run());
  EXPECT_TRUE(has(big.error(), "start (9) + length (2) exceeds dimension size (10).")) << big.error();
  // eager 1.13: "start must be an 0-dim integral Tensor." (a float start)
  PropHarness fl;
  fl.input("x", "float32", {4, 10}).input("st", "float32", {});
  fl.call("n", "aten.narrow.Tensor", "[" + N("x") + ", 1, " + N("st") + ", 2]");
  ASSERT_FALSE(fl.run());
  EXPECT_TRUE(has(fl.error(), "start must be an 0-dim integral Tensor.")) << fl.error();
}

TEST(FusedAttention, FlashForCpuWritesBLHEAndTransposes) {
  // q (2, 4, 8, 16), k / v (2, 4, 6, 16): the kernel allocates (B, L, H, E) = (2, 8, 4, 16)
  // (strides 512, 64, 16, 1) and returns .transpose(1, 2): size (2, 4, 8, 16) stride
  // (512, 16, 64, 1); logsumexp (2, 8, 4) (strides 32, 4, 1) transposed: size (2, 4, 8)
  // stride (32, 1, 4), float32.
  PropHarness h;
  h.input("q", "float32", {2, 4, 8, 16}).input("k", "float32", {2, 4, 6, 16}).input("v", "float32", {2, 4, 6, 16});
  h.call("a", "aten._scaled_dot_product_flash_attention_for_cpu.default", "[" + nodes({"q", "k", "v"}) + ", 0.0, false]");
  ASSERT_TRUE(h.run()) << h.error();
  ASSERT_EQ(h.list_size("a"), 2u);
  EXPECT_EQ(h.shape("a", 0), (Ints{2, 4, 8, 16}));
  EXPECT_EQ(h.stride("a", 0), (Ints{512, 16, 64, 1}));
  EXPECT_EQ(h.dtype("a", 0), DType::Float32);
  EXPECT_EQ(h.shape("a", 1), (Ints{2, 4, 8}));
  EXPECT_EQ(h.stride("a", 1), (Ints{32, 1, 4}));
  EXPECT_EQ(h.dtype("a", 1), DType::Float32);
}

TEST(FusedAttention, FlashForCpuSymbolicSequence) {
  // L symbolic: output strides (64*L, 16, 64, 1), logsumexp strides (4*L, 1, 4)
  PropHarness h;
  h.input("q", "bfloat16", {2, 4, 8, 16}, {"", "", "L", ""});
  h.input("k", "bfloat16", {2, 4, 6, 16}, {"", "", "S", ""}).input("v", "bfloat16", {2, 4, 6, 16}, {"", "", "S", ""});
  h.call("a", "aten._scaled_dot_product_flash_attention_for_cpu.default", "[" + nodes({"q", "k", "v"}) + ", 0.0, true]");
  ASSERT_TRUE(h.run()) << h.error();
  const std::string L = h.shape_str("q")[2];
  EXPECT_EQ(h.shape_str("a", 0), (Strs{"2", "4", L, "16"}));
  EXPECT_EQ(h.stride_str("a", 0), (Strs{"64*" + L, "16", "64", "1"}));
  EXPECT_EQ(h.dtype("a", 0), DType::BFloat16);
  EXPECT_EQ(h.stride_str("a", 1), (Strs{"4*" + L, "1", "4"}));
  EXPECT_EQ(h.dtype("a", 1), DType::Float32);
}

TEST(FusedAttention, FlashForCpuErrors) {
  PropHarness drop;
  drop.input("q", "float32", {2, 4, 8, 16}).input("k", "float32", {2, 4, 6, 16}).input("v", "float32", {2, 4, 6, 16});
  drop.call("a", "aten._scaled_dot_product_flash_attention_for_cpu.default", "[" + nodes({"q", "k", "v"}) + ", 0.1, false]");
  ASSERT_FALSE(drop.run());
  EXPECT_TRUE(has(drop.error(), "Currently do not support dropout > 0")) << drop.error();
  PropHarness head;
  head.input("q", "float32", {2, 4, 8, 16}).input("k", "float32", {2, 4, 6, 16}).input("v", "float32", {2, 4, 6, 8});
  head.call("a", "aten._scaled_dot_product_flash_attention_for_cpu.default", "[" + nodes({"q", "k", "v"}) + ", 0.0, false]");
  ASSERT_FALSE(head.run());
  EXPECT_TRUE(has(head.error(), "Q/K/V should have the same head size")) << head.error();
}

TEST(FusedAttention, FlashAndEfficient) {
  // _scaled_dot_product_flash_attention: empty_like(q.transpose(1, 2)).transpose(1, 2) of a
  // contiguous q is contiguous (512, 128, 16, 1); logsumexp (2, 4, 8) float32; nine results
  // (cum_seq_q / cum_seq_k None, max_q / max_k ints, int64 philox scalars, empty debug mask)
  PropHarness f;
  f.input("q", "float32", {2, 4, 8, 16}).input("k", "float32", {2, 4, 6, 16}).input("v", "float32", {2, 4, 6, 16});
  f.call("a", "aten._scaled_dot_product_flash_attention.default", "[" + nodes({"q", "k", "v"}) + ", 0.0, false, false]");
  ASSERT_TRUE(f.run()) << f.error();
  ASSERT_EQ(f.list_size("a"), 9u);
  EXPECT_EQ(f.shape("a", 0), (Ints{2, 4, 8, 16}));
  EXPECT_EQ(f.stride("a", 0), (Ints{512, 128, 16, 1}));
  EXPECT_EQ(f.shape("a", 1), (Ints{2, 4, 8}));
  EXPECT_EQ(f.dtype("a", 1), DType::Float32);
  EXPECT_EQ(f.shape("a", 6), (Ints{}));
  EXPECT_EQ(f.shape("a", 8), (Ints{0}));
  // _scaled_dot_product_efficient_attention: (B, L, H, Ev) = (2, 8, 4, 32) transposed:
  // stride (1024, 32, 128, 1); logsumexp (2, 4, ceil(8 / 32) * 32 = 32) float32
  PropHarness e;
  e.input("q", "float32", {2, 4, 8, 16}).input("k", "float32", {2, 4, 6, 16}).input("v", "float32", {2, 4, 6, 32});
  e.call("a", "aten._scaled_dot_product_efficient_attention.default", "[" + nodes({"q", "k", "v"}) + ", null, true]");
  ASSERT_TRUE(e.run()) << e.error();
  ASSERT_EQ(e.list_size("a"), 4u);
  EXPECT_EQ(e.shape("a", 0), (Ints{2, 4, 8, 32}));
  EXPECT_EQ(e.stride("a", 0), (Ints{1024, 32, 128, 1}));
  EXPECT_EQ(e.shape("a", 1), (Ints{2, 4, 32}));
  EXPECT_EQ(e.dtype("a", 1), DType::Float32);
  EXPECT_EQ(e.dtype("a", 2), DType::Int64);
}

}  // namespace
}  // namespace symshape::test
