// Behaviours 219 (expanded strides), 234-238 (permute, transpose, t, expand, repeat,
// squeeze, unsqueeze) and movedim, through real graphs and the propagation driver.
#include "views_test_util.h"

namespace symshape::test {
namespace {

TEST(DimOps, B219_ExpandGivesZeroStrides) {
  PropHarness h;
  h.input("x", "float32", {3, 1}).call("e", "aten.expand.default", args("x", "[3, 4]"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("e"), (Ints{3, 4}));
  EXPECT_EQ(h.stride("e"), (Ints{1, 0}));
  EXPECT_TRUE(h.same_storage("e", "x"));
}

// FakeTensorMode runs torch._refs.expand (prims.broadcast_in_dim): a new dim left size 1
// takes the input's outermost extent, strides[0] * sizes[0] (1 for a 0-dim input), where
// eager's inferExpandGeometry repeats the next dim's extent (0 behind an expanded dim).
// Measured with 2.13 under the Python dispatcher: (4,) -> [1, 3, 4] is (4, 0, 1) there,
// (0, 0, 1) in eager; () -> [1, 3] is (1, 0) against (0, 0).
TEST(DimOps, ExpandNewSizeOneDimUnderFakeStrides) {
  for (const bool fake : {false, true}) {
    PropHarness h;
    if (fake) h.fake_strides();
    h.input("x", "float32", {4}).input("y", "float32", {1, 4}).input("z", "float32", {});
    h.call("a", "aten.expand.default", args("x", "[1, 3, 4]"));
    h.call("b", "aten.expand.default", args("y", "[2, 1, 3, 4]"));
    h.call("c", "aten.expand.default", args("z", "[1, 3]"));
    h.call("d", "aten.expand.default", args("x", "[1, 1, 4]"));
    ASSERT_TRUE(h.run()) << h.error();
    EXPECT_EQ(h.stride("a"), fake ? (Ints{4, 0, 1}) : (Ints{0, 0, 1}));
    EXPECT_EQ(h.stride("b"), fake ? (Ints{0, 4, 0, 1}) : (Ints{0, 0, 0, 1}));
    EXPECT_EQ(h.stride("c"), fake ? (Ints{1, 0}) : (Ints{0, 0}));
    EXPECT_EQ(h.stride("d"), (Ints{4, 4, 1}));
  }
}

TEST(DimOps, B234_PermuteChecks) {
  PropHarness dup;
  dup.input("x", "float32", {2, 3}).call("p", "aten.permute.default", args("x", "[0, 0]"));
  ASSERT_FALSE(dup.run());
  EXPECT_TRUE(has(dup.error(), "permute(): duplicate dims are not allowed.")) << dup.error();
  PropHarness len;
  len.input("x", "float32", {2, 3}).call("p", "aten.permute.default", args("x", "[0]"));
  ASSERT_FALSE(len.run());
  EXPECT_TRUE(has(len.error(), "input.dim() = 2 is not equal to len(dims) = 1")) << len.error();
  PropHarness ok;
  ok.input("x", "float32", {2, 3, 4}).call("p", "aten.permute.default", args("x", "[2, 0, -2]"));
  ASSERT_TRUE(ok.run()) << ok.error();
  EXPECT_EQ(ok.shape("p"), (Ints{4, 2, 3}));
  EXPECT_EQ(ok.stride("p"), (Ints{1, 12, 4}));
}

TEST(DimOps, B235_TransposeAndT) {
  PropHarness tr;
  tr.input("x", "float32", {2, 3, 4}).call("t", "aten.transpose.int", args("x", "0, 2"));
  ASSERT_TRUE(tr.run()) << tr.error();
  EXPECT_EQ(tr.shape("t"), (Ints{4, 3, 2}));
  EXPECT_EQ(tr.stride("t"), (Ints{1, 4, 12}));
  PropHarness bad;
  bad.input("x", "float32", {2, 3, 4}).call("t", "aten.t.default", "[" + N("x") + "]");
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(), "t() expects a tensor with <= 2 dimensions, but self is 3D")) << bad.error();
  PropHarness one;
  one.input("x", "float32", {5}).call("t", "aten.t.default", "[" + N("x") + "]");
  ASSERT_TRUE(one.run()) << one.error();
  EXPECT_EQ(one.shape("t"), (Ints{5}));
  EXPECT_EQ(one.stride("t"), (Ints{1}));
}

TEST(DimOps, B236_Expand) {
  PropHarness lead;
  lead.input("x", "float32", {3, 1}).call("e", "aten.expand.default", args("x", "[2, 3, 4]"));
  ASSERT_TRUE(lead.run()) << lead.error();
  EXPECT_EQ(lead.shape("e"), (Ints{2, 3, 4}));
  EXPECT_EQ(lead.stride("e"), (Ints{0, 1, 0}));
  PropHarness keep;
  keep.input("x", "float32", {3, 1}).call("e", "aten.expand.default", args("x", "[-1, 4]"));
  ASSERT_TRUE(keep.run()) << keep.error();
  EXPECT_EQ(keep.shape("e"), (Ints{3, 4}));
  EXPECT_EQ(keep.stride("e"), (Ints{1, 0}));
  PropHarness bad;
  bad.input("x", "float32", {3, 1}).call("e", "aten.expand.default", args("x", "[4, 4]"));
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(),
                  "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 0.  "
                  "Target sizes: [4, 4].  Tensor sizes: [3, 1]"))
      << bad.error();
  PropHarness neg;
  neg.input("x", "float32", {3, 1}).call("e", "aten.expand.default", args("x", "[-1, 3, 4]"));
  ASSERT_FALSE(neg.run());
  EXPECT_TRUE(has(neg.error(), "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"))
      << neg.error();
}

