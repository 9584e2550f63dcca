// Spatial rearrangements: im2col / col2im (sliding blocks, contiguous output) and
// pixel_shuffle / pixel_unshuffle (semantics.md H.19; eager 1.13's CPU kernels allocate
// in the input's suggested layout).
#include "prop/memory_format.h"
#include "prop/ops/conv_family.h"
#include "prop/ops/view_geometry.h"

namespace symshape::conv {

namespace {

struct Window {
  int64_t kh, kw, dh, dw, ph, pw, sh, sw;
};

void read_pair(PropContext& ctx, ArgId a, std::string_view what, int64_t& h, int64_t& w) {
  IntDims v;
  ctx.int_list_const(a, v);
  if (v.size() != 2) ctx.fail("It is expected {} equals to 2, but got size {}", what, v.size());
  h = v[0];
  w = v[1];
}

// The parameter checks shared by im2col_shape_check and col2im_shape_check.
void check_window(PropContext& ctx, const Window& w) {
  if (w.kw <= 0 || w.kh <= 0)
    ctx.fail("kernel size should be greater than zero, but got kernel_height: {} kernel_width: {}", w.kh, w.kw);
  if (w.dw <= 0 || w.dh <= 0)
    ctx.fail("dilation should be greater than zero, but got dilation_height: {} dilation_width: {}", w.dh, w.dw);
  if (w.pw < 0 || w.ph < 0)
    ctx.fail("padding should be non-negative, but got pad_height: {} pad_width: {}", w.ph, w.pw);
  if (w.sw <= 0 || w.sh <= 0)
    ctx.fail("stride should be greater than zero, but got stride_height: {} stride_width: {}", w.sh, w.sw);
}

// Number of block positions along one dim: div_rtn(S + 2p - (d*(k-1)+1), s) + 1.
ExprId blocks(PropContext& ctx, ExprId size, int64_t k, int64_t d, int64_t p, int64_t s) {
  ExprArena& ar = ctx.ar;
  return ar.add(ar.floordiv(ar.add(size, ar.integer(2 * p - d * (k - 1) - 1)), ar.integer(s)), ar.one());
}

// Under the Python dispatcher (export, Dynamo) PyTorch 2.x's FakeTensorMode runs im2col's
// Python decomposition (torch/_decomp/decompositions.py im2col): the padded input indexed by
// the block rows (kh, oh, 1, 1) and columns (kw, ow), permuted to (N, C, kh, kw, oh, ow) and
// reshaped to (N, C*kh*kw, oh*ow). The fake index result is laid out so that the permuted
// tensor is row-major (measured with 2.13 on symbolic sizes), so the reshape is a view whose
// _reshape_view_helper questions are the guards.
// The block counts are the index aranges' lengths, ceil((S + 2p - d*(k-1)) / s), which
// PyTorch prints as (S + 2p - d*(k-1) + s - 1) // s.
void im2col_decomposition_reshape_guards(PropContext& ctx, ExprId n, ExprId c, const Window& w, ExprId ih, ExprId iw) {
  ExprArena& ar = ctx.ar;
  auto arange_length = [&](ExprId size, int64_t k, int64_t d, int64_t p, int64_t st) {
    return ar.floordiv(ar.add(size, ar.integer(2 * p - d * (k - 1) + st - 1)), ar.integer(st));
  };
  const ExprId oh = arange_length(ih, w.kh, w.dh, w.ph, w.sh), ow = arange_length(iw, w.kw, w.dw, w.pw, w.sw);
  const ExprId sizes[] = {n, c, ar.integer(w.kh), ar.integer(w.kw), oh, ow};
  Dims strides;
  format_strides(ctx, sizes, MemoryFormat::Contiguous, strides);
  const ExprId shape[] = {n, ar.mul(c, ar.integer(w.kh * w.kw)), ar.mul(oh, ow)};
  reshape_view_helper_guards(ctx, sizes, strides, shape);
}

// im2col(self, kernel_size, dilation, padding, stride) -> (N, C*kh*kw, L)
void im2col_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId in = ctx.tensor_arg(0);
  Window w{};
  read_pair(ctx, ctx.arg(1), "kernel_size", w.kh, w.kw);
  read_pair(ctx, ctx.arg(2), "dilation", w.dh, w.dw);
  read_pair(ctx, ctx.arg(3), "padding", w.ph, w.pw);
  read_pair(ctx, ctx.arg(4), "stride", w.sh, w.sw);
  check_window(ctx, w);
  const auto s = ctx.vals.sizes(in);
  const size_t ndim = s.size();
  auto nonzero = [&](size_t d) { return !ctx.guard(ar.eq(s[d], ar.zero())); };
  const bool ok = (ndim == 3 && nonzero(0) && nonzero(1) && nonzero(2)) ||
                  (ndim == 4 && nonzero(1) && nonzero(2) && nonzero(3));
  if (!ok)
    ctx.fail("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, "
             "but got: {}",
             ctx.shape_str(s));
  const ExprId ih = s[ndim - 2], iw = s[ndim - 1];
  const ExprId oh = blocks(ctx, ih, w.kh, w.dh, w.ph, w.sh);
  const ExprId ow = blocks(ctx, iw, w.kw, w.dw, w.pw, w.sw);
  if (ctx.guard(ar.lt(oh, ar.one())) || ctx.guard(ar.lt(ow, ar.one())))
    // eager prints the input height twice
    ctx.fail("Given input with spatial size ({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), "
             "calculated shape of the array of sliding blocks as ({}, {}), but its components must be at least one.",
             ctx.str(ih), ctx.str(ih), w.kh, w.kw, w.dh, w.dw, w.ph, w.pw, ctx.str(oh), ctx.str(ow));
  Dims shape;
  if (ndim == 4) shape.push_back(s[0]);
  shape.push_back(ar.mul(s[ndim - 3], ar.integer(w.kh * w.kw)));
  shape.push_back(ar.mul(oh, ow));
  im2col_decomposition_reshape_guards(ctx, ndim == 4 ? s[0] : ar.one(), s[ndim - 3], w, ih, iw);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(in), shape));
}

