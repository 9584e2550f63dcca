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

TEST(FusedAttention, FlashForCpuOutputIsEmptyLikeQuery) {
  // PyTorch 2.13 / 2.14 (CPU kernel and meta): output = empty_like(query); logsumexp
  // allocated (B, L, H) = (2, 8, 4) (strides 32, 4, 1) and transposed: size (2, 4, 8)
  // stride (32, 1, 4), float32. Contiguous q (2, 4, 8, 16): output strides (512, 128, 16, 1).
  PropHarness h;
  h.input("q", "float32", {2, 4, 8, 16}).input("k", "float32", {2, 4, 6, 16}).input("v", "float32", {2, 4, 6, 16});
  h.call("a", "aten._scaled_dot_product_flash_attention_for_cpu.default", "[" + nodes({"q", "k", "v"}) + ", 0.0, false]");
  ASSERT_TRUE(h.run()) << h.error();
  ASSERT_EQ(h.list_size("a"), 2u);
  EXPECT_EQ(h.shape("a", 0), (Ints{2, 4, 8, 16}));
  EXPECT_EQ(h.stride("a", 0), (Ints{512, 128, 16, 1}));
  EXPECT_EQ(h.dtype("a", 0), DType::Float32);
  EXPECT_EQ(h.shape("a", 1), (Ints{2, 4, 8}));
  EXPECT_EQ(h.stride("a", 1), (Ints{32, 1, 4}));
  EXPECT_EQ(h.dtype("a", 1), DType::Float32);
  // a (B, L, H, E) query transposed to (B, H, L, E): the output keeps its strides
  // (torch.randn(2, 8, 4, 16).transpose(1, 2) -> output stride (512, 16, 64, 1))
  PropHarness t;
  t.input("x", "float32", {2, 8, 4, 16}).input("k", "float32", {2, 4, 6, 16}).input("v", "float32", {2, 4, 6, 16});
  t.call("q", "aten.transpose.int", "[" + N("x") + ", 1, 2]");
  t.call("a", "aten._scaled_dot_product_flash_attention_for_cpu.default", "[" + nodes({"q", "k", "v"}) + ", 0.0, false]");
  ASSERT_TRUE(t.run()) << t.error();
  EXPECT_EQ(t.stride("a", 0), (Ints{512, 16, 64, 1}));
}

TEST(FusedAttention, FlashForCpuSymbolicSequence) {
  // L symbolic, contiguous q: output strides (64*L, 16*L, 16, 1), logsumexp (4*L, 1, 4)
  PropHarness h;
  h.input("q", "bfloat16", {2, 4, 8, 16}, {"", "", "L", ""});
  h.input("k", "bfloat16", {2, 4, 6, 16}, {"", "", "S", ""}).input("v", "bfloat16", {2, 4, 6, 16}, {"", "", "S", ""});
  h.call("a", "aten._scaled_dot_product_flash_attention_for_cpu.default", "[" + nodes({"q", "k", "v"}) + ", 0.0, true]");
  ASSERT_TRUE(h.run()) << h.error();
  const std::string L = h.shape_str("q")[2];
  EXPECT_EQ(h.shape_str("a", 0), (Strs{"2", "4", L, "16"}));
  EXPECT_EQ(h.stride_str("a", 0), (Strs{"64*" + L, "16*" + L, "16", "1"}));
  EXPECT_EQ(h.dtype("a", 0), DType::BFloat16);
  EXPECT_EQ(h.stride_str("a", 1), (Strs{"4*" + L, "1", "4"}));
  EXPECT_EQ(h.dtype("a", 1), DType::Float32);
}

// scaled_dot_product_attention's output layout follows PyTorch 2.x's CPU backend choice
// (sdp::select_sdp_backend_cpp): flash -> empty_like(query), math -> contiguous. Reference
// strides: F.scaled_dot_product_attention on CPU tensors, PyTorch 2.13.0 and 2.14.1 (equal
// for these; the graphs name no release, so 2.14's rules apply), B, H, L, S, E = 2, 3, 5, 7,
// 4; the BLHE query is torch.randn(2, 5, 3, 4).transpose(1, 2) (strides 60, 4, 12, 1).
struct SdpaCase {
  const char* name;
  Ints q_stride, k_shape, v_shape;
  const char* extra;    // args after q, k, v
  const char* kwargs;
  Ints mask_shape;      // empty: none (attr "m", contiguous, float32)
  Ints expect_stride;
};

