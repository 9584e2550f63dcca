// Helpers shared by the conv family, and conv_rules(): the concatenation of the family's
// per-concept tables (built once; lookups go through the RuleTable, never through here).
#include <fmt/format.h>

#include <vector>

#include "prop/memory_format.h"
#include "prop/ops/conv_family.h"

namespace symshape {

namespace conv {

void spatial_param(PropContext& ctx, ArgId a, size_t n, std::string_view op, std::string_view arg, IntDims& out) {
  IntDims v;
  ctx.int_list_const(a, v);
  if (v.size() == 1) {
    out.assign(std::span<const int64_t>(v));
    out.resize(n, v[0]);
    return;
  }
  if (v.size() != n) ctx.fail("{}: {} must either be a single int, or a tuple of {} ints", op, arg, n);
  out = v;
}

void drop_dim(Dims& sizes, Dims& strides, size_t d) {
  sizes.erase(d);
  strides.erase(d);
}

TensorId unsqueeze_view(PropContext& ctx, TensorId t, size_t d) {
  ExprArena& ar = ctx.ar;
  Dims sizes(ctx.vals.sizes(t)), strides(ctx.vals.strides(t));
  const ExprId st = d < sizes.size() ? ar.mul(sizes[d], strides[d]) : ar.one();
  sizes.insert(d, ar.one());
  strides.insert(d, st);
  return ctx.new_view(t, sizes, strides, ctx.vals.tensor(t).storage_offset);
}

TensorId squeeze_view(PropContext& ctx, TensorId t, size_t d) {
  Dims sizes(ctx.vals.sizes(t)), strides(ctx.vals.strides(t));
  drop_dim(sizes, strides, d);
  return ctx.new_view(t, sizes, strides, ctx.vals.tensor(t).storage_offset);
}

TensorId new_in_format(PropContext& ctx, DType dtype, std::span<const ExprId> sizes, MemoryFormat format) {
  Dims strides;
  format_strides(ctx, sizes, format, strides);
  return ctx.new_tensor(dtype, sizes, strides);
}

ExprId pooling_output_size(PropContext& ctx, ExprId in, int64_t k, int64_t pad_l, int64_t pad_r, int64_t stride,
                           int64_t dilation, bool ceil_mode) {
  ExprArena& ar = ctx.ar;
  // div_rtn: floor division, so a window that does not fit gives 0 (then "too small")
  const int64_t extra = pad_l + pad_r - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  ExprId out = ar.add(ar.floordiv(ar.add(in, ar.integer(extra)), ar.integer(stride)), ar.one());
  if (ceil_mode) {
    const ExprId last_start = ar.mul(ar.sub(out, ar.one()), ar.integer(stride));
    if (ctx.guard(ar.ge(last_start, ar.add(in, ar.integer(pad_l))))) out = ar.sub(out, ar.one());
  }
  return out;
}

}  // namespace conv

std::span<const OpRuleEntry> conv_rules() {
  static const std::vector<OpRuleEntry> all = [] {
    std::vector<OpRuleEntry> v;
    for (auto part : {conv::convolution_rules(), conv::pool_rules(), conv::adaptive_pool_rules(),
                      conv::upsample_rules(), conv::pad_rules(), conv::fold_rules(), conv::grid_sample_rules(),
                      conv::unpool_rules(), conv::lp_pool_rules()})
      v.insert(v.end(), part.begin(), part.end());
    return v;
  }();
  return all;
}

}  // namespace symshape