// col2im(self, output_size, kernel_size, dilation, padding, stride) -> (N, C, oh, ow)
void col2im_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId in = ctx.tensor_arg(0);
  Dims out;
  ctx.int_list(ctx.arg(1), out);
  if (out.size() != 2) ctx.fail("It is expected output_size equals to 2, but got size {}", out.size());
  Window w{};
  read_pair(ctx, ctx.arg(2), "kernel_size", w.kh, w.kw);
  read_pair(ctx, ctx.arg(3), "dilation", w.dh, w.dw);
  read_pair(ctx, ctx.arg(4), "padding", w.ph, w.pw);
  read_pair(ctx, ctx.arg(5), "stride", w.sh, w.sw);
  if (ctx.guard(ar.le(out[0], ar.zero())) || ctx.guard(ar.le(out[1], ar.zero())))
    ctx.fail("output should be greater than zero, but got output_height: {} output_width: {}", ctx.str(out[0]),
             ctx.str(out[1]));
  check_window(ctx, w);
  const auto s = ctx.vals.sizes(in);
  const size_t ndim = s.size();
  auto nonzero = [&](size_t d) { return !ctx.guard(ar.eq(s[d], ar.zero())); };
  const bool ok = (ndim == 2 && nonzero(0) && nonzero(1)) || (ndim == 3 && nonzero(1) && nonzero(2));
  if (!ok)
    ctx.fail("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for "
             "input, but got: {}",
             ctx.shape_str(s));
  const ExprId planes = s[ndim - 2];
  const ExprId kk = ar.integer(w.kh * w.kw);
  if (!conv::holds(ctx, ar.eq(ar.mod(planes, kk), ar.zero())))
    ctx.fail("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got "
             "input.size(1)={} and kernel_size=({}, {}).",
             ctx.str(planes), w.kh, w.kw);
  const ExprId bh = blocks(ctx, out[0], w.kh, w.dh, w.ph, w.sh);
  const ExprId bw = blocks(ctx, out[1], w.kw, w.dw, w.pw, w.sw);
  const ExprId length = s[ndim - 1];
  if (!conv::holds(ctx, ar.eq(length, ar.mul(bh, bw))))
    ctx.fail("Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), stride=({}, {}), "
             "expected size of input's dimension 2 to match the calculated number of sliding blocks {} * {} = {}, but "
             "got input.size(2)={}.",
             ctx.str(out[0]), ctx.str(out[1]), w.kh, w.kw, w.dh, w.dw, w.ph, w.pw, w.sh, w.sw, ctx.str(bh),
             ctx.str(bw), ctx.str(ar.mul(bh, bw)), ctx.str(length));
  if (ctx.guard(ar.lt(bh, ar.one())) || ctx.guard(ar.lt(bw, ar.one())))
    ctx.fail("Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), stride=({}, {}), "
             "calculated shape of the array of sliding blocks as ({}, {}), which is too small (non-positive)",
             ctx.str(out[0]), ctx.str(out[1]), w.kh, w.kw, w.dh, w.dw, w.ph, w.pw, w.sh, w.sw, ctx.str(bh),
             ctx.str(bw));
  Dims shape;
  if (ndim == 3) shape.push_back(s[0]);
  shape.push_back(ar.floordiv(planes, kk));
  shape.push_back(out[0]);
  shape.push_back(out[1]);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(in), shape));
}