TEST(FusedAttention, SdpaOutputFollowsCpuBackendChoice) {
  const Ints blhe{60, 4, 12, 1}, contig{60, 20, 4, 1};
  const SdpaCase cases[] = {
      {"contiguous q: flash, empty_like", contig, {2, 3, 7, 4}, {2, 3, 7, 4}, "", "{}", {}, contig},
      {"BLHE q: flash keeps it", blhe, {2, 3, 7, 4}, {2, 3, 7, 4}, "", "{}", {}, blhe},
      {"dropout: math", blhe, {2, 3, 7, 4}, {2, 3, 7, 4}, ", null, 0.5", "{}", {}, contig},
      {"2-d mask: flash", blhe, {2, 3, 7, 4}, {2, 3, 7, 4}, ", " , "{}", {5, 7}, blhe},
      {"3-d mask: math", blhe, {2, 3, 7, 4}, {2, 3, 7, 4}, ", ", "{}", {3, 5, 7}, contig},
      {"4-d mask (2, 1, 5, 7): flash", blhe, {2, 3, 7, 4}, {2, 3, 7, 4}, ", ", "{}", {2, 1, 5, 7}, blhe},
      {"key batch 1: math", blhe, {1, 3, 7, 4}, {1, 3, 7, 4}, "", "{}", {}, contig},
      {"GQA heads 1 with enable_gqa: flash", blhe, {2, 1, 7, 4}, {2, 1, 7, 4}, "",
       R"({"enable_gqa": true})", {}, blhe},
      {"causal: flash", blhe, {2, 3, 7, 4}, {2, 3, 7, 4}, ", null, 0.0, true", "{}", {}, blhe},
  };
  for (const SdpaCase& c : cases) {
    PropHarness h;
    h.attr("q", "float32", {2, 3, 5, 4}, c.q_stride).input("k", "float32", c.k_shape).input("v", "float32", c.v_shape);
    std::string args = "[" + nodes({"q", "k", "v"});
    if (!c.mask_shape.empty()) {
      Ints st(c.mask_shape.size(), 1);
      for (size_t i = st.size() - 1; i > 0; --i) st[i - 1] = st[i] * c.mask_shape[i];
      h.attr("m", "float32", c.mask_shape, st);
      args += ", " + N("m");
    } else {
      args += c.extra;
    }
    h.call("a", "aten.scaled_dot_product_attention.default", args + "]", c.kwargs);
    ASSERT_TRUE(h.run()) << c.name << ": " << h.error();
    EXPECT_EQ(h.shape("a"), (Ints{2, 3, 5, 4})) << c.name;
    EXPECT_EQ(h.stride("a"), c.expect_stride) << c.name;
  }
  // value head dim 6 != 4: math, contiguous (2, 3, 5, 6) = (90, 30, 6, 1)
  PropHarness ev;
  ev.attr("q", "float32", {2, 3, 5, 4}, blhe).input("k", "float32", {2, 3, 7, 4}).input("v", "float32", {2, 3, 7, 6});
  ev.call("a", "aten.scaled_dot_product_attention.default", "[" + nodes({"q", "k", "v"}) + "]");
  ASSERT_TRUE(ev.run()) << ev.error();
  EXPECT_EQ(ev.stride("a"), (Ints{90, 30, 6, 1}));
  // 3-d inputs: 2.13 math, contiguous; 2.14 gives them a batch of 1 and runs flash: q's layout
  for (const char* version : {"2.13.0+cpu", "2.14.1+cu130"}) {
    PropHarness r3;
    r3.producer_torch(version);
    r3.attr("q", "float32", {2, 5, 4}, {4, 8, 1}).input("k", "float32", {2, 7, 4}).input("v", "float32", {2, 7, 4});
    r3.call("a", "aten.scaled_dot_product_attention.default", "[" + nodes({"q", "k", "v"}) + "]");
    ASSERT_TRUE(r3.run()) << r3.error();
    EXPECT_EQ(r3.stride("a"), std::string(version) < "2.14" ? (Ints{20, 4, 1}) : (Ints{4, 8, 1})) << version;
  }
}

