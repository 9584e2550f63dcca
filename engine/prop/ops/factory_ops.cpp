// Factories (semantics.md H.23): full / zeros / ones / empty / rand*, their *_like and
// new_* forms, scalar_tensor, arange, linspace, eye. Fresh tensors are contiguous unless
// a memory_format says otherwise; *_like keeps the input's layout (preserve_format).
#include <cmath>

#include "prop/memory_format.h"
#include "prop/ops/elementwise_common.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// The default dtype of a fill value: int64, the default float, or complex. fill_value is a
// Scalar parameter, and torch.ops (the reference interpreter) binds a Python bool passed
// to a Scalar parameter as an int (bool subclasses int): aten.full.default([2], True) is
// int64 in 1.13 (torch.full((2,), True) through the Python binding would be bool).
DType fill_dtype(PropContext& ctx, ArgId value) {
  switch (ctx.scalar_category(value)) {
    case ScalarCategory::Bool: return DType::Int64;
    case ScalarCategory::Integer: return DType::Int64;
    case ScalarCategory::Floating: return DType::Float32;
    case ScalarCategory::Complex: return DType::Complex64;
  }
  return DType::Float32;
}

void make(PropContext& ctx, ArgId size_arg, DType dtype, MemoryFormat fmt = MemoryFormat::Contiguous) {
  Dims sizes, strides;
  ctx.int_list(size_arg, sizes);
  check_size_nonnegative(ctx, sizes);
  format_strides(ctx, sizes, fmt == MemoryFormat::Preserve ? MemoryFormat::Contiguous : fmt, strides);
  ctx.set_tensor(ctx.new_tensor(dtype, sizes, strides));
}

// zeros / ones / rand / randn (size, *, dtype, layout, device, pin_memory)
void sized(PropContext& ctx) { make(ctx, ctx.arg(0), dtype_or(ctx, ctx.kwarg(Key::dtype), DType::Float32)); }

// empty.memory_format(size, *, dtype, layout, device, pin_memory, memory_format)
void empty(PropContext& ctx) {
  make(ctx, ctx.arg(0), dtype_or(ctx, ctx.kwarg(Key::dtype), DType::Float32),
       memory_format_arg(ctx, ctx.kwarg(Key::memory_format), MemoryFormat::Contiguous));
}

// full(size, fill_value, *, dtype, ...): the dtype follows the fill value by default.
void full(PropContext& ctx) {
  make(ctx, ctx.arg(0), dtype_or(ctx, ctx.kwarg(Key::dtype), fill_dtype(ctx, ctx.arg(1))));
}

// randint(high, size, *, dtype) / randint.low(low, high, size, *, dtype)
template <size_t SizeArg>
void randint(PropContext& ctx) { make(ctx, ctx.arg(SizeArg), dtype_or(ctx, ctx.kwarg(Key::dtype), DType::Int64)); }

// empty_strided(size, stride, *, dtype, ...)
void empty_strided(PropContext& ctx) {
  Dims sizes, strides;
  ctx.int_list(ctx.arg(0), sizes);
  ctx.int_list(ctx.arg(1), strides);
  if (sizes.size() != strides.size())
    ctx.fail("mismatch in length of strides and shape");
  check_size_nonnegative(ctx, sizes);
  ctx.set_tensor(ctx.new_tensor(dtype_or(ctx, ctx.kwarg(Key::dtype), DType::Float32), sizes, strides));
}

// *_like(self, [...], *, dtype, layout, device, pin_memory, memory_format)
void like(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  Dims strides;
  empty_like_strides(ctx, self, memory_format_arg(ctx, ctx.kwarg(Key::memory_format), MemoryFormat::Preserve), strides);
  ctx.set_tensor(ctx.new_tensor(dtype_or(ctx, ctx.kwarg(Key::dtype), ctx.vals.dtype(self)), ctx.vals.sizes(self), strides));
}

// new_zeros / new_ones / new_empty / new_full(self, size, ..., *, dtype, ...)
void new_sized(PropContext& ctx) {
  make(ctx, ctx.arg(1), dtype_or(ctx, ctx.kwarg(Key::dtype), ctx.vals.dtype(ctx.tensor_arg(0))));
}

void new_empty_strided(PropContext& ctx) {
  Dims sizes, strides;
  ctx.int_list(ctx.arg(1), sizes);
  ctx.int_list(ctx.arg(2), strides);
  if (sizes.size() != strides.size()) ctx.fail("mismatch in length of strides and shape");
  check_size_nonnegative(ctx, sizes);
  ctx.set_tensor(ctx.new_tensor(dtype_or(ctx, ctx.kwarg(Key::dtype), ctx.vals.dtype(ctx.tensor_arg(0))), sizes, strides));
}

// scalar_tensor(s, *, dtype, ...): 0-dim, default float dtype.
void scalar_tensor(PropContext& ctx) {
  ctx.set_tensor(ctx.new_contiguous(dtype_or(ctx, ctx.kwarg(Key::dtype), DType::Float32), {}));
}

// ---- arange (H.23) -------------------------------------------------------------------

bool is_int_arg(PropContext& ctx, ArgId a) {
  const ScalarCategory c = ctx.scalar_category(a);
  return c == ScalarCategory::Integer || c == ScalarCategory::Bool;
}

