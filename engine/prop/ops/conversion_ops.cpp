// dtype / memory-format conversions and copies: to.*, _to_copy, type_as, clone,
// contiguous, copy, detach, alias. `to` returns self itself when nothing changes (eager's
// to_will_alias); copies allocate like empty_like (preserve_format keeps dense strides).
#include "prop/memory_format.h"
#include "prop/ops/elementwise_common.h"
#include "prop/ops/view_geometry.h"
#include "prop/shape_helpers.h"

namespace symshape {

namespace {

// to_will_alias: same dtype, no copy, and a memory format that is preserve or already
// the suggested one.
bool will_alias(PropContext& ctx, TensorId self, DType dtype, bool copy, MemoryFormat fmt) {
  return dtype == ctx.vals.dtype(self) && !copy &&
         (fmt == MemoryFormat::Preserve || suggest_memory_format(ctx, self) == fmt);
}

// _to_copy(self, dtype, memory_format)
TensorId copy_of(PropContext& ctx, TensorId self, DType dtype, MemoryFormat fmt) {
  Dims strides;
  empty_like_strides(ctx, self, fmt, strides);
  return ctx.new_tensor(dtype, ctx.vals.sizes(self), strides);
}

void to_impl(PropContext& ctx, DType dtype, ArgId copy_arg, ArgId format_arg) {
  const TensorId self = ctx.tensor_arg(0);
  const bool copy = !ctx.is_none(copy_arg) && ctx.bool_const(copy_arg);
  const MemoryFormat fmt = memory_format_arg(ctx, format_arg, MemoryFormat::Preserve);
  ctx.set_tensor(will_alias(ctx, self, dtype, copy, fmt) ? self : copy_of(ctx, self, dtype, fmt));
}

// to.dtype(self, dtype, non_blocking, copy, memory_format)
void to_dtype(PropContext& ctx) {
  to_impl(ctx, *ctx.opt_dtype(ctx.arg(1)), ctx.arg(3), ctx.arg(4));
}

// to.dtype_layout(self, *, dtype, layout, device, pin_memory, non_blocking, copy, memory_format)
void to_dtype_layout(PropContext& ctx) {
  const DType dt = dtype_or(ctx, ctx.kwarg(Key::dtype), ctx.vals.dtype(ctx.tensor_arg(0)));
  to_impl(ctx, dt, ctx.kwarg(Key::copy), ctx.kwarg(Key::memory_format));
}

// to.device(self, device, dtype, non_blocking, copy, memory_format)
void to_device(PropContext& ctx) {
  to_impl(ctx, *ctx.opt_dtype(ctx.arg(2)), ctx.arg(4), ctx.arg(5));
}

// to.other(self, other, non_blocking, copy, memory_format)
void to_other(PropContext& ctx) {
  to_impl(ctx, ctx.vals.dtype(ctx.tensor_arg(1)), ctx.arg(3), ctx.arg(4));
}

void type_as(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = ctx.vals.dtype(ctx.tensor_arg(1));
  ctx.set_tensor(dt == ctx.vals.dtype(self) ? self : copy_of(ctx, self, dt, MemoryFormat::Preserve));
}

// _to_copy(self, *, dtype, layout, device, pin_memory, non_blocking, memory_format)
void to_copy(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const DType dt = dtype_or(ctx, ctx.kwarg(Key::dtype), ctx.vals.dtype(self));
  ctx.set_tensor(copy_of(ctx, self, dt, memory_format_arg(ctx, ctx.kwarg(Key::memory_format), MemoryFormat::Preserve)));
}

// clone(self, *, memory_format=None)
void clone(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ArgId fmt = ctx.kwarg(Key::memory_format);
  if (!fmt.valid()) fmt = ctx.arg(1);
  ctx.set_tensor(copy_of(ctx, self, ctx.vals.dtype(self), memory_format_arg(ctx, fmt, MemoryFormat::Preserve)));
}

// contiguous(self, *, memory_format=contiguous_format): self when already so laid out.
void contiguous(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ArgId fa = ctx.kwarg(Key::memory_format);
  if (!fa.valid()) fa = ctx.arg(1);
  const MemoryFormat fmt = memory_format_arg(ctx, fa, MemoryFormat::Contiguous);
  if (is_contiguous_as(ctx, self, fmt)) return ctx.set_tensor(self);
  if (fmt == MemoryFormat::Preserve) ctx.fail("preserve memory format is unsupported by the contiguous operator");
  ctx.set_tensor(copy_of(ctx, self, ctx.vals.dtype(self), fmt));
}

// detach / alias: a new tensor object over the same storage and geometry.
void alias(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ctx.set_tensor(ctx.new_view(self, ctx.vals.sizes(self), ctx.vals.strides(self), ctx.vals.tensor(self).storage_offset));
}

void identity(PropContext& ctx) { ctx.set_tensor(ctx.tensor_arg(0)); }

void lift_fresh_copy(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  ctx.set_tensor(copy_of(ctx, self, ctx.vals.dtype(self), MemoryFormat::Preserve));
}

// copy(self, src, non_blocking): src must broadcast to self; a fresh tensor like self.
void copy(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  check_inplace(ctx, self, ops, ctx.vals.dtype(self));
  ctx.set_tensor(copy_of(ctx, self, ctx.vals.dtype(self), MemoryFormat::Preserve));
}

void copy_(PropContext& ctx) {
  const TensorId self = ctx.tensor_arg(0);
  const ArgId ops[] = {ctx.arg(0), ctx.arg(1)};
  check_inplace(ctx, self, ops, ctx.vals.dtype(self));
  if (ctx.is_tensor(ctx.arg(1))) {
    const Dims self_sizes(ctx.vals.sizes(self)), src_sizes(ctx.vals.sizes(ctx.tensor(ctx.arg(1))));
    meta_copy_questions(ctx, self_sizes, src_sizes);
  }
  ctx.set_tensor(self);
}

constexpr OpRuleEntry kRules[] = {
    {"aten.to.dtype", to_dtype},
    {"aten.to.dtype_layout", to_dtype_layout},
    {"aten.to.device", to_device},
    {"aten.to.other", to_other},
    {"aten.type_as.default", type_as},
    {"aten._to_copy.default", to_copy},
    {"aten.clone.default", clone},
    {"aten.contiguous.default", contiguous},
    {"aten.detach.default", alias},
    {"aten.detach_.default", identity},  // in place: returns self (2.x export's torch.tensor(c): lift_fresh_copy + detach_)
    {"aten.alias.default", alias},
    {"aten.lift_fresh.default", identity},
    {"aten.lift_fresh_copy.default", lift_fresh_copy},
    {"aten.conj.default", identity},
    {"aten.resolve_conj.default", identity},
    {"aten.resolve_neg.default", identity},
    {"aten.positive.default", identity},
    {"aten.copy.default", copy},
    {"aten.copy_.default", copy_},
};

}  // namespace

std::span<const OpRuleEntry> conversion_rules() { return kRules; }

}  // namespace symshape
