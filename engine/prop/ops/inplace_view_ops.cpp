// In-place metadata changes (unsqueeze_, squeeze_, transpose_ / swapdims_ / swapaxes_, t_,
// as_strided_): the view op's geometry, written into self. The result is self, and since
// the tensor itself changed, every later reader of it (the mutated node, other nodes
// holding the same tensor) sees the new sizes and strides, as in eager PyTorch; views taken
// of self before keep theirs (ValueTable::set_geometry). Checks, messages and guards are
// the view op's (t_ names itself in its rank check).
#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include <fmt/core.h>

#include "core/error.h"
#include "prop/context.h"
#include "prop/ops/view_family.h"

namespace symshape {

namespace {

struct InPlaceView {
  std::string_view target, view;
  bool keeps_order;  // the row-major element order is unchanged (tracked contents stay valid)
};

constexpr InPlaceView kVariants[] = {
    {"aten.unsqueeze_.default", "aten.unsqueeze.default", true},
    {"aten.squeeze_.default", "aten.squeeze.default", true},
    {"aten.squeeze_.dim", "aten.squeeze.dim", true},
    {"aten.squeeze_.dims", "aten.squeeze.dims", true},
    {"aten.transpose_.default", "aten.transpose.int", false},
    {"aten.swapdims_.default", "aten.transpose.int", false},
    {"aten.swapaxes_.default", "aten.transpose.int", false},
    {"aten.t_.default", "aten.t.default", false},
    {"aten.as_strided_.default", "aten.as_strided.default", false},
};
constexpr size_t kCount = std::size(kVariants);

// The view rules, resolved once by name on first use (not per node).
OpRule view_rule(size_t i) {
  static const std::array<OpRule, kCount> rules = [] {
    std::array<OpRule, kCount> r{};
    for (size_t k = 0; k < kCount; ++k)
      for (const OpRuleEntry& e : view_rules())
        if (e.target == kVariants[k].view) r[k] = e.rule;
    return r;
  }();
  return rules[i];
}

template <size_t I>
void inplace_view_rule(PropContext& ctx) {
  const OpRule view = view_rule(I);
  if (!view) throw_error(ErrorKind::Internal, fmt::format("{}: no rule for {}", kVariants[I].target, kVariants[I].view));
  const TensorId self = ctx.tensor_arg(0);
  if (kVariants[I].target == "aten.t_.default" && ctx.vals.rank(self) > 2)
    ctx.fail("t_() expects a tensor with <= 2 dimensions, but self is {}D", ctx.vals.rank(self));
  view(ctx);
  const TensorId v = ctx.vals.as_tensor(ctx.node_value(ctx.node()));
  const auto same = [](std::span<const ExprId> a, std::span<const ExprId> b) { return std::ranges::equal(a, b); };
  if (v != self && !(same(ctx.vals.sizes(v), ctx.vals.sizes(self)) && same(ctx.vals.strides(v), ctx.vals.strides(self)) &&
                     ctx.vals.tensor(v).storage_offset == ctx.vals.tensor(self).storage_offset)) {
    const Dims sizes(ctx.vals.sizes(v)), strides(ctx.vals.strides(v));
    ctx.vals.set_geometry(self, sizes, strides, ctx.vals.tensor(v).storage_offset, kVariants[I].keeps_order);
  }
  ctx.set_tensor(self);
}

template <size_t... I>
constexpr std::array<OpRuleEntry, kCount> make_entries(std::index_sequence<I...>) {
  return {OpRuleEntry{kVariants[I].target, inplace_view_rule<I>}...};
}

constexpr std::array<OpRuleEntry, kCount> kEntries = make_entries(std::make_index_sequence<kCount>());

}  // namespace

std::span<const OpRuleEntry> inplace_view_entries() { return kEntries; }

}  // namespace symshape
