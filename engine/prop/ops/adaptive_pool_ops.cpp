// Adaptive pooling (semantics.md H.16): the output spatial size is given. Eager 1.13
// specifics that decide strides: adaptive_avg_pool2d/3d to all-ones is a keepdim mean
// (contiguous), re-strided to channels_last(3d) when the input suggests it; the general
// kernels allocate batched outputs in the input's suggested layout; the 1-d ops run the
// 2-d op on x.unsqueeze(-2).
#include "prop/memory_format.h"
#include "prop/ops/conv_family.h"

namespace symshape::conv {

namespace {

// x.unsqueeze(-2) / out.squeeze(-2): the 1-d ops run the 2-d kernel
TensorId unsqueeze_h(PropContext& ctx, TensorId t) { return unsqueeze_view(ctx, t, ctx.vals.rank(t) - 1); }
TensorId squeeze_h(PropContext& ctx, TensorId t) { return squeeze_view(ctx, t, ctx.vals.rank(t) - 2); }

void check_1d_input(PropContext& ctx, TensorId in, std::string_view name, const Dims& out) {
  const size_t r = ctx.vals.rank(in);
  if (r < 2 || r >= 4)
    ctx.fail("Expected 2 to 3 dimensions, but got {}-dimensional tensor for argument #1 'self' (while checking "
             "arguments for {})",
             r, name);
  if (out.size() != 1) ctx.fail("{}() argument 'output_size' should contain one int (got {})", name, out.size());
}

// Every non-batch dim must be non-empty (the kernels' shared check).
void check_non_empty(PropContext& ctx, TensorId in, std::string_view name, size_t first) {
  const auto s = ctx.vals.sizes(in);
  for (size_t i = first; i < s.size(); ++i)
    if (ctx.guard(ctx.ar.eq(s[i], ctx.ar.zero())))
      ctx.fail("{}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {} with "
               "dimension {} being empty",
               name, ctx.shape_str(s), i);
}

void result_shape(PropContext& ctx, TensorId in, std::span<const ExprId> out_spatial, Dims& shape) {
  const auto s = ctx.vals.sizes(in);
  shape.assign(s.first(s.size() - out_spatial.size()));
  for (ExprId e : out_spatial) shape.push_back(e);
}

bool all_ones(PropContext& ctx, const Dims& out) {
  for (ExprId e : out)
    if (!ctx.guard(ctx.ar.eq(e, ctx.ar.one()))) return false;
  return true;
}

// _adaptive_avg_pool{2,3}d (CPU): batched output in the suggested layout.
TensorId adaptive_avg_kernel(PropContext& ctx, TensorId in, const Dims& out, std::string_view name) {
  const size_t n = out.size();
  const size_t ndim = ctx.vals.rank(in);
  if (ndim != n + 1 && ndim != n + 2)
    ctx.fail("{}(): Expected {}D or {}D tensor, but got {}", name, n + 1, n + 2, ctx.shape_str(ctx.vals.sizes(in)));
  check_non_empty(ctx, in, name, 1);
  Dims shape;
  result_shape(ctx, in, out, shape);
  const MemoryFormat format = ndim == n + 2 ? suggest_memory_format(ctx, in) : MemoryFormat::Contiguous;
  return new_in_format(ctx, ctx.vals.dtype(in), shape, format);
}

// adaptive_avg_pool{2,3}d: the all-ones case is mean(keepdim) plus the channels_last
// re-stride (n, c, 1, ...) -> (c, 1, c, ...).
TensorId adaptive_avg(PropContext& ctx, TensorId in, const Dims& out, std::string_view name) {
  ExprArena& ar = ctx.ar;
  const size_t n = out.size();
  for (ExprId e : out)
    if (ctx.guard(ar.lt(e, ar.zero())))
      ctx.fail("{}: elements of output_size must be greater than or equal to 0 but received {}", name,
               ctx.shape_str(out));
  if (!all_ones(ctx, out)) return adaptive_avg_kernel(ctx, in, out, name);
  const auto s = ctx.vals.sizes(in);
  if (s.size() < n) ctx.fail("Dimension out of range (expected to be in range of [-{}, {}], but got -{})", s.size(),
                             s.size() == 0 ? 0 : s.size() - 1, n);
  Dims shape;
  result_shape(ctx, in, out, shape);
  const MemoryFormat cl = n == 2 ? MemoryFormat::ChannelsLast : MemoryFormat::ChannelsLast3d;
  // C++'s input.suggest_memory_format() (aten/src/ATen/native/AdaptiveAveragePooling.cpp), which
  // 2.x runs on the symbolic sizes as well: its `size > 1` questions are guards
  if (suggest_memory_format_cxx(ctx, in) == cl) {
    Dims strides;
    strides.push_back(s[1]);
    strides.push_back(ar.one());
    for (size_t i = 0; i < n; ++i) strides.push_back(s[1]);
    return ctx.new_tensor(ctx.vals.dtype(in), shape, strides);
  }
  return ctx.new_contiguous(ctx.vals.dtype(in), shape);
}

// adaptive_max_pool2d (1.13 meta): values and int64 indices, batched in the suggested layout.
void adaptive_max2d(PropContext& ctx, TensorId in, const Dims& out, TensorId result[2]) {
  const size_t ndim = ctx.vals.rank(in);
  if (ndim != 3 && ndim != 4)
    ctx.fail("adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {}", ctx.shape_str(ctx.vals.sizes(in)));
  check_non_empty(ctx, in, "adaptive_max_pool2d", 1);
  if (out.size() != 2) ctx.fail("adaptive_max_pool2d(): internal error: output_size.size() must be 2");
  Dims shape;
  result_shape(ctx, in, out, shape);
  const MemoryFormat format = ndim == 4 ? suggest_memory_format(ctx, in) : MemoryFormat::Contiguous;
  result[0] = new_in_format(ctx, ctx.vals.dtype(in), shape, format);
  result[1] = new_in_format(ctx, DType::Int64, shape, format);
}

// ---- rules ------------------------------------------------------------------------------

void adaptive_avg_pool1d_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  Dims out;
  ctx.int_list(ctx.arg(1), out);
  check_1d_input(ctx, in, "adaptive_avg_pool1d", out);
  out.insert(0, ctx.ar.one());
  ctx.set_tensor(squeeze_h(ctx, adaptive_avg(ctx, unsqueeze_h(ctx, in), out, "adaptive_avg_pool2d")));
}

template <size_t N>
void adaptive_avg_pool_rule(PropContext& ctx) {
  Dims out;
  ctx.int_list(ctx.arg(1), out);
  const char* name = N == 2 ? "adaptive_avg_pool2d" : "adaptive_avg_pool3d";
  if (out.size() != N) ctx.fail("{}: output_size must be {}", name, N);
  ctx.set_tensor(adaptive_avg(ctx, ctx.tensor_arg(0), out, name));
}

template <size_t N>
void adaptive_avg_pool_impl_rule(PropContext& ctx) {
  Dims out;
  ctx.int_list(ctx.arg(1), out);
  const char* name = N == 2 ? "adaptive_avg_pool2d" : "adaptive_avg_pool3d";
  if (out.size() != N) ctx.fail("{}: output_size must be {}", name, N);
  ctx.set_tensor(adaptive_avg_kernel(ctx, ctx.tensor_arg(0), out, name));
}

void adaptive_max_pool1d_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  Dims out;
  ctx.int_list(ctx.arg(1), out);
  check_1d_input(ctx, in, "adaptive_max_pool1d", out);
  check_non_empty(ctx, in, "adaptive_max_pool1d", 1);
  out.insert(0, ctx.ar.one());
  TensorId r[2];
  adaptive_max2d(ctx, unsqueeze_h(ctx, in), out, r);
  const TensorId res[] = {squeeze_h(ctx, r[0]), squeeze_h(ctx, r[1])};
  ctx.set_tensors(res);
}

