// Convolution (semantics.md H.15): conv1d/2d/3d (int and string padding), convolution,
// _convolution and conv_transpose1d/2d/3d, following eager 1.13's at::_convolution:
// check_shape_forward's checks and messages, conv_output_size, and the output layout of
// the CPU backend it selects (mkldnn / slow: channels_last when input or weight suggests
// it; 1-d convs run as 2-d on a contiguous input; 3-d slow kernels are contiguous).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "prop/memory_format.h"
#include "prop/ops/conv_family.h"
#include "prop/shape_helpers.h"

namespace symshape::conv {

namespace {

struct ConvArgs {
  IntDims stride, padding, dilation, output_padding;  // as given: one value or one per dim
  bool transposed = false;
  // an int or a SymInt node: CondConv-style per-sample kernels pass `groups=batch`, and
  // PyTorch keeps it symbolic (each test of it is a guard, not a specialisation)
  ExprId groups;
};

std::string list_str(const IntDims& v) { return fmt::format("[{}]", fmt::join(v.begin(), v.end(), ", ")); }

// expand_param_if_needed
void expand_param(PropContext& ctx, const IntDims& given, const char* name, size_t dim, IntDims& out) {
  if (given.size() == 1) {
    out.clear();
    out.resize(dim, given[0]);
    return;
  }
  if (given.size() != dim)
    ctx.fail("expected {} to be a single integer value or a list of {} values to match the convolution dimensions, "
             "but got {}={}",
             name, dim, name, list_str(given));
  out = given;
}

std::string joined(PropContext& ctx, std::span<const ExprId> v, std::string_view sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += sep;
    s += ctx.str(v[i]);
  }
  return s;
}

// check_shape_forward (1.13), in its order.
void check_shape_forward(PropContext& ctx, TensorId in, TensorId w, std::optional<TensorId> bias, const IntDims& stride,
                         const IntDims& padding, const IntDims& dilation, const IntDims& output_padding,
                         bool transposed, ExprId g) {
  ExprArena& ar = ctx.ar;
  for (int64_t p : padding)
    if (p < 0) ctx.fail("negative padding is not supported");
  for (int64_t p : output_padding)
    if (p < 0) ctx.fail("negative output_padding is not supported");
  for (int64_t s : stride)
    if (s <= 0) ctx.fail("non-positive stride is not supported");
  for (int64_t d : dilation)
    if (d <= 0) ctx.fail("dilation should be greater than zero");
  const auto ws = ctx.vals.sizes(w);
  const auto is = ctx.vals.sizes(in);
  const size_t k = is.size();
  if (ws.size() != k)
    ctx.fail("Expected {}-dimensional input for {}-dimensional weight {}, but got {}-dimensional input of size {} instead",
             ws.size(), ws.size(), ctx.shape_str(ws), k, ctx.shape_str(is));
  if (!holds(ctx, ar.ge(ws[0], g)))
    ctx.fail("Given groups={}, expected weight to be at least {} at dimension 0, but got weight of size {} instead",
             ctx.str(g), ctx.str(g), ctx.shape_str(ws));
  if (!holds(ctx, ar.eq(ar.mod(ws[0], g), ar.zero())))
    ctx.fail("Given groups={}, expected weight to be divisible by {} at dimension 0, but got weight of size [{}] instead",
             ctx.str(g), ctx.str(g), ctx.shape_str(ws));
  auto bias_ok = [&](ExprId n) {
    if (!bias) return true;
    return ctx.vals.rank(*bias) == 1 && holds(ctx, ar.eq(ctx.vals.sizes(*bias)[0], n));
  };
  if (!transposed) {
    const ExprId channels = ar.mul(ws[1], g);
    if (!holds(ctx, ar.eq(is[1], channels)))
      ctx.fail("Given groups={}, weight of size {}, expected input{} to have {} channels, but got {} channels instead",
               ctx.str(g), ctx.shape_str(ws), ctx.shape_str(is), ctx.str(channels), ctx.str(is[1]));
    if (!bias_ok(ws[0]))
      ctx.fail("Given weight of size {}, expected bias to be 1-dimensional with {} elements, but got bias of size {} "
               "instead",
               ctx.shape_str(ws), ctx.str(ws[0]), ctx.shape_str(ctx.vals.sizes(*bias)));
    Dims padded, kernel;
    bool kernel_fits = true;
    for (size_t i = 2; i < k; ++i) {
      padded.push_back(ar.add(is[i], ar.integer(2 * padding[i - 2])));
      kernel.push_back(ar.add(ar.mul(ar.integer(dilation[i - 2]), ar.sub(ws[i], ar.one())), ar.one()));
      if (ctx.guard(ar.lt(padded.back(), kernel.back())) && !ctx.tolerate(ar.ge(padded.back(), kernel.back())))
        kernel_fits = false;
    }
    if (!kernel_fits)
      ctx.fail("Calculated padded input size per channel: ({}). Kernel size: ({}). Kernel size can't be greater than "
               "actual input size",
               joined(ctx, padded, " x "), joined(ctx, kernel, " x "));
  } else {
    if (!holds(ctx, ar.eq(is[1], ws[0])))
      ctx.fail("Given transposed=1, weight of size {}, expected input{} to have {} channels, but got {} channels instead",
               ctx.shape_str(ws), ctx.shape_str(is), ctx.str(ws[0]), ctx.str(is[1]));
    const ExprId out_channels = ar.mul(ws[1], g);
    if (!bias_ok(out_channels))
      ctx.fail("Given transposed=1, weight of size {}, expected bias to be 1-dimensional with {} elements, but got bias "
               "of size {} instead",
               ctx.shape_str(ws), ctx.str(out_channels), ctx.shape_str(ctx.vals.sizes(*bias)));
  }
}

// slow_conv_transpose{2,3}d_shape_check: the parts not already covered above.
void check_transpose(PropContext& ctx, std::span<const ExprId> in_spatial, std::span<const ExprId> out_spatial,
                     const IntDims& stride, const IntDims& dilation, const IntDims& output_padding) {
  static constexpr const char* kAxis2[] = {"height", "width"};
  static constexpr const char* kAxis3[] = {"depth", "height", "width"};
  const size_t n = stride.size();
  // 1-d transposed convs run as 2-d with a unit height
  const bool as2d = n == 1;
  auto axis = [&](size_t i) { return n == 3 ? kAxis3[i] : kAxis2[as2d ? 1 : i]; };
  bool ok = true;
  for (size_t i = 0; i < n; ++i) ok &= output_padding[i] < stride[i] || output_padding[i] < dilation[i];
  if (!ok) {
    std::string msg = "output padding must be smaller than either stride or dilation, but got";
    auto part = [&](const char* what, const IntDims& v) {
      if (as2d) msg += fmt::format(" {}_height: {}", what, what[0] == 'o' ? 0 : 1);
      for (size_t i = 0; i < n; ++i) msg += fmt::format(" {}_{}: {}", what, axis(i), v[i]);
    };
    part("output_padding", output_padding);
    part("stride", stride);
    part("dilation", dilation);
    ctx.fail_message(std::move(msg));
  }
  ExprArena& ar = ctx.ar;
  bool big_enough = true;
  for (ExprId o : out_spatial)
    if (ctx.guard(ar.lt(o, ar.one()))) big_enough = false;
  if (!big_enough) {
    const std::string one = as2d ? "1 x " : "";
    ctx.fail("Given input size per channel: ({}{}). Calculated output size per channel: ({}{}). Output size is too "
             "small",
             one, joined(ctx, in_spatial, " x "), one, joined(ctx, out_spatial, " x "));
  }
}

// PyTorch 2.x's fake conv (torch/_subclasses/fake_impls.py conv) calls
// torch._C._select_conv_backend when every size has a hint: ATen's select_conv_backend
// (aten/src/ATen/native/Convolution.cpp) runs check_shape_forward (asked above already) and
// _select_conv_backend over ConvParams<c10::SymInt>, so each comparison of a symbolic size it
// evaluates becomes a guard, in the order of its `||` / `&&` terms. On a CPU host only these
// reach a symbolic size (measured with FakeTensorMode + ShapeEnv on single convs, 2.13):
//  - the empty-input test `input.size(0) == 0 || input.size(1) == 0`, then `numel == 0`;
//  - ConvParams::use_mkldnn, for a Float input only (BFloat16 / Half return before any size
//    test, other dtypes fail the dtype test; a transposed conv with output_padding >= stride
//    returns false first):
//      (is_strided() || is_dilated() || input.size(0) >= 16 || weight.size(-1) != 1 ||
//       weight.size(-2) != 1 || at::get_num_threads() > 1) &&
//      (groups > 1 || (weight.size(-1) > 3 && weight.size(-2) > 3) || input.size(0) > 1 ||
//       input.size(0) * input.size(1) * input.size(2) * input.size(3) > 20480)
//    on the 4-d view: a 1-d conv is seen as (N, C, 1, L) with weight (O, I, 1, K), a 3-d conv
//    multiplies only its first four sizes. So an unstrided, undilated conv asks `N >= 16`
//    (a batch range 2 <= N <= 15 when false) and a conv of batch 1 with a kernel not larger
//    than 3x3 (and groups 1) asks `C*H*W > 20480`.
// The layout symshape gives the output stays eager 1.13's (output_format).
void select_conv_backend_guards(PropContext& ctx, TensorId in, TensorId w, const IntDims& stride,
                                const IntDims& dilation, const IntDims& output_padding, bool transposed,
                                ExprId groups) {
  ExprArena& ar = ctx.ar;
  const auto is = ctx.vals.sizes(in);
  const auto ws = ctx.vals.sizes(w);
  const size_t r = ws.size();
  if (ctx.guard(ar.eq(is[0], ar.zero())) || ctx.guard(ar.eq(is[1], ar.zero()))) return;  // Empty backend
  if (ctx.guard(ar.eq(numel(ctx, is), ar.zero()))) return;  // "Only zero batch or zero channel inputs ..."
  if (!ctx.host.mkldnn_enabled || ctx.vals.dtype(in) != DType::Float32) return;
  if (transposed)
    for (size_t i = 0; i < stride.size(); ++i)
      if (output_padding[i] >= stride[i]) return;  // is_output_padding_big
  bool strided = false, dilated = false;
  for (int64_t s : stride) strided |= s != 1;
  for (int64_t d : dilation) dilated |= d != 1;
  // the 4-d view: (N, C, 1, L) / (O, I, 1, K) for a 1-d conv
  const ExprId kw = ws[r - 1];
  const ExprId kh = r == 3 ? ar.one() : ws[r - 2];
  const bool first = strided || dilated || ctx.guard(ar.ge(is[0], ar.integer(16))) ||
                     ctx.guard(ar.ne(kw, ar.one())) || ctx.guard(ar.ne(kh, ar.one())) ||
                     ctx.host.num_threads > 1;
  if (!first) return;
  // Mkldnn or not only matters to the layout, which stays 1.13's: the questions are the point
  [[maybe_unused]] const bool mkldnn =
      ctx.guard(ar.gt(groups, ar.one())) || (ctx.guard(ar.gt(kw, ar.integer(3))) && ctx.guard(ar.gt(kh, ar.integer(3)))) ||
      ctx.guard(ar.gt(is[0], ar.one())) ||
      ctx.guard(ar.gt(r == 3 ? ar.mul({is[0], is[1], is[2]}) : ar.mul({is[0], is[1], is[2], is[3]}), ar.integer(20480)));
}

// ConvParams::use_mkldnn (1.13) for the CPU float case; at::get_num_threads() > 1 assumed.
bool uses_mkldnn(PropContext& ctx, TensorId in, TensorId w, const IntDims& stride, const IntDims& dilation,
                 const IntDims& output_padding, bool transposed, ExprId groups) {
  ExprArena& ar = ctx.ar;
  const DType dt = ctx.vals.dtype(in);
  if (dt != DType::Float32 && dt != DType::BFloat16) return false;
  const auto is = ctx.vals.sizes(in);
  const auto ws = ctx.vals.sizes(w);
  if (transposed) {
    for (size_t i = 0; i < stride.size(); ++i)
      if (output_padding[i] >= stride[i]) return false;
    if (ctx.guard(ar.gt(groups, ar.one())) && ctx.guard(ar.eq(is[1], groups))) return false;
  }
  if (dt == DType::BFloat16) return true;
  (void)dilation;
  const size_t r = ws.size();
  if (ctx.guard(ar.gt(groups, ar.one()))) return true;
  if (ctx.guard(ar.gt(ws[r - 1], ar.integer(3))) && ctx.guard(ar.gt(ws[r - 2], ar.integer(3)))) return true;
  if (ctx.guard(ar.gt(is[0], ar.one()))) return true;
  const ExprId numel4[] = {is[0], is[1], is[2], is[3]};
  return ctx.guard(ar.gt(ar.mul(numel4), ar.integer(20480)));
}

// determine_backend_memory_format for the CPU backends (eager's layout; fake_format set for
// the 2-d case, see output_format).
MemoryFormat eager_output_format(PropContext& ctx, TensorId in, TensorId w, const IntDims& stride,
                                 const IntDims& dilation, const IntDims& output_padding, bool transposed,
                                 ExprId groups, MemoryFormat& fake_format) {
  const size_t rank = ctx.vals.rank(w);
  if (rank == 3) {
    // 1-d: _convolution calls input.contiguous() and views both operands as 4-d (N, C, 1, L).
    // contiguous() returns the input itself when it already is contiguous, and that ignores
    // the strides of size-1 dims: a transposed (N, L, C) input of length L = 1 keeps strides
    // (C, 1, C), whose 4-d view (C, 1, C, C) looks channels_last, and so does the output
    // (checked against eager 1.13.1 and 2.13: (N, 32, 1) strides (32, 1, 32), 128-tap conv ->
    // (N, 32, 2) strides (64, 1, 32)).
    // An input with the row-major strides themselves (the common case) never does: it asks no
    // question.
    Dims row_major;
    format_strides(ctx, ctx.vals.sizes(in), MemoryFormat::Contiguous, row_major);
    const auto in_strides = ctx.vals.strides(in);
    const bool standard = std::equal(row_major.begin(), row_major.end(), in_strides.begin(), in_strides.end());
    const bool in_cl = !standard && layout_is_contiguous(ctx, in) &&
                       suggest_memory_format(ctx, unsqueeze_view(ctx, in, 2)) == MemoryFormat::ChannelsLast;
    return in_cl || suggest_memory_format(ctx, unsqueeze_view(ctx, w, 2)) == MemoryFormat::ChannelsLast
               ? MemoryFormat::ChannelsLast
               : MemoryFormat::Contiguous;
  }
  if (rank == 4) {
    // 1.13 CPU transposed 2-d convs (slow_conv_transpose2d) always write a contiguous output,
    // whatever the input / weight layout (checked against eager 1.13.1); 2.x's mkldnn and
    // slow transposed kernels follow the operands as the forward ones do (2.13: a channels_last
    // (N, 32, 4, 5) input to a 2x2 stride-2 conv_transpose2d gives a channels_last output)
    // 2.x's fake conv asks torch._C._conv_determine_backend_memory_format, whose mkldnn and
    // slow (thnn) branches call the C++ suggest_memory_format of both operands (each a
    // SymInt predicate: `size > 1` is a guard); asked before the 1.13 layout below, which
    // at concrete sizes gives the same answers
    const bool in_cl = suggest_memory_format_cxx(ctx, in) == MemoryFormat::ChannelsLast;
    const bool w_cl = suggest_memory_format_cxx(ctx, w) == MemoryFormat::ChannelsLast;
    // mkldnn and the slow (thnn) kernels share the rule: either operand channels_last
    fake_format = in_cl || w_cl ? MemoryFormat::ChannelsLast : MemoryFormat::Contiguous;
    if (transposed && ctx.host.eager_torch.major < 2) return MemoryFormat::Contiguous;
    return fake_format;
  }
  // 3-d: only mkldnn keeps channels_last_3d; the slow 3-d kernels write contiguous output
  if (transposed || !uses_mkldnn(ctx, in, w, stride, dilation, output_padding, transposed, groups))
    return MemoryFormat::Contiguous;
  if (suggest_memory_format(ctx, in) == MemoryFormat::ChannelsLast3d ||
      suggest_memory_format(ctx, w) == MemoryFormat::ChannelsLast3d)
    return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

// determine_backend_memory_format for the CPU backends. `fake_format` is the memory format
// PyTorch 2.x's fake conv converts its meta output to (fake_impls.py conv's mem_fmt), which
// for 1.13 transposed 2-d convs differs from the eager layout returned.
MemoryFormat output_format(PropContext& ctx, TensorId in, TensorId w, const IntDims& stride, const IntDims& dilation,
                           const IntDims& output_padding, bool transposed, ExprId groups,
                           MemoryFormat& fake_format) {
  fake_format = MemoryFormat::Contiguous;
  const MemoryFormat eager = eager_output_format(ctx, in, w, stride, dilation, output_padding, transposed, groups,
                                                 fake_format);
  if (ctx.vals.rank(w) != 4) fake_format = eager;
  return eager;
}

// The questions of fake_impls.py conv's `convert(out, mem_fmt)`: the meta kernel's row-major
// output `.to(memory_format=mem_fmt)`. at::to first asks the C++ suggest_memory_format() of
// the output (_to_will_alias); when that is not mem_fmt (a channels_last mem_fmt), the
// Python dispatcher (export, Dynamo) runs the _to_copy decomposition, whose
// prims.convert_element_type meta asks is_non_overlapping_and_dense_or_false of it (a 3-d
// output is seen as (N, C, 1, L)). The clone into the new format asks nothing.
void fake_conv_convert_questions(PropContext& ctx, DType dtype, std::span<const ExprId> out,
                                 MemoryFormat fake_format) {
  Dims sizes(out), strides;
  if (sizes.size() == 3 && fake_format == MemoryFormat::Contiguous) return;  // a 3-d .to() asks nothing
  if (sizes.size() == 3) sizes.insert(2, ctx.ar.one());
  format_strides(ctx, sizes, MemoryFormat::Contiguous, strides);
  // at::to's _to_will_alias compares the C++ suggest_memory_format() of the output with
  // mem_fmt first: an aliasing .to() (mem_fmt contiguous) asks only that
  if (suggest_memory_format_cxx(ctx, ctx.new_tensor(dtype, sizes, strides)) == fake_format) return;
  prims_is_non_overlapping_and_dense_or_false(ctx, {sizes, strides});
}

// at::_convolution on a batched input; returns the output tensor.
TensorId convolution(PropContext& ctx, TensorId in, TensorId w, std::optional<TensorId> bias, const ConvArgs& a) {
  ExprArena& ar = ctx.ar;
  const auto ws = ctx.vals.sizes(w);
  const size_t k = ws.size();
  if (k < 3) ctx.fail("weight should have at least three dimensions");
  if (!holds(ctx, ctx.ar.gt(a.groups, ctx.ar.zero()))) ctx.fail("non-positive groups is not supported");
  const size_t dim = k - 2;
  IntDims stride, padding, dilation, output_padding;
  expand_param(ctx, a.stride, "stride", dim, stride);
  expand_param(ctx, a.padding, "padding", dim, padding);
  expand_param(ctx, a.dilation, "dilation", dim, dilation);
  expand_param(ctx, a.output_padding, "output_padding", dim, output_padding);
  check_shape_forward(ctx, in, w, bias, stride, padding, dilation, output_padding, a.transposed, a.groups);
  select_conv_backend_guards(ctx, in, w, stride, dilation, output_padding, a.transposed, a.groups);
  // No type promotion in 1.13 convolutions: every CPU backend rejects a weight or bias whose
  // dtype differs from the input's ("Input type (double) and bias type (float) should be the
  // same", "expected scalar type Double but found Float", ...).
  if (ctx.vals.dtype(w) != ctx.vals.dtype(in))
    ctx.fail("Input type ({}) and weight type ({}) should be the same", dtype_name(ctx.vals.dtype(in)),
             dtype_name(ctx.vals.dtype(w)));
  if (bias && ctx.vals.dtype(*bias) != ctx.vals.dtype(in))
    ctx.fail("Input type ({}) and bias type ({}) should be the same", dtype_name(ctx.vals.dtype(in)),
             dtype_name(ctx.vals.dtype(*bias)));

  const auto is = ctx.vals.sizes(in);
  Dims out;
  out.push_back(is[0]);
  out.push_back(a.transposed ? ar.mul(ws[1], a.groups) : ws[0]);
  for (size_t d = 0; d < dim; ++d) {
    const ExprId dk = ar.mul(ar.integer(dilation[d]), ar.sub(ws[d + 2], ar.one()));
    if (a.transposed) {
      // (S - 1)*s - 2p + d*(K - 1) + output_padding + 1
      const ExprId base = ar.mul(ar.sub(is[d + 2], ar.one()), ar.integer(stride[d]));
      out.push_back(ar.add(ar.add(base, dk), ar.integer(output_padding[d] + 1 - 2 * padding[d])));
    } else {
      // (S + 2p - d*(K - 1) - 1) // s + 1
      const ExprId num = ar.sub(ar.add(is[d + 2], ar.integer(2 * padding[d] - 1)), dk);
      out.push_back(ar.add(ar.floordiv(num, ar.integer(stride[d])), ar.one()));
    }
  }
  if (a.transposed)
    check_transpose(ctx, is.subspan(2), std::span<const ExprId>(out).subspan(2), stride, dilation, output_padding);

  MemoryFormat fake_format;
  const MemoryFormat fmt =
      output_format(ctx, in, w, stride, dilation, output_padding, a.transposed, a.groups, fake_format);
  // 2.x's meta conv on a CPU device (_meta_registrations.py calc_conv_nd_return_shape), run by
  // the fake conv after the backend selection: one torch._check of sym_or(o > 0 per spatial
  // output size); a guard only where no earlier answer decides it (resnetaa50's last stage)
  {
    FixedVector<ExprId, kMaxRank> positive;
    bool decided = false;  // a disjunct known true decides the Or without building it
    for (size_t d = 2; d < out.size() && !decided; ++d) {
      positive.push_back(ar.gt(out[d], ar.zero()));
      decided = ctx.decided_true(positive[positive.size() - 1]);
    }
    if (!decided && !holds(ctx, ar.logical_or(positive.span())))
      ctx.fail("Given input size per channel: {}. Calculated output size per channel: {}. Output size is too small",
               ctx.shape_str(is.subspan(2)), ctx.shape_str(std::span<const ExprId>(out).subspan(2)));
  }
  // then `input.new_empty(shape_out)`: C++ empty's check_size_nonnegative, `size >= 0` of
  // every size (decided for most convs; a guard where bounds alone cannot tell, e.g. after
  // TF-style 'same' padding, whose Max(0, ...) terms keep a spatial size's lower bound below 0)
  check_size_nonnegative(ctx, out);
  const DType dtype = ctx.vals.dtype(in);
  fake_conv_convert_questions(ctx, dtype, out, fake_format);
  if (k != 3) return new_in_format(ctx, dtype, out, fmt);
  // 1-d: computed as (N, C, 1, L) and squeezed back
  Dims out4(out), strides4;
  out4.insert(2, ar.one());
  format_strides(ctx, out4, fmt, strides4);
  drop_dim(out4, strides4, 2);
  return ctx.new_tensor(dtype, out4, strides4);
}

// batchify: an unbatched input (C, *S) runs as (1, C, *S).
TensorId batchify(PropContext& ctx, TensorId in, size_t spatial, std::string_view name, bool& batched) {
  const size_t r = ctx.vals.rank(in);
  if (r != spatial + 1 && r != spatial + 2)
    ctx.fail("Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}", spatial + 1,
             spatial + 2, name, ctx.shape_str(ctx.vals.sizes(in)));
  batched = r == spatial + 2;
  return batched ? in : unsqueeze_view(ctx, in, 0);
}

void set_unbatched(PropContext& ctx, TensorId out, bool batched) {
  if (batched) return ctx.set_tensor(out);
  ctx.set_tensor(squeeze_view(ctx, out, 0));
}

std::optional<TensorId> opt_bias(PropContext& ctx, size_t i) { return ctx.opt_tensor(ctx.arg(i)); }

constexpr const char* kConvNames[] = {"", "conv1d", "conv2d", "conv3d"};
constexpr const char* kConvTNames[] = {"", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d"};

// conv{N}d.default(input, weight, bias, stride, padding, dilation, groups)
template <size_t N>
void conv_nd_rule(PropContext& ctx) {
  bool batched = true;
  const TensorId in = batchify(ctx, ctx.tensor_arg(0), N, kConvNames[N], batched);
  ConvArgs a;
  ctx.int_list_const(ctx.arg(3), a.stride);
  ctx.int_list_const(ctx.arg(4), a.padding);
  ctx.int_list_const(ctx.arg(5), a.dilation);
  a.output_padding.push_back(0);
  a.groups = ctx.int_expr(ctx.arg(6));
  set_unbatched(ctx, convolution(ctx, in, ctx.tensor_arg(1), opt_bias(ctx, 2), a), batched);
}

// conv{N}d.padding(input, weight, bias, stride, str padding, dilation, groups):
// _convolution_mode. 'same' pads d*(K-1) in total, the odd element on the right, through
// an explicit constant_pad_nd when asymmetric.
template <size_t N>
void conv_padding_nd_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  bool batched = true;
  TensorId in = batchify(ctx, ctx.tensor_arg(0), N, kConvNames[N], batched);
  const TensorId w = ctx.tensor_arg(1);
  ConvArgs a;
  ctx.int_list_const(ctx.arg(3), a.stride);
  ctx.int_list_const(ctx.arg(5), a.dilation);
  a.output_padding.push_back(0);
  a.groups = ctx.int_expr(ctx.arg(6));
  const std::string_view mode = ctx.string_arg(ctx.arg(4));
  if (mode == "valid") {
    a.padding.push_back(0);
    return set_unbatched(ctx, convolution(ctx, in, w, opt_bias(ctx, 2), a), batched);
  }
  if (mode != "same") ctx.fail("Invalid padding string: '{}'", mode);
  // _convolution_same
  const auto ws = ctx.vals.sizes(w);
  const size_t k = ws.size();
  if (k <= 2) ctx.fail("weight should have at least three dimensions");
  const size_t dim = k - 2;
  if (ctx.vals.rank(in) != k)
    ctx.fail("Expected {}-dimensional input for {}-dimensional weight{}, but got {}-dimensional input of size {} instead",
             k, k, ctx.shape_str(ws), ctx.vals.rank(in), ctx.shape_str(ctx.vals.sizes(in)));
  if (a.stride.size() != dim && a.stride.size() != 1) ctx.fail("stride cannot broadcast to {} dimensions", dim);
  if (a.dilation.size() != dim && a.dilation.size() != 1) ctx.fail("dilation cannot broadcast to {} dimensions", dim);
  for (int64_t s : a.stride)
    if (s != 1) ctx.fail("padding='same' is not supported for strided convolutions");
  IntDims pad_l, pad_r;
  bool symmetric = true;
  for (size_t i = 0; i < dim; ++i) {
    const int64_t d = a.dilation.size() == 1 ? a.dilation[0] : a.dilation[i];
    const int64_t total = d * (ctx.guard_int(ws[i + 2]) - 1);
    pad_l.push_back(total / 2);
    pad_r.push_back(total - total / 2);
    symmetric &= pad_l.back() == pad_r.back();
  }
  if (!symmetric) {
    // constant_pad_nd by the difference on the right; its output keeps the input's
    // suggested layout, which the convolution then sees
    Dims sizes(ctx.vals.sizes(in));
    for (size_t i = 0; i < dim; ++i) {
      sizes[i + 2] = ar.add(sizes[i + 2], ar.integer(pad_r[i] - pad_l[i]));
    }
    in = new_in_format(ctx, ctx.vals.dtype(in), sizes, suggest_memory_format(ctx, in));
  }
  a.padding = pad_l;
  set_unbatched(ctx, convolution(ctx, in, w, opt_bias(ctx, 2), a), batched);
}

// conv_transpose{N}d.input(input, weight, bias, stride, padding, output_padding, groups, dilation)
template <size_t N>
void conv_transpose_nd_rule(PropContext& ctx) {
  bool batched = true;
  const TensorId in = batchify(ctx, ctx.tensor_arg(0), N, kConvTNames[N], batched);
  ConvArgs a;
  a.transposed = true;
  ctx.int_list_const(ctx.arg(3), a.stride);
  ctx.int_list_const(ctx.arg(4), a.padding);
  ctx.int_list_const(ctx.arg(5), a.output_padding);
  a.groups = ctx.int_expr(ctx.arg(6));
  ctx.int_list_const(ctx.arg(7), a.dilation);
  set_unbatched(ctx, convolution(ctx, in, ctx.tensor_arg(1), opt_bias(ctx, 2), a), batched);
}

// convolution.default / _convolution.default(input, weight, bias, stride, padding,
// dilation, transposed, output_padding, groups, ...): batched input only.
void convolution_default_rule(PropContext& ctx) {
  ConvArgs a;
  ctx.int_list_const(ctx.arg(3), a.stride);
  ctx.int_list_const(ctx.arg(4), a.padding);
  ctx.int_list_const(ctx.arg(5), a.dilation);
  a.transposed = ctx.bool_const(ctx.arg(6));
  ctx.int_list_const(ctx.arg(7), a.output_padding);
  a.groups = ctx.int_expr(ctx.arg(8));
  ctx.set_tensor(convolution(ctx, ctx.tensor_arg(0), ctx.tensor_arg(1), opt_bias(ctx, 2), a));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.conv1d.default", conv_nd_rule<1>},
    {"aten.conv2d.default", conv_nd_rule<2>},
    {"aten.conv3d.default", conv_nd_rule<3>},
    {"aten.conv1d.padding", conv_padding_nd_rule<1>},
    {"aten.conv2d.padding", conv_padding_nd_rule<2>},
    {"aten.conv3d.padding", conv_padding_nd_rule<3>},
    {"aten.conv_transpose1d.default", conv_transpose_nd_rule<1>},
    {"aten.conv_transpose1d.input", conv_transpose_nd_rule<1>},
    {"aten.conv_transpose2d.input", conv_transpose_nd_rule<2>},
    {"aten.conv_transpose3d.input", conv_transpose_nd_rule<3>},
    {"aten.convolution.default", convolution_default_rule},
    {"aten._convolution.default", convolution_default_rule},
};

}  // namespace

std::span<const OpRuleEntry> convolution_rules() { return kRules; }

}  // namespace symshape::conv
