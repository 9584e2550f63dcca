// Behaviours 277 (nonzero / masked_select), 278 (unique), 281 (one_hot) and D.141-144
// (unbacked results of nonzero and item): data-dependent sizes become fresh unbacked
// size-like symbols. The FakeTensorProp side of D.141-144 (meta['val'],
// unbacked_bindings, the static mode's exceptions) is tested in tests/prop_fake.
#include "expr/evaluate.h"
#include "views_test_util.h"

namespace symshape::test {
namespace {

TEST(DataDependent, B277_NonzeroIsColumnMajorWithAnUnbackedLength) {
  PropHarness h;
  h.input("x", "float32", {3, 4}).call("n", "aten.nonzero.default", "[" + N("x") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("n"), (Strs{"u0", "2"}));
  EXPECT_EQ(h.stride_str("n"), (Strs{"1", "u0"}));
  EXPECT_EQ(h.dtype("n"), DType::Int64);
  // D.141: u0 is size-like with range [0, 12]
  const ExprId u = h.env().arena().find_symbol("u0");
  ASSERT_TRUE(u.valid());
  EXPECT_TRUE(h.env().is_size_like(u));
  EXPECT_TRUE(h.env().statically_known_true(h.env().arena().le(u, h.env().arena().integer(12))));
}

TEST(DataDependent, B277_WhereConditionAndMaskedSelect) {
  PropHarness t;
  t.input("x", "bool", {2, 2}).call("w", "aten.where.default", "[" + N("x") + "]");
  ASSERT_TRUE(t.run()) << t.error();
  ASSERT_EQ(t.list_size("w"), 2u);
  EXPECT_EQ(t.shape_str("w", 1), (Strs{"u0"}));
  EXPECT_EQ(t.stride_str("w", 1), (Strs{"1"}));

  PropHarness m;
  m.input("x", "float32", {2, 3}).input("k", "bool", {3}).call("s", "aten.masked_select.default", "[" + N("x") + ", " + N("k") + "]");
  ASSERT_TRUE(m.run()) << m.error();
  EXPECT_EQ(m.shape_str("s"), (Strs{"u0"}));
  const ExprId u = m.env().arena().find_symbol("u0");
  EXPECT_TRUE(m.env().statically_known_true(m.env().arena().le(u, m.env().arena().integer(6))));
}

// Eager TensorIterator layouts decide on the real size of a data-dependent dim: `(u0, 1)`
// with strides (1, 1) plus a scalar takes reorder_dimensions' equal-stride tie-break (the
// smaller dim first) when u0 == 0, giving (1, 0), and is contiguous otherwise (transformers'
// higgs_audio_v2). The stride is Piecewise over the answer; no guard is recorded.
TEST(DataDependent, EagerLayoutForksOnUnbackedSizes) {
  PropHarness h;
  h.input("x", "float32", {2, 3}).input("k", "bool", {2, 3});
  h.call("s", "aten.masked_select.default", "[" + N("x") + ", " + N("k") + "]");
  h.call("v", "aten.view.default", args("s", "[-1, 1]"));
  h.call("a", "aten.add.Tensor", args("v", "1e-05"));
  h.call("t", "aten.add.Tensor", "[" + N("v") + ", " + N("v") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride_str("v"), (Strs{"1", "1"}));
  EXPECT_EQ(h.stride_str("t"), (Strs{"1", "1"}));  // same shapes: the contiguous fast setup
  const ExprArena& ar = h.env().arena();
  const ExprId u = ar.find_symbol("u0");
  ASSERT_TRUE(u.valid());
  const auto strides = h.stride_exprs("a");
  ASSERT_EQ(strides.size(), 2u);
  Bindings b;
  for (int64_t value : {0, 1, 2, 6}) {
    b.set(ar.symbol_id(u), value);
    EXPECT_EQ(evaluate_int(ar, strides[0], b), 1) << value;
    EXPECT_EQ(evaluate_int(ar, strides[1], b), value == 0 ? 0 : 1) << value;
  }
  EXPECT_TRUE(h.env().guards().empty());
}

TEST(DataDependent, B278_UniqueOutputs) {
  PropHarness h;
  h.input("x", "int64", {4}).call("u", "aten._unique2.default", "[" + N("x") + ", true, true, true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("u", 0), (Strs{"u0"}));
  EXPECT_EQ(h.shape("u", 1), (Ints{4}));
  EXPECT_EQ(h.shape_str("u", 2), (Strs{"u0"}));
  PropHarness plain;
  plain.input("x", "int64", {4}).call("u", "aten._unique2.default", "[" + N("x") + ", true, false, false]");
  ASSERT_TRUE(plain.run()) << plain.error();
  EXPECT_EQ(plain.shape("u", 1), (Ints{0}));
  EXPECT_EQ(plain.shape("u", 2), (Ints{0}));
}

TEST(DataDependent, B281_OneHot) {
  PropHarness given;
  given.input("x", "int64", {2}).call("o", "aten.one_hot.default", "[" + N("x") + ", 5]");
  ASSERT_TRUE(given.run()) << given.error();
  EXPECT_EQ(given.shape("o"), (Ints{2, 5}));
  EXPECT_EQ(given.dtype("o"), DType::Int64);
  PropHarness inferred;
  inferred.input("x", "int64", {2, 2}).call("o", "aten.one_hot.default", "[" + N("x") + ", -1]");
  ASSERT_TRUE(inferred.run()) << inferred.error();
  EXPECT_EQ(inferred.shape_str("o"), (Strs{"2", "2", "u0"}));
}

TEST(DataDependent, D144_ItemTwiceGivesTheSameSymbol) {
  PropHarness h;
  h.input("x", "int64", {}).call("a", "aten.item.default", "[" + N("x") + "]").call("b", "aten.item.default", "[" + N("x") + "]");
  h.call("s", "operator.add", "[" + N("a") + ", " + N("b") + "]");
  h.call("z", "aten.zeros.default", "[[" + N("s") + "]]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("z"), (Strs{"2*u0"}));
}

TEST(DataDependent, RepeatInterleave) {
  PropHarness t;
  t.input("x", "float32", {3, 4}).input("r", "int64", {3});
  t.call("o", "aten.repeat_interleave.self_Tensor", "[" + N("x") + ", " + N("r") + ", 0]");
  ASSERT_TRUE(t.run()) << t.error();
  EXPECT_EQ(t.shape_str("o"), (Strs{"u0", "4"}));
  PropHarness i;
  i.input("x", "float32", {3, 4}).call("o", "aten.repeat_interleave.self_int", "[" + N("x") + ", 2, 1]");
  ASSERT_TRUE(i.run()) << i.error();
  EXPECT_EQ(i.shape("o"), (Ints{3, 8}));
}

}  // namespace
}  // namespace symshape::test