void adaptive_max_pool2d_rule(PropContext& ctx) {
  Dims out;
  ctx.int_list(ctx.arg(1), out);
  TensorId r[2];
  adaptive_max2d(ctx, ctx.tensor_arg(0), out, r);
  ctx.set_tensors(r);
}

// adaptive_max_pool3d (1.13 meta): contiguous values and indices.
void adaptive_max_pool3d_rule(PropContext& ctx) {
  const TensorId in = ctx.tensor_arg(0);
  Dims out;
  ctx.int_list(ctx.arg(1), out);
  const size_t ndim = ctx.vals.rank(in);
  if (ndim != 4 && ndim != 5)
    ctx.fail("adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: {}", ctx.shape_str(ctx.vals.sizes(in)));
  check_non_empty(ctx, in, "adaptive_max_pool3d", 1);
  if (out.size() != 3) ctx.fail("adaptive_max_pool3d(): internal error: output_size.size() must be 3");
  Dims shape;
  result_shape(ctx, in, out, shape);
  const TensorId r[] = {ctx.new_contiguous(ctx.vals.dtype(in), shape), ctx.new_contiguous(DType::Int64, shape)};
  ctx.set_tensors(r);
}

constexpr OpRuleEntry kRules[] = {
    {"aten.adaptive_avg_pool1d.default", adaptive_avg_pool1d_rule},
    {"aten.adaptive_avg_pool2d.default", adaptive_avg_pool_rule<2>},
    {"aten.adaptive_avg_pool3d.default", adaptive_avg_pool_rule<3>},
    {"aten._adaptive_avg_pool2d.default", adaptive_avg_pool_impl_rule<2>},
    {"aten._adaptive_avg_pool3d.default", adaptive_avg_pool_impl_rule<3>},
    {"aten.adaptive_max_pool1d.default", adaptive_max_pool1d_rule},
    {"aten.adaptive_max_pool2d.default", adaptive_max_pool2d_rule},
    {"aten.adaptive_max_pool3d.default", adaptive_max_pool3d_rule},
};

}  // namespace

std::span<const OpRuleEntry> adaptive_pool_rules() { return kRules; }

}  // namespace symshape::conv
