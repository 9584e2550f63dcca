// Matrix-product behaviours (behaviours.md 248-252, 282, 283) and the eager 1.13
// decomposition of matmul that decides which kernel reports a mismatch.
#include "one_op_graph.h"

namespace symshape::test {
namespace {

struct Outcome {
  bool ok;
  Shape shape;
  std::string message;
};

Outcome binary(const std::string& target, Shape a, Shape b, Shape a_stride = {}) {
  OneOpGraph g;
  g.attr("a", a, a_stride).attr("b", b);
  g.call(target, R"([{"node": "a"}, {"node": "b"}])");
  Outcome o;
  o.ok = g.run(&o.message);
  if (o.ok) o.shape = g.result().shape;
  return o;
}

TEST(MatmulBehaviours, B248_RankCombinations) {
  struct Case {
    Shape a, b, out;
  };
  const Case cases[] = {
      {{3}, {3}, {}},
      {{2, 3}, {3}, {2}},
      {{3}, {3, 4}, {4}},
      {{2, 3}, {3, 4}, {2, 4}},
      {{5, 2, 3}, {3}, {5, 2}},
      {{3}, {5, 3, 4}, {5, 4}},
      {{5, 1, 2, 3}, {4, 3, 6}, {5, 4, 2, 6}},
      {{2, 3}, {5, 3, 4}, {5, 2, 4}},
  };
  for (const Case& c : cases) {
    const Outcome o = binary("aten.matmul.default", c.a, c.b);
    ASSERT_TRUE(o.ok) << o.message;
    EXPECT_EQ(o.shape, c.out);
  }
  EXPECT_FALSE(binary("aten.matmul.default", {3}, {4}).ok);
  const Outcome bad = binary("aten.matmul.default", {2, 2, 3}, {4, 3, 6});
  ASSERT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("must match the size of tensor b"), std::string::npos) << bad.message;
}

TEST(MatmulBehaviours, B248_FoldedResultIsContiguous) {
  OneOpGraph g;
  g.attr("a", {5, 2, 3}).attr("b", {3, 4});
  g.call("aten.matmul.default", R"([{"node": "a"}, {"node": "b"}])");
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.result().stride, (Shape{8, 4, 1}));
}

TEST(MatmulBehaviours, B249_MmErrors) {
  const Outcome o = binary("aten.mm.default", {2, 3}, {4, 4});
  ASSERT_FALSE(o.ok);
  EXPECT_NE(o.message.find("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x4)"), std::string::npos) << o.message;
  const Outcome v = binary("aten.mm.default", {3}, {3, 4});
  ASSERT_FALSE(v.ok);
  EXPECT_NE(v.message.find("self must be a matrix"), std::string::npos) << v.message;
}

TEST(MatmulBehaviours, B250_Bmm) {
  EXPECT_EQ(binary("aten.bmm.default", {5, 2, 3}, {5, 3, 4}).shape, (Shape{5, 2, 4}));
  const Outcome b = binary("aten.bmm.default", {5, 2, 3}, {4, 3, 4});
  EXPECT_NE(b.message.find("Expected size for first two dimensions of batch2 tensor to be: [5, 3] but got: [4, 3]."),
            std::string::npos)
      << b.message;
  const Outcome k = binary("aten.bmm.default", {5, 2, 3}, {5, 4, 4});
  EXPECT_NE(k.message.find("to be: [5, 3] but got: [5, 4]."), std::string::npos) << k.message;
}

Outcome ternary(const std::string& target, Shape s, Shape a, Shape b) {
  OneOpGraph g;
  g.attr("s", s).attr("a", a).attr("b", b);
  g.call(target, R"([{"node": "s"}, {"node": "a"}, {"node": "b"}])");
  Outcome o;
  o.ok = g.run(&o.message);
  if (o.ok) o.shape = g.result().shape;
  return o;
}

