// Max / avg pooling (semantics.md H.16) as eager 1.13 computes it: pooling_output_shape
// (its pad check first), pool2d/pool3d_shape_check, and the output layout of each
// kernel (max_pool2d/avg_pool2d/max_pool3d keep the input's suggested layout for batched
// input; avg_pool3d and max_pool1d write contiguous output). The 1-d ops with indices /
// avg_pool1d run the 2-d kernel on x.unsqueeze(-2).
#include <fmt/format.h>

#include "prop/memory_format.h"
#include "prop/ops/conv_family.h"
#include "prop/shape_helpers.h"

namespace symshape::conv {

namespace {

struct PoolArgs {
  IntDims kernel, stride, padding, dilation;
  bool ceil_mode = false;
};

std::string xs(PropContext& ctx, std::span<const ExprId> v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += "x";
    s += ctx.str(v[i]);
  }
  return s;
}

// Reads kernel_size / stride (empty = kernel) / padding / dilation for an n-d pool,
// with the "must either be a single int, or a tuple of n ints" checks.
void read_window(PropContext& ctx, std::string_view op, size_t n, size_t kernel_i, size_t stride_i, size_t padding_i,
                 size_t dilation_i, PoolArgs& p) {
  spatial_param(ctx, ctx.arg(kernel_i), n, op, "kernel_size", p.kernel);
  IntDims s;
  ctx.int_list_const(ctx.arg(stride_i), s);
  if (s.empty()) {
    p.stride = p.kernel;
  } else {
    spatial_param(ctx, ctx.arg(stride_i), n, op, "stride", p.stride);
  }
  spatial_param(ctx, ctx.arg(padding_i), n, op, "padding", p.padding);
  if (dilation_i != SIZE_MAX) {
    spatial_param(ctx, ctx.arg(dilation_i), n, op, "dilation", p.dilation);
  } else {
    p.dilation.clear();
    p.dilation.resize(n, 1);
  }
}

// pooling_output_shape (1.13): stride and pad checks, then the window count.
ExprId pool_out(PropContext& ctx, ExprId in, int64_t k, int64_t pad, int64_t stride, int64_t dilation, bool ceil) {
  if (stride == 0) ctx.fail("stride should not be zero");
  if (pad < 0) ctx.fail("pad must be non-negative, but got pad: {}", pad);
  if (pad > k / 2) ctx.fail("pad should be at most half of kernel size, but got pad={} and kernel_size={}", pad, k);
  return pooling_output_size(ctx, in, k, pad, pad, stride, dilation, ceil);
}

// pool2d_shape_check (1.13) for a 3-d or 4-d input; out = the two spatial output sizes.
void pool2d_shape_check(PropContext& ctx, TensorId in, const PoolArgs& p, std::span<const ExprId> out,
                        MemoryFormat format) {
  ExprArena& ar = ctx.ar;
  if (p.kernel[0] <= 0 || p.kernel[1] <= 0)
    ctx.fail("kernel size should be greater than zero, but got kH: {} kW: {}", p.kernel[0], p.kernel[1]);
  if (p.stride[0] <= 0 || p.stride[1] <= 0)
    ctx.fail("stride should be greater than zero, but got dH: {} dW: {}", p.stride[0], p.stride[1]);
  if (p.dilation[0] <= 0 || p.dilation[1] <= 0)
    ctx.fail("dilation should be greater than zero, but got dilationH: {} dilationW: {}", p.dilation[0],
             p.dilation[1]);
  const auto s = ctx.vals.sizes(in);
  const size_t ndim = s.size();
  auto nonzero = [&](size_t d) { return d < ndim && !ctx.guard(ar.eq(s[d], ar.zero())); };
  const bool valid_dims = nonzero(1) && nonzero(2);
  if (format == MemoryFormat::ChannelsLast) {
    if (!(ndim == 4 && valid_dims && nonzero(3)))
      ctx.fail("Expected 4D (batch mode) tensor expected for input with channels_last layout with optional 0 dim batch "
               "size for input, but got: {}",
               ctx.shape_str(s));
  } else if (!((ndim == 3 && nonzero(0) && valid_dims) || (ndim == 4 && valid_dims && nonzero(3)))) {
    ctx.fail("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:{}",
             ctx.shape_str(s));
  }
  if (p.kernel[1] / 2 < p.padding[1] || p.kernel[0] / 2 < p.padding[0])
    ctx.fail("pad should be smaller than or equal to half of kernel size, but got padW = {}, padH = {}, kW = {}, kH = {}",
             p.padding[1], p.padding[0], p.kernel[1], p.kernel[0]);
  // 2.x (_meta_registrations.py pool2d_shape_check): one torch._check of
  // sym_and(outputWidth >= 1, outputHeight >= 1), a single guard where it is not decided
  const ExprId fits[] = {ar.ge(out[1], ar.one()), ar.ge(out[0], ar.one())};
  // both known true decide the And without building it
  const bool decided = ctx.decided_true(fits[0]) && ctx.decided_true(fits[1]);
  if (!decided && !holds(ctx, ar.logical_and(fits))) {
    const ExprId given[] = {s[ndim - 3], s[ndim - 2], s[ndim - 1]};
    const ExprId calc[] = {s[ndim - 3], out[0], out[1]};
    ctx.fail("Given input size: ({}). Calculated output size: ({}). Output size is too small", xs(ctx, given),
             xs(ctx, calc));
  }
}

// pool3d_shape_check (1.13) for a 4-d or 5-d input.
void pool3d_shape_check(PropContext& ctx, TensorId in, const PoolArgs& p, std::span<const ExprId> out,
                        std::string_view fn, bool check_input_size) {
  ExprArena& ar = ctx.ar;
  const IntDims& k = p.kernel;
  if (k[0] <= 0 || k[1] <= 0 || k[2] <= 0)
    ctx.fail("kernel size should be greater than zero, but got kT: {} kH: {} kW: {}", k[0], k[1], k[2]);
  if (p.stride[0] <= 0 || p.stride[1] <= 0 || p.stride[2] <= 0)
    ctx.fail("stride should be greater than zero, but got dT: {} dH: {} dW: {}", p.stride[0], p.stride[1],
             p.stride[2]);
  if (p.dilation[0] <= 0 || p.dilation[1] <= 0 || p.dilation[2] <= 0)
    ctx.fail("dilation should be greater than zero, but got dilationT: {} dilationH: {} dilationW: {}", p.dilation[0],
             p.dilation[1], p.dilation[2]);
  const auto s = ctx.vals.sizes(in);
  const size_t ndim = s.size();
  if (ndim != 4 && ndim != 5) ctx.fail("{}: Expected 4D or 5D tensor for input, but got: {}", fn, ctx.shape_str(s));
  for (size_t i = ndim == 5 ? 1 : 0; i < ndim; ++i)
    if (ctx.guard(ar.le(s[i], ar.zero())))
      ctx.fail("{}: Expected input's non-batch dimensions to have positive length, but input has a shape of {} and "
               "non-batch dimension {} has length zero!",
               fn, ctx.shape_str(s), i);
  const ExprId it = s[ndim - 3], ih = s[ndim - 2], iw = s[ndim - 1];
  if (check_input_size) {
    const bool fits = !ctx.guard(ar.lt(it, ar.integer(k[0]))) && !ctx.guard(ar.lt(ih, ar.integer(k[1]))) &&
                      !ctx.guard(ar.lt(iw, ar.integer(k[2])));
    if (!fits)
      ctx.fail("input image (T: {} H: {} W: {}) smaller than kernel size (kT: {} kH: {} kW: {})", ctx.str(it),
               ctx.str(ih), ctx.str(iw), k[0], k[1], k[2]);
  }
  if (k[0] / 2 < p.padding[0] || k[2] / 2 < p.padding[2] || k[1] / 2 < p.padding[1])
    ctx.fail("pad should be smaller than or equal to half of kernel size, but got kT: {} kW: {} kH: {} padT: {} padW: "
             "{} padH: {}",
             k[0], k[2], k[1], p.padding[0], p.padding[2], p.padding[1]);
  bool too_small = false;
  for (ExprId o : out) too_small = too_small || ctx.guard(ar.lt(o, ar.one()));
  if (too_small) {
    const ExprId given[] = {s[ndim - 4], it, ih, iw};
    const ExprId calc[] = {s[ndim - 4], out[0], out[1], out[2]};
    ctx.fail("Given input size: ({}). Calculated output size: ({}). Output size is too small", xs(ctx, given),
             xs(ctx, calc));
  }
}

// Output sizes of an n-d pool over the trailing n dims of `in`.
void pool_sizes(PropContext& ctx, TensorId in, const PoolArgs& p, Dims& out_spatial) {
  const auto s = ctx.vals.sizes(in);
  const size_t n = p.kernel.size();
  out_spatial.clear();
  for (size_t i = 0; i < n; ++i)
    out_spatial.push_back(
        pool_out(ctx, s[s.size() - n + i], p.kernel[i], p.padding[i], p.stride[i], p.dilation[i], p.ceil_mode));
}

// The result shape: the input's leading dims, then the pooled spatial dims.
void result_shape(PropContext& ctx, TensorId in, std::span<const ExprId> out_spatial, Dims& shape) {
  const auto s = ctx.vals.sizes(in);
  shape.assign(s.first(s.size() - out_spatial.size()));
  for (ExprId e : out_spatial) shape.push_back(e);
}

// max_pool2d_with_indices (1.13 meta) on a 3-d / 4-d input; values and int64 indices.
void max_pool2d_core(PropContext& ctx, TensorId in, const PoolArgs& p, TensorId& values, TensorId& indices) {
  const MemoryFormat format = suggest_memory_format(ctx, in);
  const size_t ndim = ctx.vals.rank(in);
  if (format == MemoryFormat::ChannelsLast && ndim != 4)
    ctx.fail("non-empty 4D (batch mode) tensor expected for input with channels_last layout");
  if (format == MemoryFormat::Contiguous && ndim != 3 && ndim != 4)
    ctx.fail("non-empty 3D or 4D (batch mode) tensor expected for input");
  Dims out, shape;
  pool_sizes(ctx, in, p, out);
  pool2d_shape_check(ctx, in, p, out, format);
  result_shape(ctx, in, out, shape);
  values = new_in_format(ctx, ctx.vals.dtype(in), shape, format);
  indices = new_in_format(ctx, DType::Int64, shape, format);
}

// avg_pool2d (1.13 meta): 3-d input contiguous, 4-d in the suggested layout.
TensorId avg_pool2d_core(PropContext& ctx, TensorId in, const PoolArgs& p, std::optional<int64_t> divisor) {
  if (divisor && *divisor == 0) ctx.fail("divisor must be not zero");
  const size_t ndim = ctx.vals.rank(in);
  if (ndim != 3 && ndim != 4)
    ctx.fail("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:{}",
             ctx.shape_str(ctx.vals.sizes(in)));
  Dims out, shape;
  pool_sizes(ctx, in, p, out);
  const MemoryFormat format = suggest_memory_format(ctx, in);
  pool2d_shape_check(ctx, in, p, out, format);
  result_shape(ctx, in, out, shape);
  return new_in_format(ctx, ctx.vals.dtype(in), shape, ndim == 3 ? MemoryFormat::Contiguous : format);
}

// x.unsqueeze(-2) / out.squeeze(-2): the 1-d ops run the 2-d kernel
TensorId unsqueeze_h(PropContext& ctx, TensorId t) { return unsqueeze_view(ctx, t, ctx.vals.rank(t) - 1); }
TensorId squeeze_h(PropContext& ctx, TensorId t) { return squeeze_view(ctx, t, ctx.vals.rank(t) - 2); }

// checkDimRange(name, self, 2, 4) and check1d of the 1-d pools.
void check_1d_pool_input(PropContext& ctx, TensorId in, std::string_view name) {
  const size_t r = ctx.vals.rank(in);
  if (r < 2 || r >= 4)
    ctx.fail("Expected 2 to 3 dimensions, but got {}-dimensional tensor for argument #1 'self' (while checking "
             "arguments for {})",
             r, name);
}

void check1d(PropContext& ctx, std::string_view fn, std::string_view arg, const IntDims& v) {
  if (v.size() != 1)
    ctx.fail("{}() argument '{}' should contain one int (got {})", fn, arg, v.size());
}

// Widens a 1-d window (kernel k, stride s, ...) to the (1, k) window of the 2-d kernel.
PoolArgs widen_1d(const PoolArgs& p) {
  PoolArgs q;
  q.kernel = IntDims(std::span<const int64_t>({int64_t{1}, p.kernel[0]}));
  q.stride = IntDims(std::span<const int64_t>({int64_t{1}, p.stride[0]}));
  q.padding = IntDims(std::span<const int64_t>({int64_t{0}, p.padding[0]}));
  q.dilation = IntDims(std::span<const int64_t>({int64_t{1}, p.dilation[0]}));
  q.ceil_mode = p.ceil_mode;
  return q;
}

void read_1d(PropContext& ctx, std::string_view name, bool with_dilation, PoolArgs& p) {
  ctx.int_list_const(ctx.arg(1), p.kernel);
  ctx.int_list_const(ctx.arg(2), p.stride);
  if (p.stride.empty()) p.stride = p.kernel;
  ctx.int_list_const(ctx.arg(3), p.padding);
  if (with_dilation) {
    ctx.int_list_const(ctx.arg(4), p.dilation);
  } else {
    p.dilation.clear();
    p.dilation.push_back(1);
  }
  check1d(ctx, name, "kernel_size", p.kernel);
  check1d(ctx, name, "stride", p.stride);
  check1d(ctx, name, "padding", p.padding);
  if (with_dilation) check1d(ctx, name, "dilation", p.dilation);
}

// ---- rules ------------------------------------------------------------------------------

// max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode): the CPU no-grad
// kernel (check_max_pool1d, contiguous (NB, NC, OW) output).
void max_pool1d_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  const size_t r = ctx.vals.rank(in);
  if (r != 2 && r != 3)
    ctx.fail("max_pool1d() Expected 2D or 3D input tensor, but got {}", ctx.shape_str(ctx.vals.sizes(in)));
  PoolArgs p;
  ctx.int_list_const(ctx.arg(1), p.kernel);
  ctx.int_list_const(ctx.arg(2), p.stride);
  ctx.int_list_const(ctx.arg(3), p.padding);
  ctx.int_list_const(ctx.arg(4), p.dilation);
  p.ceil_mode = ctx.bool_const(ctx.arg(5));
  if (p.kernel.size() != 1)
    ctx.fail("max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got size {}",
             p.kernel.size());
  if (p.stride.size() > 1)
    ctx.fail("max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size {}",
             p.stride.size());
  if (p.padding.size() != 1)
    ctx.fail("max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got size {}",
             p.padding.size());
  if (p.dilation.size() != 1)
    ctx.fail("max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got size {}",
             p.dilation.size());
  if (p.stride.empty()) p.stride = p.kernel;
  if (p.kernel[0] <= 0) ctx.fail("max_pool1d() kernel_size must be greater than zero, but got {}", p.kernel[0]);
  if (p.stride[0] <= 0) ctx.fail("max_pool1d() stride must be greater than zero, but got {}", p.stride[0]);
  if (p.padding[0] < 0) ctx.fail("max_pool1d() padding must be non-negative, but got {}", p.padding[0]);
  if (p.padding[0] > p.kernel[0] / 2)
    ctx.fail("max_pool1d() padding should be at most half of kernel size, but got padding={} and kernel_size={}",
             p.padding[0], p.kernel[0]);
  if (p.dilation[0] <= 0) ctx.fail("max_pool1d() dilation must be greater than zero, but got {}", p.dilation[0]);
  const auto s = ctx.vals.sizes(in);
  const ExprId ow =
      pooling_output_size(ctx, s[r - 1], p.kernel[0], p.padding[0], p.padding[0], p.stride[0], p.dilation[0],
                          p.ceil_mode);
  // check_max_pool1d: TORCH_CHECK(OW >= 0, ...); an empty output (OW == 0) is accepted
  if (ctx.guard(ctx.ar.lt(ow, ctx.ar.zero()))) ctx.fail("max_pool1d() Invalid computed output size: {}", ctx.str(ow));
  Dims shape(s);
  shape[r - 1] = ow;
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(in), shape));
}

