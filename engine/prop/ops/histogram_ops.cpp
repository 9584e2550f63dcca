// histc(self, bins=100, min=0, max=0): a fresh 1-D (bins,) tensor of self's dtype (CPU
// histogram kernels; found in the corpus: transformers' MoE routers count tokens per expert).
// PyTorch's checks in its order: floating dtype ("histogram_cpu" not implemented for an
// integral one), bins > 0, max >= min when given. 1.13's kernel also fails for a Half input
// whose range it must compute (aminmax has no Half CPU kernel there; 2.x has one).
#include "prop/context.h"
#include "prop/dtype_rules.h"
#include "prop/ops/reduction_common.h"

namespace symshape {

namespace {

void histc(PropContext& ctx) {
  const TensorId x = ctx.tensor_arg(0);
  const int64_t bins = ctx.is_none(ctx.arg(1)) ? 100 : ctx.int_const(ctx.arg(1));
  const double lo = ctx.is_none(ctx.arg(2)) ? 0.0 : ctx.float_const(ctx.arg(2));
  const double hi = ctx.is_none(ctx.arg(3)) ? 0.0 : ctx.float_const(ctx.arg(3));
  const DType dt = ctx.vals.dtype(x);
  if (!is_floating(dt)) ctx.fail("\"histogram_cpu\" not implemented for '{}'", scalar_type_name(dt));
  if (bins <= 0) ctx.fail("torch.histogram(): bins must be > 0, but got {} for dimension 0", bins);
  if (lo > hi) ctx.fail("torch.histc: max must be larger than min");
  if (dt == DType::Float16 && lo == hi && ctx.host.eager_torch.major < 2)
    ctx.fail("\"aminmax_cpu\" not implemented for 'Half'");
  const ExprId sizes[] = {ctx.ar.integer(bins)};
  ctx.set_tensor(ctx.new_contiguous(dt, sizes));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.histc.default", histc},
};

}  // namespace

std::span<const OpRuleEntry> histogram_rules() { return kRules; }

}  // namespace symshape
