// linalg_matrix_norm and linalg_norm. Reference values: eager PyTorch 1.13.1 (CPU) on a
// contiguous (3, 4, 5) float32 input.
#include "views_test_util.h"

namespace symshape::test {
namespace {

std::string mn(const std::string& ord, const std::string& dim, bool keepdim) {
  return "[" + N("a") + ", " + ord + ", " + dim + ", " + (keepdim ? "true" : "false") + "]";
}

TEST(MatrixNorm, KeepdimLayoutsFollowTheComposition) {
  // ord 2, dims [0, 1], keepdim -> (1, 1, 5) strides (1, 1, 1) (svdvals, amax, unsqueeze, permute back)
  // ord 1, dims [0, 1], keepdim -> (1, 1, 5) (5, 5, 1) (vector norm + amax: contiguous)
  // fro, dims [2, 0], keepdim -> (1, 4, 1) (4, 1, 1); nuc, dims [0, 2], keepdim -> (1, 4, 1) (1, 1, 1)
  // ord -inf, dims [1, 2] -> (3,) (1,); ord 2, dims [1, 2] -> (3,) (1,)
  PropHarness h;
  h.input("a", "float32", {3, 4, 5});
  h.call("two", "aten.linalg_matrix_norm.default", mn("2", "[0, 1]", true));
  h.call("one", "aten.linalg_matrix_norm.default", mn("1", "[0, 1]", true));
  h.call("fro", "aten.linalg_matrix_norm.str_ord", mn("\"fro\"", "[2, 0]", true));
  h.call("nuc", "aten.linalg_matrix_norm.str_ord", mn("\"nuc\"", "[0, 2]", true));
  h.call("ninf", "aten.linalg_matrix_norm.default", mn(R"({"float": "-inf"})", "[1, 2]", false));
  h.call("flat", "aten.linalg_matrix_norm.default", mn("2", "[1, 2]", false));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("two"), (Ints{1, 1, 5}));
  EXPECT_EQ(h.stride("two"), (Ints{1, 1, 1}));
  EXPECT_EQ(h.shape("one"), (Ints{1, 1, 5}));
  EXPECT_EQ(h.stride("one"), (Ints{5, 5, 1}));
  EXPECT_EQ(h.shape("fro"), (Ints{1, 4, 1}));
  EXPECT_EQ(h.stride("fro"), (Ints{4, 1, 1}));
  EXPECT_EQ(h.shape("nuc"), (Ints{1, 4, 1}));
  EXPECT_EQ(h.stride("nuc"), (Ints{1, 1, 1}));
  EXPECT_EQ(h.shape("ninf"), (Ints{3}));
  EXPECT_EQ(h.stride("ninf"), (Ints{1}));
  EXPECT_EQ(h.shape("flat"), (Ints{3}));
  EXPECT_EQ(h.dtype("flat"), DType::Float32);
}

TEST(LinalgNorm, VectorAndMatrixRoutes) {
  // linalg_norm(a) -> () float32; dim [1, 2] keepdim -> (3, 1, 1) (1, 1, 1); ord 3, dim [1],
  // keepdim -> (3, 1, 5) (5, 5, 1); dtype float64 -> float64; complex64 -> float32;
  // ord_str 'nuc', dim [0, 2], keepdim -> (1, 4, 1) (1, 1, 1)
  PropHarness h;
  h.input("a", "float32", {3, 4, 5}).input("c", "complex64", {3, 4, 5});
  h.call("all", "aten.linalg_norm.default", "[" + N("a") + ", null, null, false]");
  h.call("kd", "aten.linalg_norm.default", "[" + N("a") + ", null, [1, 2], true]");
  h.call("o3", "aten.linalg_norm.default", "[" + N("a") + ", 3, [1], true]");
  h.call("dt", "aten.linalg_norm.default", "[" + N("a") + ", null, null, false]", R"({"dtype": {"dtype": "float64"}})");
  h.call("cx", "aten.linalg_norm.default", "[" + N("c") + ", null, null, false]");
  h.call("nuc", "aten.linalg_norm.ord_str", "[" + N("a") + ", \"nuc\", [0, 2], true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("all"), (Ints{}));
  EXPECT_EQ(h.dtype("all"), DType::Float32);
  EXPECT_EQ(h.shape("kd"), (Ints{3, 1, 1}));
  EXPECT_EQ(h.stride("kd"), (Ints{1, 1, 1}));
  EXPECT_EQ(h.shape("o3"), (Ints{3, 1, 5}));
  EXPECT_EQ(h.stride("o3"), (Ints{5, 5, 1}));
  EXPECT_EQ(h.dtype("dt"), DType::Float64);
  EXPECT_EQ(h.dtype("cx"), DType::Float32);
  EXPECT_EQ(h.shape("nuc"), (Ints{1, 4, 1}));
  EXPECT_EQ(h.stride("nuc"), (Ints{1, 1, 1}));
}

TEST(MatrixNorm, SymbolicBatch) {
  // (b, 4, 5), ord 2 over [1, 2] -> (b,) stride (1,); keepdim over [0, 1] -> (1, 1, 5) (1, 1, 1)
  PropHarness h;
  h.input("a", "float32", {3, 4, 5}, {"b"});
  h.call("n", "aten.linalg_matrix_norm.default", mn("2", "[1, 2]", false));
  h.call("k", "aten.linalg_matrix_norm.default", mn("-2", "[0, 1]", true));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape_str("n"), (Strs{h.shape_str("a")[0]}));
  EXPECT_EQ(h.stride_str("n"), (Strs{"1"}));
  EXPECT_EQ(h.shape_str("k"), (Strs{"1", "1", "5"}));
  EXPECT_EQ(h.stride_str("k"), (Strs{"1", "1", "1"}));
}

TEST(MatrixNorm, Errors) {
  // eager: "linalg.matrix_norm: Order 3 not supported.", "linalg.matrix_norm: dims must be
  // different. Got (1, 1)", "linalg.norm: If dim is not specified but ord is, the input must
  // be 1D or 2D. Got 3D.", "linalg.vector_norm: Expected a floating point or complex tensor as
  // input. Got Long"
  const std::pair<std::string, std::string> cases[] = {
      {"aten.linalg_matrix_norm.default|" + mn("3", "[0, 1]", false), "linalg.matrix_norm: Order 3 not supported."},
      {"aten.linalg_matrix_norm.default|" + mn("2", "[1, 1]", false),
       "linalg.matrix_norm: dims must be different. Got (1, 1)"},
      {"aten.linalg_norm.default|[" + N("a") + ", 2, null, false]",
       "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got 3D."},
      {"aten.linalg_norm.default|[" + N("i") + ", null, null, false]",
       "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"},
  };
  for (const auto& [call, message] : cases) {
    const size_t bar = call.find('|');
    PropHarness h;
    h.input("a", "float32", {3, 4, 5}).input("i", "int64", {3, 3});
    h.call("r", call.substr(0, bar), call.substr(bar + 1));
    ASSERT_FALSE(h.run()) << call;
    EXPECT_TRUE(has(h.error(), message)) << h.error();
  }
}


TEST(MatrixNorm, OtherLayouts) {
  // eager 1.13 on a channels_last (2, 3, 4, 5): ord 2 over [2, 3], keepdim -> (2, 3, 1, 1)
  // (3, 1, 1, 1); ord 1 over [1, 2], keepdim -> (2, 1, 1, 5) (5, 5, 5, 1);
  // linalg_norm of a transposed (4, 5) over [1], keepdim -> (4, 1) (1, 1)
  PropHarness h;
  h.attr("a", "float32", {2, 3, 4, 5}, {60, 1, 15, 3}).attr("t", "float32", {4, 5}, {1, 4});
  h.call("two", "aten.linalg_matrix_norm.default", mn("2", "[2, 3]", true));
  h.call("one", "aten.linalg_matrix_norm.default", mn("1", "[1, 2]", true));
  h.call("vec", "aten.linalg_norm.default", "[" + N("t") + ", null, [1], true]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("two"), (Ints{2, 3, 1, 1}));
  EXPECT_EQ(h.stride("two"), (Ints{3, 1, 1, 1}));
  EXPECT_EQ(h.shape("one"), (Ints{2, 1, 1, 5}));
  EXPECT_EQ(h.stride("one"), (Ints{5, 5, 5, 1}));
  EXPECT_EQ(h.shape("vec"), (Ints{4, 1}));
  EXPECT_EQ(h.stride("vec"), (Ints{1, 1}));
}

}  // namespace
}  // namespace symshape::test
