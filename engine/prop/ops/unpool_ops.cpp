// Max unpooling and fractional max pooling (eager 1.13, CPU):
// - max_unpool2d(self, indices, output_size): (C, oH, oW) contiguous for 3-d input,
//   (N, C, oH, oW) in the input's suggested memory format for 4-d input.
// - max_unpool3d(self, indices, output_size, stride, padding): contiguous
//   (C, oT, oH, oW) / (N, C, oT, oH, oW).
// - fractional_max_pool2d / 3d(self, kernel_size, output_size, random_samples):
//   (output, int64 indices), both contiguous with the input's leading dims and the given
//   output size; each pooled dim needs output + kernel - 1 <= input (2-d) or < input (3-d,
//   as the 3-d kernel checks it).
#include "prop/dtype_rules.h"
#include "prop/memory_format.h"
#include "prop/ops/conv_family.h"

namespace symshape::conv {

namespace {

std::string int_list_str(std::span<const int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// Shared checks: int64 indices of the input's exact shape, non-empty non-batch dims.
void check_unpool_input(PropContext& ctx, TensorId in, TensorId indices, std::string_view fn) {
  ExprArena& ar = ctx.ar;
  const auto s = ctx.vals.sizes(in), si = ctx.vals.sizes(indices);
  bool same = s.size() == si.size();
  for (size_t i = 0; same && i < s.size(); ++i) same = holds(ctx, ar.eq(s[i], si[i]));
  if (!same)
    ctx.fail("Expected shape of indices to be same as that of the input tensor ({}) but got indices tensor with shape: {}",
             ctx.shape_str(s), ctx.shape_str(si));
  for (size_t i = 1; i < s.size(); ++i)
    if (!holds(ctx, ar.gt(s[i], ar.zero())))
      ctx.fail("{}: Expected input to have non-zero size for non-batch dimensions, but got {} with dimension {} being "
               "empty.",
               fn, ctx.shape_str(s), i);
}

// max_unpool2d(self, indices, output_size)
void max_unpool2d(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0), indices = ctx.tensor_arg(1);
  Dims out_size;
  ctx.int_list(ctx.arg(2), out_size);
  if (out_size.size() == 1) out_size.resize(2, out_size[0]);
  if (ctx.vals.dtype(indices) != DType::Int64)
    ctx.fail("elements in indices should be type int64 but got: {}", scalar_type_name(ctx.vals.dtype(indices)));
  if (out_size.size() != 2)
    ctx.fail("There should be exactly two elements (height, width) in output_size, but got {} elements.",
             out_size.size());
  const size_t ndim = ctx.vals.rank(in);
  if (ndim != 3 && ndim != 4)
    ctx.fail("Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {} dimensions.", ndim);
  check_unpool_input(ctx, in, indices, "max_unpooling2d_forward_out_cpu()");
  const MemoryFormat format = suggest_memory_format(ctx, in);
  Dims shape(ctx.vals.sizes(in).first(ndim - 2));
  shape.push_back(out_size[0]);
  shape.push_back(out_size[1]);
  ctx.set_tensor(new_in_format(ctx, ctx.vals.dtype(in), shape, ndim == 4 ? format : MemoryFormat::Contiguous));
}

// max_unpool3d(self, indices, output_size, stride, padding)
void max_unpool3d(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0), indices = ctx.tensor_arg(1);
  Dims out_size;
  ctx.int_list(ctx.arg(2), out_size);
  IntDims stride, padding;
  ctx.int_list_const(ctx.arg(3), stride);
  ctx.int_list_const(ctx.arg(4), padding);
  if (out_size.size() == 1) out_size.resize(3, out_size[0]);
  if (stride.size() == 1) stride.resize(3, stride[0]);
  if (padding.size() == 1) padding.resize(3, padding[0]);
  if (ctx.vals.dtype(indices) != DType::Int64) ctx.fail("elements in indices should be type int64");
  const size_t ndim = ctx.vals.rank(in);
  if (ndim != 4 && ndim != 5)
    ctx.fail("Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with {} dimensions.", ndim);
  if (out_size.size() != 3)
    ctx.fail("There should be exactly three elements (depth, height, width) in output_size, but got {} elements.",
             out_size.size());
  if (stride.size() != 3)
    ctx.fail("There should be exactly three elements (depth, height, width) in stride, but got: {} elements.",
             stride.size());
  if (padding.size() != 3)
    ctx.fail("There should be exactly three elements (depth, height, width) in padding, but got: {} elements.",
             padding.size());
  check_unpool_input(ctx, in, indices, "max_unpooling3d_forward_out_cpu()");
  if (stride[0] <= 0 || stride[1] <= 0 || stride[2] <= 0)
    ctx.fail("strides should be greater than zero, but got stride: {}", int_list_str(stride));
  Dims shape(ctx.vals.sizes(in).first(ndim - 3));
  for (ExprId e : out_size) shape.push_back(e);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(in), shape));
}

