// lp_pool1d / lp_pool2d / lp_pool3d(input, norm_type, kernel_size, stride=None,
// ceil_mode=False): torch.nn.functional's decomposition, replayed step by step so the
// result has the decomposition's shape, layout and dtype:
//   out = avg_poolNd(input.pow(norm_type), kernel_size, stride or kernel_size, 0, ceil_mode)
//   (sign(out) * relu(abs(out))).mul(prod(kernel_size)).pow(1 / norm_type)
// Each pointwise step allocates like TensorIterator (the Python-scalar multiplier is a
// wrapped 0-dim operand); an integral input becomes float32 at the first float power.
#include "prop/dtype_rules.h"
#include "prop/ops/conv_family.h"
#include "prop/shape_helpers.h"

namespace symshape::conv {

namespace {

// A pointwise op over the single tensor operand `t` (plus, with `scalar`, a wrapped
// Python scalar), producing `dtype`.
TensorId pointwise_of(PropContext& ctx, std::span<const TensorId> operands, DType dtype, bool scalar = false) {
  const Dims shape(ctx.vals.sizes(operands[0]));
  Dims strides;
  elementwise_strides(ctx, operands, shape, strides, scalar);
  return ctx.new_tensor(dtype, shape, strides);
}

void lp_pool(PropContext& ctx, size_t n) {
  const TensorId x = ctx.tensor_arg(0);
  const std::string_view op = n == 1 ? "avg_pool1d" : n == 2 ? "avg_pool2d" : "avg_pool3d";
  IntDims kernel, stride, padding;
  const ArgId stride_arg = ctx.arg(3);
  if (n == 1) {
    ctx.int_list_const(ctx.arg(2), kernel);
    if (!ctx.is_none(stride_arg)) ctx.int_list_const(stride_arg, stride);
    if (stride.empty()) stride = kernel;
    if (kernel.size() != 1) ctx.fail("avg_pool1d() argument 'kernel_size' should contain one int (got {})", kernel.size());
    if (stride.size() != 1) ctx.fail("avg_pool1d() argument 'stride' should contain one int (got {})", stride.size());
  } else {
    spatial_param(ctx, ctx.arg(2), n, op, "kernel_size", kernel);
    IntDims s;
    if (!ctx.is_none(stride_arg)) ctx.int_list_const(stride_arg, s);
    if (s.empty())
      stride = kernel;
    else
      spatial_param(ctx, stride_arg, n, op, "stride", stride);
  }
  padding.resize(n, 0);
  const bool ceil_mode = !ctx.is_none(ctx.arg(4)) && ctx.bool_const(ctx.arg(4));
  // input.pow(norm_type)
  const ArgId pow_operands[] = {ctx.arg(0), ctx.arg(1)};
  const TensorId xs[] = {x};
  const TensorId powered = pointwise_of(ctx, xs, result_type(ctx, pow_operands));
  const TensorId out = avg_pool_tensor(ctx, powered, kernel, stride, padding, ceil_mode);
  const DType dt = ctx.vals.dtype(out);
  const TensorId outs[] = {out};
  const TensorId sign = pointwise_of(ctx, outs, dt);
  const TensorId abs_ts[] = {pointwise_of(ctx, outs, dt)};
  const TensorId relu = pointwise_of(ctx, abs_ts, dt);
  const TensorId prod_operands[] = {sign, relu};
  const TensorId prods[] = {pointwise_of(ctx, prod_operands, dt)};
  const TensorId scaled[] = {pointwise_of(ctx, prods, dt, true)};
  // .pow(1.0 / norm_type): a float exponent makes integral results float32
  const DType final_dt = is_floating(dt) || dt == DType::Complex64 ? dt : DType::Float32;
  ctx.set_tensor(pointwise_of(ctx, scaled, final_dt));
}

void lp_pool1d(PropContext& ctx) { lp_pool(ctx, 1); }
void lp_pool2d(PropContext& ctx) { lp_pool(ctx, 2); }
void lp_pool3d(PropContext& ctx) { lp_pool(ctx, 3); }

constexpr OpRuleEntry kRules[] = {
    {"aten.lp_pool1d.default", lp_pool1d},
    {"aten.lp_pool2d.default", lp_pool2d},
    {"aten.lp_pool3d.default", lp_pool3d},
};

}  // namespace

std::span<const OpRuleEntry> lp_pool_rules() { return kRules; }

}  // namespace symshape::conv