void max_pool1d_with_indices_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  PoolArgs p;
  read_1d(ctx, "max_pool1d", true, p);
  p.ceil_mode = ctx.bool_const(ctx.arg(5));
  check_1d_pool_input(ctx, in, "max_pool1d");
  TensorId values, indices;
  max_pool2d_core(ctx, unsqueeze_h(ctx, in), widen_1d(p), values, indices);
  const TensorId out[] = {squeeze_h(ctx, values), squeeze_h(ctx, indices)};
  ctx.set_tensors(out);
}

// max_pool2d / max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)
void read_max_pool2d(PropContext& ctx, PoolArgs& p) {
  read_window(ctx, "max_pool2d", 2, 1, 2, 3, 4, p);
  p.ceil_mode = ctx.bool_const(ctx.arg(5));
}

void max_pool2d_rule(PropContext& ctx) {
  PoolArgs p;
  read_max_pool2d(ctx, p);
  TensorId values, indices;
  max_pool2d_core(ctx, ctx.tensor_arg(0), p, values, indices);
  ctx.set_tensor(values);
}

void max_pool2d_with_indices_rule(PropContext& ctx) {
  PoolArgs p;
  read_max_pool2d(ctx, p);
  TensorId out[2];
  max_pool2d_core(ctx, ctx.tensor_arg(0), p, out[0], out[1]);
  ctx.set_tensors(out);
}