// pixel_shuffle(self, r): (*, C*r*r, H, W) -> (*, C, H*r, W*r)
void pixel_shuffle_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId in = ctx.tensor_arg(0);
  const int64_t r = ctx.int_const(ctx.arg(1));
  const auto s = ctx.vals.sizes(in);
  const size_t n = s.size();
  if (n < 3)
    ctx.fail("pixel_shuffle expects input to have at least 3 dimensions, but got input with {} dimension(s)", n);
  if (r <= 0) ctx.fail("pixel_shuffle expects a positive upscale_factor, but got {}", r);
  const ExprId r2 = ar.integer(r * r);
  if (!conv::holds(ctx, ar.eq(ar.mod(s[n - 3], r2), ar.zero())))
    ctx.fail("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
             "but input.size(-3)={} is not divisible by {}",
             ctx.str(s[n - 3]), r * r);
  Dims shape(s);
  shape[n - 3] = ar.floordiv(s[n - 3], r2);
  shape[n - 2] = ar.mul(s[n - 2], ar.integer(r));
  shape[n - 1] = ar.mul(s[n - 1], ar.integer(r));
  ctx.set_tensor(new_in_format(ctx, ctx.vals.dtype(in), shape, suggest_memory_format(ctx, in)));
}

// pixel_unshuffle(self, r): (*, C, H, W) -> (*, C*r*r, H/r, W/r)
void pixel_unshuffle_rule(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId in = ctx.tensor_arg(0);
  const int64_t r = ctx.int_const(ctx.arg(1));
  const auto s = ctx.vals.sizes(in);
  const size_t n = s.size();
  if (n < 3)
    ctx.fail("pixel_unshuffle expects input to have at least 3 dimensions, but got input with {} dimension(s)", n);
  if (r <= 0) ctx.fail("pixel_unshuffle expects a positive downscale_factor, but got {}", r);
  const ExprId rr = ar.integer(r);
  if (!conv::holds(ctx, ar.eq(ar.mod(s[n - 2], rr), ar.zero())))
    ctx.fail("pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)={} is not "
             "divisible by {}",
             ctx.str(s[n - 2]), r);
  if (!conv::holds(ctx, ar.eq(ar.mod(s[n - 1], rr), ar.zero())))
    ctx.fail("pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)={} is not "
             "divisible by {}",
             ctx.str(s[n - 1]), r);
  Dims shape(s);
  shape[n - 3] = ar.mul(s[n - 3], ar.integer(r * r));
  shape[n - 2] = ar.floordiv(s[n - 2], rr);
  shape[n - 1] = ar.floordiv(s[n - 1], rr);
  ctx.set_tensor(new_in_format(ctx, ctx.vals.dtype(in), shape, suggest_memory_format(ctx, in)));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.im2col.default", im2col_rule},
    {"aten.col2im.default", col2im_rule},
    {"aten.pixel_shuffle.default", pixel_shuffle_rule},
    {"aten.pixel_unshuffle.default", pixel_unshuffle_rule},
};

}  // namespace

std::span<const OpRuleEntry> fold_rules() { return kRules; }

}  // namespace symshape::conv