TEST(DimOps, SymbolicExpandKeepsSymbolsWithoutGuards) {
  PropHarness h;
  h.input("x", "float32", {3, 1}, {"a", ""}).input("y", "float32", {3, 5}, {"a", "b"});
  h.call("n", "aten.sym_size.int", args("y", "1")).call("e", "aten.expand.default", args("x", "[2, -1, " + N("n") + "]"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("e"), (Strs{"2", "a", "b"}));
  EXPECT_EQ(h.stride_str("e"), (Strs{"0", "1", "0"}));
  EXPECT_TRUE(h.env().guards().empty()) << h.env().format_guards();
}

TEST(DimOps, B237_Repeat) {
  PropHarness ok;
  ok.input("x", "float32", {2, 3}).call("r", "aten.repeat.default", args("x", "[2, 1, 2]"));
  ASSERT_TRUE(ok.run()) << ok.error();
  EXPECT_EQ(ok.shape("r"), (Ints{2, 2, 6}));
  EXPECT_EQ(ok.stride("r"), (Ints{12, 6, 1}));
  EXPECT_FALSE(ok.same_storage("r", "x"));
  PropHarness bad;
  bad.input("x", "float32", {2, 3}).call("r", "aten.repeat.default", args("x", "[2]"));
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(
      has(bad.error(), "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"))
      << bad.error();
}

TEST(DimOps, B238_SqueezeUnsqueeze) {
  PropHarness all;
  all.input("x", "float32", {1, 3, 1, 2}).call("s", "aten.squeeze.default", "[" + N("x") + "]");
  ASSERT_TRUE(all.run()) << all.error();
  EXPECT_EQ(all.shape("s"), (Ints{3, 2}));
  EXPECT_EQ(all.stride("s"), (Ints{2, 1}));
  PropHarness keep;
  keep.input("x", "float32", {1, 3, 1, 2}).call("s", "aten.squeeze.dim", args("x", "1"));
  ASSERT_TRUE(keep.run()) << keep.error();
  EXPECT_EQ(keep.shape("s"), (Ints{1, 3, 1, 2}));
  PropHarness un;
  un.input("x", "float32", {2, 3}).call("u", "aten.unsqueeze.default", args("x", "-1"));
  ASSERT_TRUE(un.run()) << un.error();
  EXPECT_EQ(un.shape("u"), (Ints{2, 3, 1}));
  EXPECT_EQ(un.stride("u"), (Ints{3, 1, 1}));
  PropHarness mid;
  mid.input("x", "float32", {2, 3}).call("u", "aten.unsqueeze.default", args("x", "1"));
  ASSERT_TRUE(mid.run()) << mid.error();
  EXPECT_EQ(mid.stride("u"), (Ints{3, 3, 1}));  // size[1] * stride[1] of the following dim
  PropHarness bad;
  bad.input("x", "float32", {2, 3}).call("u", "aten.unsqueeze.default", args("x", "3"));
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(), "Dimension out of range (expected to be in range of [-3, 2], but got 3)")) << bad.error();
}

