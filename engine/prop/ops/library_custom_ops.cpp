// Custom ops that model libraries register and torch.export keeps as single nodes, with the
// fake (meta) implementation the library gives PyTorch:
// - transformers.grouped_mm_fallback(input (S, in), weight (E, in, out), offs (E,)) ->
//   (S, out) of input's dtype, a fresh contiguous tensor (transformers/integrations/moe.py
//   `_grouped_mm_fallback_fake`; the MoE experts' grouped matmul when torch._grouped_mm cannot
//   run). Its asserts in order, as AssertionError texts.
#include "prop/context.h"
#include "prop/ops/matmul_family.h"

namespace symshape {

namespace {

void grouped_mm_fallback(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId in = ctx.tensor_arg(0), w = ctx.tensor_arg(1), offs = ctx.tensor_arg(2);
  const auto is = ctx.vals.sizes(in), ws = ctx.vals.sizes(w), os = ctx.vals.sizes(offs);
  if (is.size() != 2) ctx.fail("AssertionError: input must be 2D (S, input_dim), got shape {}", ctx.shape_str(is));
  if (ws.size() != 3)
    ctx.fail("AssertionError: weight must be 3D (num_experts, input_dim, output_dim), got shape {}", ctx.shape_str(ws));
  if (os.size() != 1) ctx.fail("AssertionError: offs must be 1D (num_experts,), got shape {}", ctx.shape_str(os));
  if (!ctx.guard(ar.eq(os[0], ws[0])))
    ctx.fail("AssertionError: offs length {} must match number of experts {}", ctx.str(os[0]), ctx.str(ws[0]));
  if (!ctx.guard(ar.eq(is[1], ws[1])))
    ctx.fail("AssertionError: input_dim mismatch: input has {}, weight has {}", ctx.str(is[1]), ctx.str(ws[1]));
  const DType od = ctx.vals.dtype(offs);
  if (od != DType::Int32 && od != DType::Int64)
    ctx.fail("AssertionError: offs must be an integer tensor, got torch.{}", dtype_name(od));
  const ExprId out[] = {is[0], ws[2]};
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(in), out));
}

constexpr OpRuleEntry kRules[] = {
    {"transformers.grouped_mm_fallback.default", grouped_mm_fallback},
};

}  // namespace

namespace mm {
std::span<const OpRuleEntry> library_custom_rules() { return kRules; }
}  // namespace mm

}  // namespace symshape