// max_pool3d_with_indices (1.13 CPU): 5-d output in the input's suggested layout.
void max_pool3d_core(PropContext& ctx, TensorId out[2]) {
  const TensorId in = ctx.tensor_arg(0);
  PoolArgs p;
  read_window(ctx, "max_pool3d", 3, 1, 2, 3, 4, p);
  p.ceil_mode = ctx.bool_const(ctx.arg(5));
  Dims o, shape;
  pool_sizes(ctx, in, p, o);
  pool3d_shape_check(ctx, in, p, o, "max_pool3d_with_indices_out_cpu_template()", false);
  result_shape(ctx, in, o, shape);
  const MemoryFormat format = ctx.vals.rank(in) == 5 ? suggest_memory_format(ctx, in) : MemoryFormat::Contiguous;
  out[0] = new_in_format(ctx, ctx.vals.dtype(in), shape, format);
  out[1] = new_in_format(ctx, DType::Int64, shape, format);
}

void max_pool3d_rule(PropContext& ctx) {
  TensorId out[2];
  max_pool3d_core(ctx, out);
  ctx.set_tensor(out[0]);
}

void max_pool3d_with_indices_rule(PropContext& ctx) {
  TensorId out[2];
  max_pool3d_core(ctx, out);
  ctx.set_tensors(out);
}