// In-place metadata changes mutate the tensor itself: the result is self, and a later
// reader of the mutated node sees the new geometry (transformers' BigBird: `mask.unsqueeze_(2)`,
// then the mask used by name); a view taken before keeps its own.
TEST(DimOps, InPlaceUnsqueezeMutatesTheTensor) {
  PropHarness h;
  h.input("x", "float32", {2, 3});
  h.call("c", "aten.clone.default", "[" + N("x") + "]");
  h.call("before", "aten.select.int", args("c", "1, 0"));
  h.call("u", "aten.unsqueeze_.default", args("c", "1"));
  h.call("after", "aten.add.Tensor", args("c", "1.0"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_TRUE(h.same_tensor("u", "c"));
  EXPECT_EQ(h.shape("c"), (Ints{2, 1, 3}));
  EXPECT_EQ(h.stride("c"), (Ints{3, 3, 1}));
  EXPECT_EQ(h.shape("after"), (Ints{2, 1, 3}));
  EXPECT_EQ(h.shape("before"), (Ints{2}));
  EXPECT_EQ(h.stride("before"), (Ints{3}));
  EXPECT_EQ(h.shape("x"), (Ints{2, 3}));  // the clone's source is another tensor

  PropHarness bad;
  bad.input("x", "float32", {2, 3}).call("u", "aten.unsqueeze_.default", args("x", "3"));
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(), "Dimension out of range (expected to be in range of [-3, 2], but got 3)")) << bad.error();
}

TEST(DimOps, InPlaceSqueezeTransposeTAsStrided) {
  PropHarness h;
  h.input("x", "float32", {2, 1, 3, 1}).input("m", "float32", {4, 5}).input("y", "float32", {2, 3, 4});
  h.call("s", "aten.clone.default", "[" + N("x") + "]");
  h.call("sq", "aten.squeeze_.dims", args("s", "[1, 3]"));
  h.call("s_after", "aten.neg.default", "[" + N("s") + "]");
  h.call("s2", "aten.clone.default", "[" + N("x") + "]");
  h.call("sq2", "aten.squeeze_.default", "[" + N("s2") + "]");
  h.call("s3", "aten.clone.default", "[" + N("x") + "]");
  h.call("sq3", "aten.squeeze_.dim", args("s3", "-1"));
  h.call("tr", "aten.transpose_.default", args("y", "0, 2"));
  h.call("y_after", "aten.sum.dim_IntList", args("y", "[0], false"));
  h.call("sw", "aten.swapdims_.default", args("m", "0, 1"));
  h.call("t", "aten.t_.default", "[" + N("m") + "]");  // swapped back
  h.call("a", "aten.clone.default", "[" + N("x") + "]");
  h.call("as", "aten.as_strided_.default", args("a", "[3, 2], [1, 3], 0"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("s"), (Ints{2, 3}));
  EXPECT_EQ(h.stride("s"), (Ints{3, 1}));
  EXPECT_EQ(h.shape("s_after"), (Ints{2, 3}));
  EXPECT_EQ(h.shape("s2"), (Ints{2, 3}));
  EXPECT_EQ(h.shape("s3"), (Ints{2, 1, 3}));
  EXPECT_TRUE(h.same_tensor("tr", "y"));
  EXPECT_EQ(h.shape("y"), (Ints{4, 3, 2}));
  EXPECT_EQ(h.stride("y"), (Ints{1, 4, 12}));
  EXPECT_EQ(h.shape("y_after"), (Ints{3, 2}));
  EXPECT_EQ(h.shape("m"), (Ints{4, 5}));
  EXPECT_EQ(h.stride("m"), (Ints{5, 1}));
  EXPECT_EQ(h.shape("a"), (Ints{3, 2}));
  EXPECT_EQ(h.stride("a"), (Ints{1, 3}));

  PropHarness bad;  // t_ names itself
  bad.input("x", "float32", {2, 3, 4}).call("t", "aten.t_.default", "[" + N("x") + "]");
  ASSERT_FALSE(bad.run());
  EXPECT_TRUE(has(bad.error(), "t_() expects a tensor with <= 2 dimensions, but self is 3D")) << bad.error();
}

TEST(DimOps, MovedimKeepsOtherDimsInOrder) {
  PropHarness h;
  h.input("x", "float32", {2, 3, 4, 5}).call("m", "aten.movedim.intlist", args("x", "[0, 1], [2, 0]"));
  ASSERT_TRUE(h.run()) << h.error();
  // dims 0 -> 2, 1 -> 0; dims 2, 3 fill positions 1, 3
  EXPECT_EQ(h.shape("m"), (Ints{3, 4, 2, 5}));
  EXPECT_EQ(h.stride("m"), (Ints{20, 5, 60, 1}));
}

}  // namespace
}  // namespace symshape::test