// fractional_max_pool{2,3}d(self, kernel_size, output_size, random_samples)
void fractional_max_pool(PropContext& ctx, size_t n) {
  ExprArena& ar = ctx.ar;
  const TensorId in = ctx.tensor_arg(0);
  IntDims kernel;
  ctx.int_list_const(ctx.arg(1), kernel);
  Dims out_size;
  ctx.int_list(ctx.arg(2), out_size);
  // an int[n] argument given as one int repeats it (the schema's int broadcasting)
  if (kernel.size() == 1) kernel.resize(n, kernel[0]);
  if (out_size.size() == 1) out_size.resize(n, out_size[0]);
  const bool two = n == 2;
  const std::string_view op = two ? "fractional_max_pool2d" : "fractional_max_pool3d";
  const std::string_view ints = two ? "tuple of Ints" : "tuple of three Ints";
  if (kernel.size() != n) ctx.fail("{}: kernel_size must either be a single Int or {}", op, ints);
  if (out_size.size() != n) ctx.fail("{}: output_size must either be a single Int or {}", op, ints);
  const std::string_view fn = two ? "fractional_max_pool2d()" : "fractional_max_pool3d_out()";
  const Dims s(ctx.vals.sizes(in));
  const size_t ndim = s.size();
  if (ndim != n + 1 && ndim != n + 2)
    ctx.fail("{}: Expected {}D or {}D tensor, but got: {}", fn, n + 1, n + 2, ctx.shape_str(s));
  for (size_t i = 1; i < ndim; ++i)
    if (!holds(ctx, ar.gt(s[i], ar.zero())))
      ctx.fail("{}: Expected input to have non-zero size for non-batch dimensions, but got{} with dimension {} being "
               "empty.",
               fn, ctx.shape_str(s), i);
  // 2-d checks height then width; 3-d time, width, height (strictly smaller)
  static constexpr size_t kOrder2[] = {0, 1}, kOrder3[] = {0, 2, 1};
  static constexpr std::string_view kNames2[] = {"height", "width"}, kNames3[] = {"time", "height", "width"};
  for (size_t j = 0; j < n; ++j) {
    const size_t i = two ? kOrder2[j] : kOrder3[j];
    const ExprId input = s[ndim - n + i];
    const ExprId need = ar.add(out_size[i], ar.integer(kernel[i] - 1));
    const ExprId ok = two ? ar.le(need, input) : ar.lt(need, input);
    if (!holds(ctx, ok)) {
      const std::string_view name = two ? kNames2[i] : kNames3[i];
      ctx.fail("{}: pool {} {} too large relative to input {} {}", fn, name, kernel[i], name, ctx.str(input));
    }
  }
  Dims shape(std::span<const ExprId>(s).first(ndim - n));
  for (ExprId e : out_size) shape.push_back(e);
  const TensorId out[] = {ctx.new_contiguous(ctx.vals.dtype(in), shape), ctx.new_contiguous(DType::Int64, shape)};
  ctx.set_tensors(out);
}

void fractional_max_pool2d(PropContext& ctx) { fractional_max_pool(ctx, 2); }
void fractional_max_pool3d(PropContext& ctx) { fractional_max_pool(ctx, 3); }

constexpr OpRuleEntry kRules[] = {
    {"aten.max_unpool2d.default", max_unpool2d},
    {"aten.max_unpool3d.default", max_unpool3d},
    {"aten.fractional_max_pool2d.default", fractional_max_pool2d},
    {"aten.fractional_max_pool3d.default", fractional_max_pool3d},
};

}  // namespace

std::span<const OpRuleEntry> unpool_rules() { return kRules; }

}  // namespace symshape::conv