// avg_pool1d(self, kernel_size, stride, padding, ceil_mode, count_include_pad)
void avg_pool1d_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  PoolArgs p;
  read_1d(ctx, "avg_pool1d", false, p);
  p.ceil_mode = ctx.bool_const(ctx.arg(4));
  check_1d_pool_input(ctx, in, "avg_pool1d");
  // CompositeImplicit: avg_pool2d of the (N, C, 1, L) view is a dispatch of its own, so
  // FakeTensorMode's cache asks the 4-d layouts of its argument and, on the miss, of its
  // result (nextvit's `L' != 0` after pool2d_shape_check's `L' >= 1`)
  const TensorId in4 = unsqueeze_h(ctx, in);
  fake_cache_metadata_questions(ctx, {ctx.vals.sizes(in4), ctx.vals.strides(in4)});
  const TensorId out4 = avg_pool2d_core(ctx, in4, widen_1d(p), std::nullopt);
  fake_cache_metadata_questions(ctx, {ctx.vals.sizes(out4), ctx.vals.strides(out4)});
  ctx.set_tensor(squeeze_h(ctx, out4));
}

// avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)
void avg_pool2d_rule(PropContext& ctx) {
  PoolArgs p;
  read_window(ctx, "avg_pool2d", 2, 1, 2, 3, SIZE_MAX, p);
  p.ceil_mode = ctx.bool_const(ctx.arg(4));
  ctx.set_tensor(avg_pool2d_core(ctx, ctx.tensor_arg(0), p, ctx.opt_int(ctx.arg(6))));
}