TEST(MatmulBehaviours, B251_AddmmAndBaddbmm) {
  EXPECT_EQ(ternary("aten.addmm.default", {4}, {2, 3}, {3, 4}).shape, (Shape{2, 4}));
  EXPECT_EQ(ternary("aten.addmm.default", {2, 1}, {2, 3}, {3, 4}).shape, (Shape{2, 4}));
  const Outcome bad = ternary("aten.addmm.default", {3, 4}, {2, 3}, {3, 4});
  ASSERT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
                             "dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 4]"),
            std::string::npos)
      << bad.message;
  EXPECT_EQ(ternary("aten.baddbmm.default", {1, 2, 4}, {5, 2, 3}, {5, 3, 4}).shape, (Shape{5, 2, 4}));
}

TEST(MatmulBehaviours, B252_Linear) {
  {
    OneOpGraph g;
    g.attr("x", {7, 5, 3}).attr("w", {4, 3}).attr("b", {4});
    g.call("aten.linear.default", R"([{"node": "x"}, {"node": "w"}, {"node": "b"}])");
    ASSERT_TRUE(g.run());
    const TensorResult r = g.result();
    EXPECT_EQ(r.shape, (Shape{7, 5, 4}));
    EXPECT_EQ(r.stride, (Shape{20, 4, 1}));
  }
  {
    OneOpGraph g;
    g.attr("x", {3}).attr("w", {4, 3});
    g.call("aten.linear.default", R"([{"node": "x"}, {"node": "w"}, null])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, (Shape{4}));
  }
  {
    OneOpGraph g;
    g.attr("x", {7, 5}).attr("w", {4, 3});
    g.call("aten.linear.default", R"([{"node": "x"}, {"node": "w"}, null])");
    std::string msg;
    ASSERT_FALSE(g.run(&msg));
    EXPECT_NE(msg.find("mat1 and mat2 shapes cannot be multiplied (7x5 and 3x4)"), std::string::npos) << msg;
  }
}

TEST(MatmulBehaviours, TransposedBatchInputGoesThroughBmm) {
  // mlp_mixer: a (1, 64, 100) input with transposed last dims is not folded into mm,
  // so the mismatch is reported by bmm
  OneOpGraph g;
  g.attr("x", {1, 64, 100}, {6400, 1, 64}).attr("w", {128, 64}).attr("b", {128});
  g.call("aten.linear.default", R"([{"node": "x"}, {"node": "w"}, {"node": "b"}])");
  std::string msg;
  ASSERT_FALSE(g.run(&msg));
  EXPECT_NE(msg.find("Expected size for first two dimensions of batch2 tensor to be: [1, 100] but got: [1, 64]."),
            std::string::npos)
      << msg;
}

Outcome einsum(const std::string& eq, std::vector<Shape> shapes, TensorResult* r = nullptr,
               std::vector<Shape> strides = {}, const std::string& producer_torch = "") {
  OneOpGraph g;
  if (!producer_torch.empty()) g.producer_torch(producer_torch);
  std::string ops;
  for (size_t i = 0; i < shapes.size(); ++i) {
    g.attr(fmt::format("t{}", i), shapes[i], i < strides.size() ? strides[i] : Shape{});
    ops += fmt::format(R"({}{{"node": "t{}"}})", i ? ", " : "", i);
  }
  g.call("aten.einsum.default", fmt::format(R"(["{}", [{}]])", eq, ops));
  Outcome o;
  o.ok = g.run(&o.message);
  if (o.ok) {
    o.shape = g.result().shape;
    if (r) *r = g.result();
  }
  return o;
}

TEST(EinsumBehaviours, B282_Equations) {
  EXPECT_EQ(einsum("bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}).shape, (Shape{2, 3, 5}));
  EXPECT_EQ(einsum("ij,jk", {{3, 4}, {4, 5}}).shape, (Shape{3, 5}));
  TensorResult r;
  ASSERT_TRUE(einsum("...ij->...ji", {{2, 3, 4, 5}}, &r).ok);
  EXPECT_EQ(r.shape, (Shape{2, 3, 5, 4}));
  EXPECT_EQ(r.stride, (Shape{60, 20, 1, 5}));
  EXPECT_EQ(einsum("ij,ij->i", {{3, 1}, {1, 4}}).shape, (Shape{3}));
  EXPECT_EQ(einsum("ii", {{3, 3}}).shape, (Shape{}));
  const Outcome bad = einsum("ij,jk->ik", {{3, 4}, {5, 6}});
  ASSERT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("einsum(): subscript j has size 5 for operand 1 which does not broadcast with previously "
                             "seen size 4"),
            std::string::npos)
      << bad.message;
}

TEST(EinsumBehaviours, AttentionScoresStridesAsEager) {
  // maxvit: 'B G H I D, B G H J D -> B G H I J' with B = 1; eager's final view gives the
  // size-1 batch dim the stride of the whole block
  TensorResult r;
  ASSERT_TRUE(einsum("B G H I D, B G H J D -> B G H I J", {{1, 64, 2, 49, 32}, {1, 64, 2, 49, 32}}, &r).ok);
  EXPECT_EQ(r.shape, (Shape{1, 64, 2, 49, 49}));
  EXPECT_EQ(r.stride, (Shape{307328, 4802, 2401, 49, 1}));
}

TEST(EinsumBehaviours, MambaSsdStatesSwapOperandsIn2x) {
  // falcon_h1 / NemotronH's Mamba-2 SSD 'bclhn,bclhp->bchpn' (chunks c = 1): sumproduct_pair
  // puts n (left only) in lo and c, p (right only; c is size 1) in ro; every ro dim comes
  // before lo's, so 2.x swaps the bmm's operands and the result is (b, c, h, p, n) in
  // memory; 1.13 keeps (b, h, n, p) from bmm(left, right)
  const std::vector<Shape> shapes{{2, 1, 256, 128, 256}, {2, 1, 256, 128, 8}};
  const std::vector<Shape> strides{{8388608, 8388608, 32768, 256, 1}, {262144, 256, 1, 2048, 256}};
  TensorResult r;
  ASSERT_TRUE(einsum("bclhn,bclhp->bchpn", shapes, &r, strides, "2.14.1").ok);
  EXPECT_EQ(r.shape, (Shape{2, 1, 128, 8, 256}));
  EXPECT_EQ(r.stride, (Shape{262144, 262144, 2048, 256, 1}));
  ASSERT_TRUE(einsum("bclhn,bclhp->bchpn", shapes, &r, strides, "1.13.1").ok);
  EXPECT_EQ(r.stride, (Shape{262144, 262144, 2048, 1, 8}));
  // no ro dim before lo's: no swap in either
  ASSERT_TRUE(einsum("ij,jk->ik", {{3, 4}, {4, 5}}, &r, {}, "2.13.0").ok);
  EXPECT_EQ(r.stride, (Shape{5, 1}));
  ASSERT_TRUE(einsum("ij,jk->ki", {{3, 4}, {4, 5}}, &r, {}, "2.13.0").ok);
  EXPECT_EQ(r.stride, (Shape{3, 1}));
  ASSERT_TRUE(einsum("ij,jk->ki", {{3, 4}, {4, 5}}, &r, {}, "1.13.1").ok);
  EXPECT_EQ(r.stride, (Shape{1, 5}));
}

TEST(AttentionBehaviours, B283_Sdpa) {
  OneOpGraph g;
  g.attr("q", {2, 8, 10, 64}).attr("k", {2, 8, 12, 64}).attr("v", {2, 8, 12, 32});
  g.call("aten.scaled_dot_product_attention.default",
         R"([{"node": "q"}, {"node": "k"}, {"node": "v"}, null, 0.0, false])");
  ASSERT_TRUE(g.run());
  EXPECT_EQ(g.result().shape, (Shape{2, 8, 10, 32}));
}

}  // namespace
}  // namespace symshape::test

namespace symshape::test {
namespace {

TEST(MatmulBehaviours, TensordotAndInner) {
  {
    OneOpGraph g;
    g.attr("a", {3, 4, 5}).attr("b", {4, 5, 6});
    g.call("aten.tensordot.default", R"([{"node": "a"}, {"node": "b"}, [1, 2], [0, 1]])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, (Shape{3, 6}));
  }
  {
    OneOpGraph g;
    g.attr("a", {2, 3}).attr("b", {4, 3});
    g.call("aten.inner.default", R"([{"node": "a"}, {"node": "b"}])");
    ASSERT_TRUE(g.run());
    EXPECT_EQ(g.result().shape, (Shape{2, 4}));
  }
}

}  // namespace
}  // namespace symshape::test
