#include "prop/fake_dispatch_cache.h"

#include "prop/shape_helpers.h"

namespace symshape {

namespace {

void value_metadata(PropContext& ctx, ValId v) {
  switch (ctx.vals.kind(v)) {
    case ValKind::Tensor: {
      const TensorId t = ctx.vals.as_tensor(v);
      const size_t rank = ctx.vals.rank(t);
      if ((rank == 4 || rank == 5) && ctx.first_metadata_question(t))
        fake_cache_metadata_questions(ctx, {ctx.vals.sizes(t), ctx.vals.strides(t)});
      break;
    }
    case ValKind::List:
      for (ValId item : ctx.vals.items(v)) value_metadata(ctx, item);
      break;
    default: break;
  }
}

// false once an argument bypasses the key (a SymFloat / SymBool): _prep_args_for_hash raises
bool arg_metadata(PropContext& ctx, ArgId a) {
  if (!a.valid()) return true;
  switch (ctx.graph.arg_kind(a)) {
    case ArgKind::Node: {
      const ValId v = ctx.value_of(a);
      const ValKind k = ctx.vals.kind(v);
      // a constant is a plain Python float / bool there
      if ((k == ValKind::SymFloat || k == ValKind::SymBool) && !ctx.ar.is_constant(ctx.vals.as_expr(v))) return false;
      value_metadata(ctx, v);
      return true;
    }
    case ArgKind::List:
      for (ArgId item : ctx.graph.list_items(a))
        if (!arg_metadata(ctx, item)) return false;
      return true;
    default: return true;
  }
}

}  // namespace

void fake_cache_key_questions(PropContext& ctx) {
  for (ArgId a : ctx.graph.node_args(ctx.node()))
    if (!arg_metadata(ctx, a)) return;
  for (const Kwarg& kw : ctx.graph.node_kwargs(ctx.node()))
    if (!arg_metadata(ctx, kw.value)) return;
}

void fake_cache_output_questions(PropContext& ctx, ValId out) {
  if (out.valid()) value_metadata(ctx, out);
}

namespace {

// Does `s` back one of the current node's tensor arguments?
bool aliases_an_argument(PropContext& ctx, StorageId s) {
  for (ArgId a : ctx.graph.node_args(ctx.node())) {
    if (!a.valid() || ctx.graph.arg_kind(a) != ArgKind::Node) continue;
    const ValId v = ctx.value_of(a);
    if (ctx.vals.kind(v) == ValKind::Tensor && ctx.vals.tensor(ctx.vals.as_tensor(v)).storage == s) return true;
  }
  return false;
}

// c10's walk over the layout `set_` gives the rebuilt tensor: `size == 1` (guard_or_false),
// then `stride != expected` (guard_or_true), innermost first, until a stride differs.
void contiguity_walk(PropContext& ctx, const OperandLayout& t) {
  ExprArena& ar = ctx.ar;
  ExprId expected = ar.one();
  for (size_t d = t.sizes.size(); d-- > 0;) {
    if (ctx.guard_or_false(ar.eq(t.sizes[d], ar.one()))) continue;
    if (ctx.guard_or_true(ar.ne(t.strides[d], expected))) return;
    expected = ar.mul(expected, t.sizes[d]);
  }
}

void set_contiguity_walk(PropContext& ctx, ValId v) {
  switch (ctx.vals.kind(v)) {
    case ValKind::Tensor: {
      const TensorId t = ctx.vals.as_tensor(v);
      // a composite view op (reshape, flatten) that copied dispatched no view op
      if (!aliases_an_argument(ctx, ctx.vals.tensor(t).storage)) return;
      contiguity_walk(ctx, {ctx.vals.sizes(t), ctx.vals.strides(t)});
      break;
    }
    case ValKind::List:
      for (ValId item : ctx.vals.items(v)) set_contiguity_walk(ctx, item);
      break;
    default: break;
  }
}

}  // namespace

void fake_cache_view_output_questions(PropContext& ctx, ValId out) {
  if (!out.valid()) return;
  ShapeEnv::SuppressGuards suppressed(ctx.env);
  set_contiguity_walk(ctx, out);
}

void fake_cache_view_layout_questions(PropContext& ctx, const OperandLayout& t) {
  ShapeEnv::SuppressGuards suppressed(ctx.env);
  contiguity_walk(ctx, t);
}

}  // namespace symshape
