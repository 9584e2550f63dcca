// Complex views, polar and the FFT family. Reference values: eager PyTorch 2.13.0 (CPU, MKL
// FFT kernels) on the same inputs; the harness's graphs name no producer, so the 2.x kernels
// apply (1.13's pocketfft layouts are covered by data/differential/complex_fft).
#include "views_test_util.h"

namespace symshape::test {
namespace {

std::string q(const std::string& s) { return "\"" + s + "\""; }

// The rule's message, after the "node (target): " the driver puts before it.
bool says(const std::string& error, const std::string& message) {
  return error.size() >= message.size() && error.compare(error.size() - message.size(), message.size(), message) == 0 &&
         (error.size() == message.size() || error.compare(error.size() - message.size() - 2, 2, ": ") == 0);
}

TEST(ComplexViews, RealImagAndRoundTrips) {
  // x (2, 5, 8) -> reshape (2, 5, 4, 2) -> view_as_complex (2, 5, 4) (20, 4, 1);
  // view_as_real -> (2, 5, 4, 2) (40, 8, 2, 1); real (2, 5, 4) (40, 8, 2) offset 0, imag offset 1;
  // c[:, :, 1:] -> offset 1 -> view_as_real offset 2, imag offset 3
  PropHarness h;
  h.input("x", "float32", {2, 5, 8});
  h.call("r", "aten.reshape.default", args("x", "[2, 5, 4, 2]"));
  h.call("c", "aten.view_as_complex.default", "[" + N("r") + "]");
  h.call("vr", "aten.view_as_real.default", "[" + N("c") + "]");
  h.call("re", "aten.real.default", "[" + N("c") + "]");
  h.call("im", "aten.imag.default", "[" + N("c") + "]");
  h.call("sl", "aten.slice.Tensor", args("c", "2, 1, 9223372036854775807, 1"));
  h.call("svr", "aten.view_as_real.default", "[" + N("sl") + "]");
  h.call("sim", "aten.imag.default", "[" + N("sl") + "]");
  h.call("self", "aten.real.default", "[" + N("x") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("c"), (Ints{2, 5, 4}));
  EXPECT_EQ(h.stride("c"), (Ints{20, 4, 1}));
  EXPECT_EQ(h.dtype("c"), DType::Complex64);
  EXPECT_EQ(h.shape("vr"), (Ints{2, 5, 4, 2}));
  EXPECT_EQ(h.stride("vr"), (Ints{40, 8, 2, 1}));
  EXPECT_EQ(h.dtype("vr"), DType::Float32);
  EXPECT_EQ(h.stride("re"), (Ints{40, 8, 2}));
  EXPECT_EQ(h.offset_str("re"), "0");
  EXPECT_EQ(h.offset_str("im"), "1");
  EXPECT_EQ(h.offset_str("sl"), "1");
  EXPECT_EQ(h.offset_str("svr"), "2");
  EXPECT_EQ(h.offset_str("sim"), "3");
  EXPECT_TRUE(h.same_storage("x", "vr"));
  EXPECT_TRUE(h.same_tensor("x", "self"));  // real of a real tensor is the tensor itself
}

TEST(ComplexViews, ViewAsComplexChecks) {
  struct Case {
    const char* what;
    std::vector<std::pair<std::string, std::string>> nodes;  // (target, args after the input)
    const char* message;
  };
  const Case cases[] = {
      {"last size", {{"aten.unsqueeze.default", "-1"}}, "Tensor must have a last dimension of size 2"},
      {"last stride", {{"aten.slice.Tensor", "1, 0, 2, 1"}, {"aten.transpose.int", "1, 2"}},
       "Tensor must have a last dimension with stride 1"},
      {"odd stride", {{"aten.slice.Tensor", "2, 0, 3, 1"}, {"aten.contiguous.default", ""}, {"aten.slice.Tensor", "2, 0, 2, 1"}},
       "Tensor must have a stride divisible by 2 for all but last dimension"},
      {"offset", {{"aten.reshape.default", "[-1]"}, {"aten.slice.Tensor", "0, 1, 5, 1"}, {"aten.view.default", "[2, 2]"}},
       "Tensor must have a storage_offset divisible by 2"},
      {"dtype", {{"aten.slice.Tensor", "2, 0, 2, 1"}, {"aten.to.dtype", R"({"dtype": "int32"}, false, false, null)"}},
       "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: Int"},
      {"0-d", {{"aten.select.int", "0, 0"}, {"aten.select.int", "0, 0"}, {"aten.select.int", "0, 0"}},
       "Input tensor must have one or more dimensions"},
  };
  for (const Case& c : cases) {
    PropHarness h;
    h.input("x", "float32", {2, 6, 8});
    std::string prev = "x";
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      const std::string name = "n" + std::to_string(i);
      h.call(name, c.nodes[i].first, c.nodes[i].second.empty() ? "[" + N(prev) + "]" : args(prev, c.nodes[i].second));
      prev = name;
    }
    h.call("vc", "aten.view_as_complex.default", "[" + N(prev) + "]");
    EXPECT_FALSE(h.run()) << c.what;
    EXPECT_TRUE(says(h.error(), c.message)) << c.what << ": " << h.error();
  }
}

TEST(ComplexViews, RealOnlyErrorsAndUnmodelledDtypes) {
  PropHarness h;
  h.input("x", "float32", {2, 3});
  h.call("im", "aten.imag.default", "[" + N("x") + "]");
  EXPECT_FALSE(h.run());
  EXPECT_TRUE(says(h.error(), "imag is not implemented for tensors with non-complex dtypes.")) << h.error();
  PropHarness h2;
  h2.input("x", "float32", {2, 3});
  h2.call("vr", "aten.view_as_real.default", "[" + N("x") + "]");
  EXPECT_FALSE(h2.run());
  EXPECT_TRUE(says(h2.error(), "view_as_real is only supported for complex tensors")) << h2.error();
  // a double pair is complex128 in PyTorch: no such DType here
  PropHarness h3;
  h3.input("x", "float64", {3, 2});
  h3.call("vc", "aten.view_as_complex.default", "[" + N("x") + "]");
  EXPECT_FALSE(h3.run());
  EXPECT_TRUE(has(h3.error(), "complex128")) << h3.error();
}

TEST(Polar, BroadcastLayoutAndChecks) {
  // llama4: polar(ones_like(t'), t') of a transposed t (4, 7) -> complex64 with the operands'
  // strides (1, 7); polar(a (2, 1, 4), t') -> (2, 7, 4) in TensorIterator's order (28, 1, 7)
  PropHarness h;
  h.input("t", "float32", {4, 7}).input("a", "float32", {2, 1, 4});
  h.call("tt", "aten.transpose.int", args("t", "0, 1"));
  h.call("one", "aten.ones_like.default", "[" + N("tt") + "]");
  h.call("p", "aten.polar.default", "[" + N("one") + ", " + N("tt") + "]");
  h.call("pb", "aten.polar.default", "[" + N("a") + ", " + N("tt") + "]");
  h.call("cx", "aten.complex.default", "[" + N("tt") + ", " + N("tt") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("p"), (Ints{7, 4}));
  EXPECT_EQ(h.stride("p"), (Ints{1, 7}));
  EXPECT_EQ(h.dtype("p"), DType::Complex64);
  EXPECT_EQ(h.shape("pb"), (Ints{2, 7, 4}));
  EXPECT_EQ(h.stride("pb"), (Ints{28, 1, 7}));
  EXPECT_EQ(h.stride("cx"), (Ints{1, 7}));

  PropHarness e1;
  e1.input("a", "float32", {3}).input("b", "float64", {3});
  e1.call("p", "aten.polar.default", "[" + N("a") + ", " + N("b") + "]");
  EXPECT_FALSE(e1.run());
  EXPECT_TRUE(says(e1.error(), "Expected object of scalar type Float but got scalar type Double for second argument")) << e1.error();
  PropHarness e2;
  e2.input("a", "int64", {3}).input("b", "float32", {3});
  e2.call("p", "aten.polar.default", "[" + N("a") + ", " + N("b") + "]");
  EXPECT_FALSE(e2.run());
  EXPECT_TRUE(says(e2.error(), "Expected both inputs to be Half, Float or Double tensors but got Long and Float")) << e2.error();
  PropHarness e3;
  e3.input("a", "float16", {3}).input("b", "float16", {3});
  e3.call("p", "aten.polar.default", "[" + N("a") + ", " + N("b") + "]");
  EXPECT_FALSE(e3.run());
  EXPECT_TRUE(says(e3.error(), "NotImplementedError: \"polar_cpu\" not implemented for 'Half'")) << e3.error();
}

TEST(Fft, FnetFftnOverSeqAndHidden) {
  // FNet: fftn(x, dim=(1, 2)) of a contiguous (b, s, 32) is contiguous, real() doubles the
  // strides; no guard for the stride order (32 > 1 is static; one batch dim).
  PropHarness h;
  h.input("x", "float32", {2, 7, 32}, {"b", "s"});
  h.call("f", "aten.fft_fftn.default", args("x", "null, [1, 2], null"));
  h.call("r", "aten.real.default", "[" + N("f") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride_str("f"), (Strs{"32*s", "32", "1"}));
  EXPECT_EQ(h.dtype("f"), DType::Complex64);
  EXPECT_EQ(h.stride_str("r"), (Strs{"64*s", "64", "2"}));
  EXPECT_EQ(h.dtype("r"), DType::Float32);
  EXPECT_TRUE(h.env().guards().empty());
}

TEST(Fft, MklOutputLayouts) {
  // (2, 3, 4, 5) contiguous: fftn dims (1, 2) -> (60, 4, 1, 12); dims (0,) -> (1, 40, 10, 2);
  // dims (3, 1) -> (60, 5, 15, 1); channels_last dims (1, 2) -> (60, 1, 3, 12);
  // rfftn dims (1, 2) -> (2, 3, 3, 5) (45, 3, 1, 9); irfftn dims (0, 3) -> (2, 3, 4, 8) (8, 64, 16, 1)
  PropHarness h;
  h.input("x", "float32", {2, 3, 4, 5});
  h.call("a", "aten.fft_fftn.default", args("x", "null, [1, 2], null"));
  h.call("b", "aten.fft_fftn.default", args("x", "null, [0], null"));
  h.call("c", "aten.fft_fftn.default", args("x", "null, [3, 1], null"));
  h.call("cl", "aten.contiguous.default", "[" + N("x") + "]", R"({"memory_format": {"memory_format": "channels_last"}})");
  h.call("d", "aten.fft_fftn.default", args("cl", "null, [1, 2], null"));
  h.call("e", "aten.fft_rfftn.default", args("x", "null, [1, 2], null"));
  h.call("xc", "aten.to.dtype", args("x", R"({"dtype": "complex64"}, false, false, null)"));
  h.call("f", "aten.fft_irfftn.default", args("xc", "null, [0, 3], null"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("a"), (Ints{60, 4, 1, 12}));
  EXPECT_EQ(h.stride("b"), (Ints{1, 40, 10, 2}));
  EXPECT_EQ(h.stride("c"), (Ints{60, 5, 15, 1}));
  EXPECT_EQ(h.stride("d"), (Ints{60, 1, 3, 12}));
  EXPECT_EQ(h.shape("e"), (Ints{2, 3, 3, 5}));
  EXPECT_EQ(h.stride("e"), (Ints{45, 3, 1, 9}));
  EXPECT_EQ(h.shape("f"), (Ints{2, 3, 4, 8}));
  EXPECT_EQ(h.stride("f"), (Ints{8, 64, 16, 1}));
  EXPECT_EQ(h.dtype("f"), DType::Float32);
}

TEST(Fft, BatchDimsOrderOfLibstdcxxPartition) {
  // Equal batch strides keep the order std::partition leaves them in (not the input order):
  // _fft_r2c of a (1, 1, 5, 5) with strides (50, 5, 1, 5) over dim 0 -> (1, 5, 1, 5);
  // _fft_c2r of a (3, 1, 4, 4, 1) with strides (16, 16, 1, 4, 1) over dim 1 -> (16, 1, 1, 4, 4)
  PropHarness h;
  h.attr("a", "float32", {1, 1, 5, 5}, {50, 5, 1, 5});
  h.attr("b", "complex64", {3, 1, 4, 4, 1}, {16, 16, 1, 4, 1});
  h.call("r", "aten._fft_r2c.default", args("a", "[0], 0, false"));
  h.call("c", "aten._fft_c2r.default", args("b", "[1], 0, 1"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.stride("r"), (Ints{1, 5, 1, 5}));
  EXPECT_EQ(h.shape("c"), (Ints{3, 1, 4, 4, 1}));
  EXPECT_EQ(h.stride("c"), (Ints{16, 1, 1, 4, 4}));
}

TEST(Fft, SignalSizesPadAndCrop) {
  // fftn(x (2, 7, 12), s=(6, 16), dim=(1, 2)): seq cropped to 6, hidden padded to 16
  // -> (2, 6, 16) contiguous; irfft(n=9) of a complex (2, 7, 12) over dim 1 -> (2, 9, 12)
  // (108, 1, 9); rfft(n=6) -> (2, 7, 4); irfft(n=1) -> (2, 7, 1)
  PropHarness h;
  h.input("x", "float32", {2, 7, 12});
  h.call("a", "aten.fft_fftn.default", args("x", "[6, 16], [1, 2], null"));
  h.call("xc", "aten.to.dtype", args("x", R"({"dtype": "complex64"}, false, false, null)"));
  h.call("b", "aten.fft_irfft.default", args("xc", "9, 1, null"));
  h.call("c", "aten.fft_rfft.default", args("x", "6, -1, \"ortho\""));
  h.call("d", "aten.fft_irfft.default", args("xc", "1, -1, null"));
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("a"), (Ints{2, 6, 16}));
  EXPECT_EQ(h.stride("a"), (Ints{96, 16, 1}));
  EXPECT_EQ(h.shape("b"), (Ints{2, 9, 12}));
  EXPECT_EQ(h.stride("b"), (Ints{108, 1, 9}));
  EXPECT_EQ(h.shape("c"), (Ints{2, 7, 4}));
  EXPECT_EQ(h.dtype("c"), DType::Complex64);
  EXPECT_EQ(h.shape("d"), (Ints{2, 7, 1}));
  EXPECT_EQ(h.dtype("d"), DType::Float32);
}

TEST(Fft, ZeroDimAndEmptyBatch) {
  // 2.x: fftn of a 0-d tensor is a 0-d complex clone; a transform with a zero-sized batch is
  // MKL's error
  PropHarness h;
  h.input("x", "float32", {2, 3});
  h.call("s", "aten.select.int", args("x", "0, 0"));
  h.call("s0", "aten.select.int", args("s", "0, 0"));
  h.call("f", "aten.fft_fftn.default", "[" + N("s0") + "]");
  ASSERT_TRUE(h.run()) << h.error();
  EXPECT_EQ(h.shape("f"), (Ints{}));
  EXPECT_EQ(h.dtype("f"), DType::Complex64);
  PropHarness e;
  e.input("x", "float32", {2, 3});
  e.call("z", "aten.slice.Tensor", args("x", "0, 0, 0, 1"));
  e.call("f", "aten.fft_fft.default", args("z", "null, -1, null"));
  EXPECT_FALSE(e.run());
  EXPECT_TRUE(says(e.error(), "MKL FFT error: Intel oneMKL DFTI ERROR: Inconsistent configuration parameters")) << e.error();
}

TEST(Fft, ErrorsAsPyTorch) {
  struct Case {
    const char* target;
    const char* dtype;
    std::string rest;
    const char* message;
  };
  const Case cases[] = {
      {"aten.fft_fftn.default", "float32", "null, [0, -3], null", "FFT dims must be unique"},
      {"aten.fft_fftn.default", "float32", "null, [3], null",
       "IndexError: Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
      {"aten.fft_fftn.default", "float32", "[4, 4], [1], null", "When given, dim and shape arguments must have the same length"},
      {"aten.fft_fftn.default", "float32", "[2, 2, 2, 2], null, null", "Got shape with 4 values but input tensor only has 3 dimensions."},
      {"aten.fft_fftn.default", "float32", "[0, 4], null, null", "Invalid number of data points (0) specified"},
      {"aten.fft_fftn.default", "float32", "null, [1, 2], " + q("bogus"), "Invalid normalization mode: \"bogus\""},
      {"aten.fft_fftn.default", "float16", "null, null, null", "Unsupported dtype Half"},
      {"aten.fft_fft.default", "bfloat16", "null, -1, null", "Unsupported dtype BFloat16"},
      {"aten.fft_fft.default", "float32", "0, -1, null", "Invalid number of data points (0) specified"},
      {"aten.fft_ifft.default", "complex64", "null, -4, null",
       "IndexError: Dimension out of range (expected to be in range of [-3, 2], but got -4)"},
      {"aten.fft_rfft.default", "complex64", "null, -1, null", "rfft expects a real input tensor, but got ComplexFloat"},
      {"aten.fft_ihfft.default", "complex64", "null, -1, null", "ihfft expects a real input tensor, but got ComplexFloat"},
      {"aten.fft_rfftn.default", "complex64", "null, null, null", "rfftn expects a real-valued input tensor, but got ComplexFloat"},
      {"aten.fft_rfftn.default", "float32", "null, [], null", "rfftn must transform at least one axis"},
      {"aten.fft_irfftn.default", "complex64", "[], null, null", "irfftn must transform at least one axis"},
      {"aten.fft_irfftn.default", "complex64", "[4, 0], [0, 1], null", "Invalid number of data points (0) specified"},
  };
  for (const Case& c : cases) {
    PropHarness h;
    h.input("x", c.dtype, {2, 6, 8});
    h.call("f", c.target, args("x", c.rest));
    EXPECT_FALSE(h.run()) << c.target << " " << c.rest;
    EXPECT_TRUE(says(h.error(), c.message)) << h.error() << c.target << " " << c.rest;
  }
}

}  // namespace
}  // namespace symshape::test