// Symbolic (or constant) integer arguments: torch._refs.arange's length
// (end - start + step - sgn(step)) // step, with the bound checks as guards.
ExprId arange_int_length(PropContext& ctx, ExprId start, ExprId end, ExprId step) {
  ExprArena& ar = ctx.ar;
  ctx.check(ar.ne(step, ar.zero()), "step must be nonzero");
  const bool positive = ctx.guard(ar.gt(step, ar.zero()));
  if (positive)
    ctx.check(ar.ge(end, start), "upper bound and larger bound inconsistent with step sign");
  else
    ctx.check(ar.le(end, start), "upper bound and larger bound inconsistent with step sign");
  const ExprId sgn = ar.integer(positive ? 1 : -1);
  return ar.floordiv(ar.sub(ar.add(ar.sub(end, start), step), sgn), step);
}

// Float arguments: eager's double computation ceil((end - start) / step).
ExprId arange_float_length(PropContext& ctx, double start, double end, double step) {
  if (!std::isfinite(start) || !std::isfinite(end)) ctx.fail("unsupported range: {} -> {}", start, end);
  if (step == 0) ctx.fail("step must be nonzero");
  if (!((step > 0 && end >= start) || (step < 0 && end <= start)))
    ctx.fail("upper bound and larger bound inconsistent with step sign");
  const double n = std::ceil((end - start) / step);
  if (!(n >= 0 && n <= 9.2e18)) ctx.fail("invalid size, possible overflow?");
  return ctx.ar.integer(static_cast<int64_t>(n));
}

void arange_impl(PropContext& ctx, ArgId start, ArgId end, ArgId step) {
  const bool ints = (!start.valid() || is_int_arg(ctx, start)) && is_int_arg(ctx, end) && (!step.valid() || is_int_arg(ctx, step));
  ExprId len;
  if (ints) {
    ExprArena& ar = ctx.ar;
    len = arange_int_length(ctx, start.valid() ? ctx.int_expr(start) : ar.zero(), ctx.int_expr(end),
                            step.valid() ? ctx.int_expr(step) : ar.one());
  } else {
    // eager computes the length in double; a symbolic int bound is specialised (guarded)
    auto value = [&](ArgId a, double dflt) {
      if (!a.valid()) return dflt;
      return is_int_arg(ctx, a) ? static_cast<double>(ctx.int_const(a)) : ctx.float_const(a);
    };
    len = arange_float_length(ctx, value(start, 0.0), value(end, 0.0), value(step, 1.0));
  }
  const ExprId sizes[] = {len};
  ctx.set_tensor(ctx.new_contiguous(dtype_or(ctx, ctx.kwarg(Key::dtype), ints ? DType::Int64 : DType::Float32), sizes));
}

void arange(PropContext& ctx) { arange_impl(ctx, {}, ctx.arg(0), {}); }
void arange_start(PropContext& ctx) { arange_impl(ctx, ctx.arg(0), ctx.arg(1), {}); }
void arange_start_step(PropContext& ctx) { arange_impl(ctx, ctx.arg(0), ctx.arg(1), ctx.arg(2)); }

// linspace / logspace(start, end, steps, ...): (steps,)
void linspace(PropContext& ctx) {
  const ExprId steps = ctx.int_expr(ctx.arg(2));
  ctx.check(ctx.ar.ge(steps, ctx.ar.zero()), "number of steps must be non-negative");
  const ExprId sizes[] = {steps};
  ctx.set_tensor(ctx.new_contiguous(dtype_or(ctx, ctx.kwarg(Key::dtype), DType::Float32), sizes));
}

// eye(n) / eye.m(n, m)
void eye(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const ExprId n = ctx.int_expr(ctx.arg(0));
  const ExprId m = ctx.num_args() > 1 ? ctx.int_expr(ctx.arg(1)) : n;  // eye.m
  if (!check_ok(ctx, ar.ge(n, ar.zero()))) ctx.fail("n must be greater or equal to 0, got {}", ctx.str(n));
  if (!check_ok(ctx, ar.ge(m, ar.zero()))) ctx.fail("m must be greater or equal to 0, got {}", ctx.str(m));
  const ExprId sizes[] = {n, m};
  ctx.set_tensor(ctx.new_contiguous(dtype_or(ctx, ctx.kwarg(Key::dtype), DType::Float32), sizes));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.zeros.default", sized},
    {"aten.ones.default", sized},
    {"aten.rand.default", sized},
    {"aten.randn.default", sized},
    {"aten.rand.generator", sized},
    {"aten.randn.generator", sized},
    {"aten.empty.memory_format", empty},
    {"aten.empty.default", empty},
    {"aten.full.default", full},
    {"aten.randint.default", randint<1>},
    {"aten.randint.low", randint<2>},
    {"aten.empty_strided.default", empty_strided},
    {"aten.empty_like.default", like},
    {"aten.zeros_like.default", like},
    {"aten.ones_like.default", like},
    {"aten.full_like.default", like},
    {"aten.rand_like.default", like},
    {"aten.randn_like.default", like},
    {"aten.randint_like.default", like},
    {"aten.randint_like.low_dtype", like},
    {"aten.new_zeros.default", new_sized},
    {"aten.new_ones.default", new_sized},
    {"aten.new_empty.default", new_sized},
    {"aten.new_full.default", new_sized},
    {"aten.new_empty_strided.default", new_empty_strided},
    {"aten.scalar_tensor.default", scalar_tensor},
    {"aten.arange.default", arange},
    {"aten.arange.start", arange_start},
    {"aten.arange.start_step", arange_start_step},
    {"aten.linspace.default", linspace},
    {"aten.logspace.default", linspace},
    {"aten.eye.default", eye},
    {"aten.eye.m", eye},
};

}  // namespace

std::span<const OpRuleEntry> factory_rules() { return kRules; }

}  // namespace symshape
