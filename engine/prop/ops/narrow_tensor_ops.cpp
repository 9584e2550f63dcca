// narrow.Tensor (semantics.md H.12, H.22): narrow with the start given as a 0-dim
// integral tensor. ATen reads it with start.item() and calls narrow: the start is the
// tensor's exact content when known (a get_attr table), otherwise an unbacked SymInt,
// the same symbol an earlier item() / _local_scalar_dense of that tensor made. An
// unbacked start of unknown sign takes narrow's unbacked path: no guard on its sign, the
// bounds become runtime asserts and the storage offset uses the guard-free wrapped start.
#include "prop/dtype_rules.h"
#include "prop/ops/slice_geometry.h"
#include "prop/ops/view_family.h"
#include "prop/ops/view_geometry.h"

namespace symshape {

namespace {

// start.item(): the known content, else a memoised unbacked SymInt.
ExprId start_value(PropContext& ctx, ArgId a, TensorId st) {
  if (const int64_t* data = ctx.vals.tensor(st).data) return ctx.ar.integer(data[0]);
  const Graph& g = ctx.graph;
  const NodeId self = ctx.node();
  if (g.arg_kind(a) == ArgKind::Node) {
    // eager fake tensors memoise item() per tensor: reuse an earlier read of this tensor
    const NodeId source = g.arg_node(a);
    for (uint32_t i = source.index() + 1; i < self.index(); ++i) {
      const NodeId n(i);
      if (g.node_kind(n) != NodeKind::CallFunction) continue;
      const std::string_view t = g.node_target(n);
      if (t != "aten.item.default" && t != "aten._local_scalar_dense.default") continue;
      const auto args = g.node_args(n);
      if (args.empty() || g.arg_kind(args[0]) != ArgKind::Node || g.arg_node(args[0]) != source) continue;
      const ValId prev = ctx.node_value(n);
      if (prev.valid() && ctx.vals.kind(prev) == ValKind::SymInt) return ctx.vals.as_expr(prev);
    }
  }
  return ctx.env.create_unbacked_symint();
}

// narrow.Tensor(self, dim, start, length)
void narrow_tensor(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const TensorId x = ctx.tensor_arg(0);
  const ArgId start_arg = ctx.arg(2);
  const TensorId st = ctx.tensor(start_arg);
  if (ctx.vals.rank(st) != 0 || !is_integral(ctx.vals.dtype(st), false))
    ctx.fail("start must be an 0-dim integral Tensor.");
  ExprId start = start_value(ctx, start_arg, st);
  const int64_t rank = ctx.vals.rank(x);
  if (rank == 0) ctx.fail("narrow() cannot be applied to a 0-dim tensor.");
  const ExprId length = ctx.int_expr(ctx.arg(3));
  if (!holds(ctx, ar.ge(length, ar.zero()))) ctx.fail("narrow(): length must be non-negative.");
  const size_t d = static_cast<size_t>(ctx.wrap_dim(ctx.int_const(ctx.arg(1)), rank));
  const ExprId n = ctx.vals.sizes(x)[d];
  if (!holds(ctx, ar.logical_and(ar.le(ar.neg(n), start), ar.le(start, n))))
    ctx.fail("IndexError: start out of range (expected to be in range of [{}, {}], but got {})", ctx.str(ar.neg(n)),
             ctx.str(n), ctx.str(start));
  const bool negative = ctx.guard_or_false(ar.lt(start, ar.zero()));
  if (negative || ctx.guard_or_false(ar.ge(start, ar.zero()))) {
    if (negative) start = ar.add(start, n);
    if (!holds(ctx, ar.le(start, ar.sub(n, length))))
      ctx.fail("start ({}) + length ({}) exceeds dimension size ({}).", ctx.str(start), ctx.str(length), ctx.str(n));
    return ctx.set_tensor(narrow_view(ctx, x, d, start, length));
  }
  // unbacked start of unknown sign: (start < 0 and end <= 0) or (start >= 0 and end <= n)
  const ExprId end = ar.add(start, length);
  const ExprId in_range = ar.logical_or(ar.logical_and(ar.lt(start, ar.zero()), ar.le(end, ar.zero())),
                                        ar.logical_and(ar.ge(start, ar.zero()), ar.le(end, n)));
  if (!holds(ctx, in_range))
    ctx.fail("start ({}) + length ({}) exceeds dimension size ({}).", ctx.str(start), ctx.str(length), ctx.str(n));
  ctx.set_tensor(narrow_view(ctx, x, d, ar.sym_ite(ar.lt(start, ar.zero()), ar.add(start, n), start), length));
}

constexpr OpRuleEntry kEntries[] = {
    {"aten.narrow.Tensor", narrow_tensor},
};

}  // namespace

std::span<const OpRuleEntry> narrow_tensor_entries() { return kEntries; }

}  // namespace symshape
