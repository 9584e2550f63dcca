// Distances (eager 1.13 Distance.cpp):
// - pairwise_distance(x1, x2, p, eps, keepdim) = norm(x1 - x2 + eps, p, dim=-1 of the
//   broadcast rank, keepdim): the broadcast shape reduced over its last dim, contiguous,
//   float32 for integral operands (the float eps promotes), real for complex.
// - cdist / _cdist_forward(x1 (..., R1, C), x2 (..., R2, C)): broadcast batch dims +
//   (R1, R2), contiguous, x1's dtype; every path of cdist_impl (the matmul-based
//   euclidean one included) returns a contiguous tensor of that shape.
#include "prop/dtype_rules.h"
#include "prop/ops/matmul_family.h"
#include "prop/shape_helpers.h"

namespace symshape::mm {

namespace {

// pairwise_distance(x1, x2, p=2, eps=1e-06, keepdim=False)
void pairwise_distance(PropContext& ctx) {
  const TensorId a = ctx.tensor_arg(0), b = ctx.tensor_arg(1);
  const bool ba = ctx.vals.dtype(a) == DType::Bool, bb = ctx.vals.dtype(b) == DType::Bool;
  if (ba && bb)
    ctx.fail("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
             "operator instead.");
  if (ba || bb)
    ctx.fail("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
             "use the `~` or `logical_not()` operator instead.");
  const ArgId operands[] = {ctx.arg(0), ctx.arg(1)};
  DType dtype = result_type(ctx, operands);
  if (!is_floating(dtype) && dtype != DType::Complex64) dtype = DType::Float32;  // + eps (a float)
  if (dtype == DType::Complex64) dtype = DType::Float32;                          // norm of complex is real
  Dims shape;
  broadcast_shapes(ctx, ctx.vals.sizes(a), ctx.vals.sizes(b), shape);
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t d = ctx.wrap_dim(rank - 1, rank);
  const bool keepdim = !ctx.is_none(ctx.arg(4)) && ctx.bool_const(ctx.arg(4));
  Dims out;
  for (int64_t i = 0; i < rank; ++i) {
    if (i != d)
      out.push_back(shape[i]);
    else if (keepdim)
      out.push_back(ctx.ar.one());
  }
  ctx.set_tensor(ctx.new_contiguous(dtype, out));
}

// cdist(x1, x2, p=2, compute_mode=None) / _cdist_forward(x1, x2, p, compute_mode)
void cdist(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId a = ctx.tensor_arg(0), b = ctx.tensor_arg(1);
  const size_t ra = ctx.vals.rank(a), rb = ctx.vals.rank(b);
  if (ra < 2) ctx.fail("cdist only supports at least 2D tensors, X1 got: {}D", ra);
  if (rb < 2) ctx.fail("cdist only supports at least 2D tensors, X2 got: {}D", rb);
  const Dims sa(ctx.vals.sizes(a)), sb(ctx.vals.sizes(b));
  if (!holds(ctx, ar.eq(sa[ra - 1], sb[rb - 1])))
    ctx.fail("X1 and X2 must have the same number of columns. X1: {} X2: {}", ctx.str(sa[ra - 1]), ctx.str(sb[rb - 1]));
  if (!is_floating(ctx.vals.dtype(a)))
    ctx.fail("cdist only supports floating-point dtypes, X1 got: {}", scalar_type_name(ctx.vals.dtype(a)));
  if (!is_floating(ctx.vals.dtype(b)))
    ctx.fail("cdist only supports floating-point dtypes, X2 got: {}", scalar_type_name(ctx.vals.dtype(b)));
  if (ctx.float_const(ctx.arg(2)) < 0) ctx.fail("cdist only supports non-negative p values");
  const int64_t mode = ctx.opt_int(ctx.arg(3)).value_or(0);
  if (mode < 0 || mode > 2) ctx.fail("possible modes: 0, 1, 2, but was: {}", mode);
  Dims out;
  broadcast_shapes(ctx, std::span<const ExprId>(sa).first(ra - 2), std::span<const ExprId>(sb).first(rb - 2), out);
  out.push_back(sa[ra - 2]);
  out.push_back(sb[rb - 2]);
  ctx.set_tensor(ctx.new_contiguous(ctx.vals.dtype(a), out));
}

constexpr OpRuleEntry kRules[] = {
    {"aten.pairwise_distance.default", pairwise_distance},
    {"aten.cdist.default", cdist},
    {"aten._cdist_forward.default", cdist},
};

}  // namespace

std::span<const OpRuleEntry> distance_rules() { return kRules; }

}  // namespace symshape::mm