// PyTorch 2.14's CPU flash selection (sdp_utils_cpp.h): key / value heads of 1 broadcast
// against the query's (`supports_mqa`), and unbatched 3-d inputs get a leading batch of 1
// (`normalize_unbatched_input`, the mask too); 2.13 runs the math path (a contiguous result)
// for both. Reference strides: eager CPU, 2.13.0+cpu and 2.14.1+cu130.
struct SdpaVersionCase {
  const char* name;
  Ints q_shape, q_stride, k_shape;
  Ints mask_shape;  // empty: none
  const char* kwargs;
  Ints stride_2_13, stride_2_14;
};

TEST(FusedAttention, SdpaFlashForBroadcastHeadsAndUnbatchedIn2_14) {
  const SdpaVersionCase cases[] = {
      // timm mobilenetv4_hybrid at an 8x8 image: query length 1, one key / value head
      {"one kv head, L = 1", {2, 4, 1, 64}, {256, 64, 1, 1}, {2, 1, 1, 64}, {}, "{}", {256, 64, 64, 1},
       {256, 64, 1, 1}},
      {"one kv head, BLHE q", {2, 4, 3, 8}, {96, 8, 32, 1}, {2, 1, 5, 8}, {}, "{}", {96, 24, 8, 1}, {96, 8, 32, 1}},
      {"one kv head, 4-d mask", {2, 4, 3, 8}, {96, 8, 32, 1}, {2, 1, 5, 8}, {2, 4, 3, 5}, "{}", {96, 24, 8, 1},
       {96, 8, 32, 1}},
      {"one kv head, batch 1 key: math", {2, 4, 3, 8}, {96, 8, 32, 1}, {1, 1, 5, 8}, {}, "{}", {96, 24, 8, 1},
       {96, 24, 8, 1}},
      {"one kv head with enable_gqa: flash in both", {2, 4, 3, 8}, {96, 8, 32, 1}, {2, 1, 5, 8}, {},
       R"({"enable_gqa": true})", {96, 8, 32, 1}, {96, 8, 32, 1}},
      {"3-d", {4, 3, 8}, {8, 32, 1}, {4, 5, 8}, {}, "{}", {24, 8, 1}, {8, 32, 1}},
      {"3-d, key batch 1 (a head of 1 once unsqueezed)", {4, 3, 8}, {8, 32, 1}, {1, 5, 8}, {}, "{}", {24, 8, 1},
       {8, 32, 1}},
      {"3-d, 2-d mask", {4, 3, 8}, {8, 32, 1}, {4, 5, 8}, {3, 5}, "{}", {24, 8, 1}, {8, 32, 1}},
      {"3-d, 3-d mask", {4, 3, 8}, {8, 32, 1}, {4, 5, 8}, {4, 3, 5}, "{}", {24, 8, 1}, {8, 32, 1}},
      {"3-d, sliced q", {4, 3, 8}, {8, 64, 1}, {4, 5, 8}, {}, "{}", {24, 8, 1}, {8, 32, 1}},
      {"3-d, L = 1", {4, 1, 8}, {8, 1, 1}, {4, 5, 8}, {}, "{}", {8, 8, 1}, {8, 1, 1}},
  };
  for (const SdpaVersionCase& c : cases) {
    for (const char* version : {"2.13.0+cpu", "2.14.1+cu130"}) {
      const bool v2_14 = std::string(version) >= "2.14";
      PropHarness h;
      h.producer_torch(version);
      h.attr("q", "float32", c.q_shape, c.q_stride).input("k", "float32", c.k_shape).input("v", "float32", c.k_shape);
      std::string args = "[" + nodes({"q", "k", "v"});
      if (!c.mask_shape.empty()) {
        Ints st(c.mask_shape.size(), 1);
        for (size_t i = st.size() - 1; i > 0; --i) st[i - 1] = st[i] * c.mask_shape[i];
        h.attr("m", "float32", c.mask_shape, st);
        args += ", " + N("m");
      }
      h.call("a", "aten.scaled_dot_product_attention.default", args + "]", c.kwargs);
      ASSERT_TRUE(h.run()) << c.name << " " << version << ": " << h.error();
      EXPECT_EQ(h.shape("a"), c.q_shape) << c.name << " " << version;
      EXPECT_EQ(h.stride("a"), v2_14 ? c.stride_2_14 : c.stride_2_13) << c.name << " " << version;
    }
  }
}