// avg_pool3d (1.13 meta): contiguous output; the input must hold one whole window.
TensorId avg_pool3d_core(PropContext& ctx, TensorId in, const PoolArgs& p, std::optional<int64_t> divisor) {
  const size_t ndim = ctx.vals.rank(in);
  if (ndim != 4 && ndim != 5) ctx.fail("non-empty 4D or 5D (batch mode) tensor expected for input");
  if (divisor && *divisor == 0) ctx.fail("divisor must be not zero");
  Dims o, shape;
  pool_sizes(ctx, in, p, o);
  pool3d_shape_check(ctx, in, p, o, "avg_pool3d()", true);
  result_shape(ctx, in, o, shape);
  return ctx.new_contiguous(ctx.vals.dtype(in), shape);
}

void avg_pool3d_rule(PropContext& ctx) {
  PoolArgs p;
  read_window(ctx, "avg_pool3d", 3, 1, 2, 3, SIZE_MAX, p);
  p.ceil_mode = ctx.bool_const(ctx.arg(4));
  ctx.set_tensor(avg_pool3d_core(ctx, ctx.tensor_arg(0), p, ctx.opt_int(ctx.arg(6))));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.max_pool1d.default", max_pool1d_rule},
    {"aten.max_pool1d_with_indices.default", max_pool1d_with_indices_rule},
    {"aten.max_pool2d.default", max_pool2d_rule},
    {"aten.max_pool2d_with_indices.default", max_pool2d_with_indices_rule},
    {"aten.max_pool3d.default", max_pool3d_rule},
    {"aten.max_pool3d_with_indices.default", max_pool3d_with_indices_rule},
    {"aten.avg_pool1d.default", avg_pool1d_rule},
    {"aten.avg_pool2d.default", avg_pool2d_rule},
    {"aten.avg_pool3d.default", avg_pool3d_rule},
};

}  // namespace

TensorId avg_pool_tensor(PropContext& ctx, TensorId in, const IntDims& kernel, const IntDims& stride,
                         const IntDims& padding, bool ceil_mode) {
  PoolArgs p;
  p.kernel = kernel;
  p.stride = stride;
  p.padding = padding;
  p.dilation.resize(kernel.size(), 1);
  p.ceil_mode = ceil_mode;
  switch (kernel.size()) {
    case 1:
      check_1d_pool_input(ctx, in, "avg_pool1d");
      return squeeze_h(ctx, avg_pool2d_core(ctx, unsqueeze_h(ctx, in), widen_1d(p), std::nullopt));
    case 2: return avg_pool2d_core(ctx, in, p, std::nullopt);
    default: return avg_pool3d_core(ctx, in, p, std::nullopt);
  }
}

std::span<const OpRuleEntry> pool_rules() { return kRules; }

}  // namespace symshape::conv
