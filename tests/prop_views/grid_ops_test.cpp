// Multi-tensor shape helpers: broadcast_tensors, meshgrid, atleast_nd, hsplit / vsplit,
// matrix transposes and bucketize / searchsorted.
#include "views_test_util.h"

namespace symshape::test {
namespace {

TEST(GridOps, BroadcastTensorsExpandsEveryInput) {
  PropHarness h;
  h.input("a", "float32", {3, 1}).input("b", "float32", {4});
  h.call("r", "aten.broadcast_tensors.default", "[[" + N("a") + ", " + N("b") + "]]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("r", 0), (Ints{3, 4}));
  EXPECT_EQ(h.stride("r", 0), (Ints{1, 0}));
  EXPECT_EQ(h.shape("r", 1), (Ints{3, 4}));
  EXPECT_EQ(h.stride("r", 1), (Ints{0, 1}));
}

TEST(GridOps, MeshgridIjAndXy) {
  PropHarness ij;
  ij.input("a", "float32", {3}).input("b", "float32", {5});
  ij.call("g", "aten.meshgrid.indexing", "[[" + N("a") + ", " + N("b") + "], \"ij\"]");
  ASSERT_TRUE(ij.run()) << ij.error();
  EXPECT_EQ(ij.shape("g", 0), (Ints{3, 5}));
  EXPECT_EQ(ij.stride("g", 0), (Ints{1, 0}));
  EXPECT_EQ(ij.stride("g", 1), (Ints{0, 1}));

  PropHarness xy;
  xy.input("a", "float32", {3}).input("b", "float32", {5});
  xy.call("g", "aten.meshgrid.indexing", "[[" + N("a") + ", " + N("b") + "], \"xy\"]");
  ASSERT_TRUE(xy.run()) << xy.error();
  EXPECT_EQ(xy.shape("g", 0), (Ints{5, 3}));
  EXPECT_EQ(xy.stride("g", 0), (Ints{0, 1}));
  EXPECT_EQ(xy.stride("g", 1), (Ints{1, 0}));
}

// torch.export writes meshgrid's keyword-only `indexing` in kwargs (transformers'
// deformable_detr, dinov3_vit); the rule reads it either way.
TEST(GridOps, MeshgridIndexingAsKeyword) {
  PropHarness xy;
  xy.input("a", "float32", {3}).input("b", "float32", {5});
  xy.call("g", "aten.meshgrid.indexing", "[[" + N("a") + ", " + N("b") + "]]", R"({"indexing": "xy"})");
  ASSERT_TRUE(xy.run()) << xy.error();
  EXPECT_EQ(xy.shape("g", 0), (Ints{5, 3}));
  EXPECT_EQ(xy.stride("g", 0), (Ints{0, 1}));
  EXPECT_EQ(xy.stride("g", 1), (Ints{1, 0}));

  PropHarness ij;
  ij.input("a", "float32", {3}).input("b", "float32", {5});
  ij.call("g", "aten.meshgrid.indexing", "[[" + N("a") + ", " + N("b") + "]]", R"({"indexing": "ij"})");
  ASSERT_TRUE(ij.run()) << ij.error();
  EXPECT_EQ(ij.shape("g", 1), (Ints{3, 5}));
  EXPECT_EQ(ij.stride("g", 1), (Ints{0, 1}));

  PropHarness bad;
  bad.input("a", "float32", {3}).input("b", "float32", {5});
  bad.call("g", "aten.meshgrid.indexing", "[[" + N("a") + ", " + N("b") + "]]", R"({"indexing": "yx"})");
  EXPECT_FALSE(bad.run());
  EXPECT_NE(bad.error().find("indexing must be one of \"xy\" or \"ij\", but received: yx"), std::string::npos)
      << bad.error();
}

TEST(GridOps, AtLeastAndHstack) {
  PropHarness a;
  a.input("x", "float32", {4}).call("r", "aten.atleast_3d.default", "[" + N("x") + "]");
  ASSERT_TRUE(a.run()) << a.error();
  EXPECT_EQ(a.shape("r"), (Ints{1, 4, 1}));
  PropHarness h;
  h.input("x", "float32", {2, 3}).input("y", "float32", {2, 4});
  h.call("r", "aten.hstack.default", "[[" + N("x") + ", " + N("y") + "]]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("r"), (Ints{2, 7}));
  PropHarness v;
  v.input("x", "float32", {3}).input("y", "float32", {3});
  v.call("r", "aten.vstack.default", "[[" + N("x") + ", " + N("y") + "]]");
  ASSERT_TRUE(v.run()) << v.error();
  EXPECT_EQ(v.shape("r"), (Ints{2, 3}));
}

TEST(GridOps, HsplitNeedsAnExactDivision) {
  PropHarness ok;
  ok.input("x", "float32", {2, 6}).call("s", "aten.hsplit.int", args("x", "3"));
  ASSERT_TRUE(ok.run()) << ok.error();
  ASSERT_EQ(ok.list_size("s"), 3u);
  EXPECT_EQ(ok.shape("s", 2), (Ints{2, 2}));
  PropHarness bad;
  bad.input("x", "float32", {2, 4}).call("s", "aten.hsplit.int", args("x", "3"));
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(),
                  "torch.hsplit attempted to split along dimension 1, but the size of the dimension 4 is not divisible by "
                  "the split_size 3!"))
      << bad.error();
}

TEST(GridOps, MatrixTransposes) {
  PropHarness m;
  m.input("x", "float32", {2, 3, 4}).call("t", "aten.mT.default", "[" + N("x") + "]");
  ASSERT_TRUE(m.run()) << m.error();
  EXPECT_EQ(m.shape("t"), (Ints{2, 4, 3}));
  EXPECT_EQ(m.stride("t"), (Ints{12, 1, 4}));
  PropHarness n;
  n.input("x", "float32", {2, 3, 4}).call("t", "aten.numpy_T.default", "[" + N("x") + "]");
  ASSERT_TRUE(n.run()) << n.error();
  EXPECT_EQ(n.shape("t"), (Ints{4, 3, 2}));
  EXPECT_EQ(n.stride("t"), (Ints{1, 4, 12}));
  PropHarness bad;
  bad.input("x", "float32", {3}).call("t", "aten.mT.default", "[" + N("x") + "]");
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(), "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")) << bad.error();
}

TEST(GridOps, BucketizeAndSearchsorted) {
  PropHarness b;
  b.input("x", "float32", {2, 5}).input("bd", "float32", {4});
  b.call("r", "aten.bucketize.Tensor", "[" + N("x") + ", " + N("bd") + "]", R"({"out_int32": true})");
  ASSERT_TRUE(b.run()) << b.error();
  EXPECT_EQ(b.shape("r"), (Ints{2, 5}));
  EXPECT_EQ(b.dtype("r"), DType::Int32);
  PropHarness s;
  s.input("seq", "float32", {2, 4}).input("x", "float32", {3, 5});
  s.call("r", "aten.searchsorted.Tensor", "[" + N("seq") + ", " + N("x") + "]");
  ASSERT_FALSE(s.run());
  EXPECT_TRUE(has(s.error(), "boundaries tensor should be 1 dimension or the first N-1 dimensions")) << s.error();
}

}  // namespace
}  // namespace symshape::test