TEST(FusedAttention, SdpaBroadcastHeadsGuardsIn2_14) {
  // symbolic heads: 2.14's supports_mqa asks `q_num_heads > 0`, `k_num_heads == 1`,
  // `v_num_heads == 1` after `same_num_heads` failed; a key head of 1 decides statically
  PropHarness h;
  h.producer_torch("2.14.1");
  h.input("q", "float32", {2, 4, 3, 8}, {"", "H", "", ""}).input("k", "float32", {2, 1, 5, 8});
  h.input("v", "float32", {2, 1, 5, 8});
  h.call("a", "aten.scaled_dot_product_attention.default", "[" + nodes({"q", "k", "v"}) + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("a"), (Ints{96, 24, 8, 1}));
  // same_num_heads: H == 1 is false (H >= 2), nothing else is asked of H
  EXPECT_TRUE(h.env().guards().empty());
}

TEST(FusedAttention, SdpaSymbolicTimmLayoutAndGuards) {
  // timm's fused attention: qkv (B, N, 3, H, D) permuted (2, 0, 3, 1, 4) and unbound, so q is
  // a non-dense (B, H, N, D) view with strides (3*N*H*D, D, 3*H*D, 1); flash's empty_like
  // gives dense strides in its order (N*H*D, D, H*D, 1) (2.14: vit_tiny at 32x32, B dynamic:
  // output stride (960, 64, 192, 1) for N = 5, H = 3, D = 64). Same symbols everywhere: the
  // selection decides statically, no guard.
  PropHarness h;
  h.input("x", "float32", {2, 5, 3, 3, 8}, {"B", "N", "", "", ""});
  h.call("p", "aten.permute.default", "[" + N("x") + ", [2, 0, 3, 1, 4]]");
  h.call("u", "aten.unbind.int", "[" + N("p") + ", 0]");
  h.call("q", "operator.getitem", "[" + N("u") + ", 0]");
  h.call("k", "operator.getitem", "[" + N("u") + ", 1]");
  h.call("v", "operator.getitem", "[" + N("u") + ", 2]");
  h.call("a", "aten.scaled_dot_product_attention.default", "[" + nodes({"q", "k", "v"}) + "]");
  ASSERT_TRUE(h.run()) << h.error();
  const std::string N_ = h.shape_str("x")[1];
  EXPECT_EQ(h.stride_str("a"), (Strs{"24*" + N_, "8", "24", "1"}));
  EXPECT_TRUE(h.env().guards().empty());
  // a symbolic value head dim against a symbolic query head dim: check_head_dim_size_cpp's
  // question is a guard (PyTorch 2.13 FakeTensorMode records Ne(s47, s48) at 4 vs 6)
  PropHarness g;
  g.input("q", "float32", {2, 3, 5, 4}, {"", "", "", "E"}).input("k", "float32", {2, 3, 7, 4}, {"", "", "", "E"});
  g.input("v", "float32", {2, 3, 7, 6}, {"", "", "", "Ev"});
  g.call("a", "aten.scaled_dot_product_attention.default", "[" + nodes({"q", "k", "v"}) + "]");
  ASSERT_TRUE(g.run()) << g.error();
  EXPECT_EQ(g.stride("a"), (Ints{90, 30, 6, 1}));
  EXPECT_EQ(g.env().guards().size(), 1u);
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

namespace symshape::test {
namespace {

TEST(WeightNorm, ContiguousBroadcastResult) {
  // aten._weight_norm.default, PyTorch 2.13 / 2.14 CPU and FakeTensor: the result is
  // contiguous whatever v's layout (v.contiguous() first), dtype promote(v, g) on the math
  // path; the fused path (dim 0 or v.dim() - 1, no float16) needs one dtype.
  struct Case {
    const char* name;
    Ints v_shape, v_stride;
    const char* v_dtype;
    Ints g_shape;
    const char* g_dtype;
    int dim;
    Ints expect_stride;
    DType expect_dtype;
  };
  const Case cases[] = {
      {"wav2vec2 pos conv, dim 2 (fused)", {32, 8, 16}, {128, 16, 1}, "float32", {1, 1, 16}, "float32", 2,
       {128, 16, 1}, DType::Float32},
      {"permuted v, dim 0", {32, 8, 16}, {1, 32, 256}, "float32", {32, 1, 1}, "float32", 0, {128, 16, 1},
       DType::Float32},
      {"permuted v, dim 1 (math)", {32, 8, 16}, {1, 32, 256}, "float32", {1, 8, 1}, "float32", 1, {128, 16, 1},
       DType::Float32},
      {"channels_last v, dim 1", {4, 3, 5, 6}, {90, 1, 18, 3}, "float32", {1, 3, 1, 1}, "float32", 1,
       {90, 30, 6, 1}, DType::Float32},
      {"float16 dim 0 (math)", {32, 8, 16}, {128, 16, 1}, "float16", {32, 1, 1}, "float16", 0, {128, 16, 1},
       DType::Float16},
      {"float32 v, float64 g, dim 1 (math)", {32, 8, 16}, {128, 16, 1}, "float32", {1, 8, 1}, "float64", 1,
       {128, 16, 1}, DType::Float64},
  };
  for (const Case& c : cases) {
    PropHarness h;
    Ints gst(c.g_shape.size(), 1);
    for (size_t i = gst.size() - 1; i > 0; --i) gst[i - 1] = gst[i] * c.g_shape[i];
    h.attr("v", c.v_dtype, c.v_shape, c.v_stride).attr("g", c.g_dtype, c.g_shape, gst);
    h.call("w", "aten._weight_norm.default", "[" + N("v") + ", " + N("g") + ", " + std::to_string(c.dim) + "]");
    ASSERT_TRUE(h.run()) << c.name << ": " << h.error();
    EXPECT_EQ(h.shape("w"), c.v_shape) << c.name;
    EXPECT_EQ(h.stride("w"), c.expect_stride) << c.name;
    EXPECT_EQ(h.dtype("w"), c.expect_dtype) << c.name;
  }
  // fused path with mixed dtypes: "expected scalar type Double but found Float"
  PropHarness bad;
  bad.attr("v", "float64", {32, 8, 16}, {128, 16, 1}).attr("g", "float32", {32, 1, 1}, {1, 1, 1});
  bad.call("w", "aten._weight_norm.default", "[" + N("v") + ", " + N("g") + ", 0]");
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(), "expected scalar type Double but found Float")) << bad.error();
}

TEST(AssertScalar, UnbackedAssertIsDeferredBackedIsChecked) {
  // torch_geometric's add_remaining_self_loops: edge_index[:, row != col] has u0 columns and
  // torch.export leaves `_assert_scalar(u0 >= 0, ...)`: a deferred runtime assert, no error
  PropHarness h;
  h.input("e", "int64", {2, 13}, {"", "E"});
  h.call("r", "aten.select.int", "[" + N("e") + ", 0, 0]");
  h.call("c", "aten.select.int", "[" + N("e") + ", 0, 1]");
  h.call("ne", "aten.ne.Tensor", "[" + N("r") + ", " + N("c") + "]");
  h.call("idx", "aten.index.Tensor", "[" + N("e") + ", [null, " + N("ne") + "]]");
  h.call("u", "aten.sym_size.int", "[" + N("idx") + ", 1]");
  h.call("ge", "operator.ge", "[" + N("u") + ", 0]");
  h.call("a", "aten._assert_scalar.default", "[" + N("ge") + ", \"Runtime assertion failed for expression u0 >= 0\"]");
  h.call("o", "aten.clone.default", "[" + N("idx") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_TRUE(has(h.shape_str("o")[1], "u0")) << h.shape_str("o")[1];
  // a backed size the assert contradicts: the assert's message is the error
  PropHarness f;
  f.input("x", "float32", {4, 3}, {"n", ""});
  f.call("s", "aten.sym_size.int", "[" + N("x") + ", 0]");
  f.call("lt", "operator.lt", "[" + N("s") + ", 2]");
  f.call("a", "aten._assert_scalar.default", "[" + N("lt") + ", \"Runtime assertion failed for expression n < 2\"]");
  f.call("o", "aten.clone.default", "[" + N("x") + "]");
  ASSERT_FALSE(f.run());
  EXPECT_TRUE(has(f.error(), "Runtime assertion failed for expression n < 2")) << f.error();
}

}  // namespace
}  // namespace symshape::test
