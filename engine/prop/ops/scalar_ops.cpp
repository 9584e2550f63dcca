// Scalar and sequence ops: aten.sym_size/sym_stride/sym_numel/sym_storage_offset and the
// Python `operator.*` nodes on SymInts, SymFloats, SymBools and lists.
#include "prop/context.h"
#include "prop/rules.h"

namespace symshape {

namespace {

enum class Num : uint8_t { Int, Float, Bool };

// A scalar operand as an expression plus its Python type.
struct ScalarOperand {
  ExprId e;
  Num type;
};

ScalarOperand scalar(PropContext& ctx, ArgId a) {
  const Graph& g = ctx.graph;
  switch (g.arg_kind(a)) {
    case ArgKind::Int: return {ctx.ar.integer(g.arg_int(a)), Num::Int};
    case ArgKind::Bool: return {ctx.ar.boolean(g.arg_bool(a)), Num::Bool};
    case ArgKind::Float: return {ctx.ar.floating(g.arg_float(a)), Num::Float};
    case ArgKind::Node: {
      ValId v = ctx.value_of(a);
      switch (ctx.vals.kind(v)) {
        case ValKind::SymInt: return {ctx.vals.as_expr(v), Num::Int};
        case ValKind::SymFloat: return {ctx.vals.as_expr(v), Num::Float};
        case ValKind::SymBool: return {ctx.vals.as_expr(v), Num::Bool};
        default: break;
      }
      break;
    }
    default: break;
  }
  ctx.fail("{}: expected a scalar operand", ctx.target());
}

ExprId as_int(PropContext& ctx, const ScalarOperand& s) {
  return s.type == Num::Bool ? ctx.ar.bool_to_int(s.e) : s.e;
}
ExprId as_float(PropContext& ctx, const ScalarOperand& s) { return ctx.ar.to_float(as_int(ctx, s)); }

void set_number(PropContext& ctx, ExprId e, Num type) {
  switch (type) {
    case Num::Int: ctx.set_value(ctx.vals.of_int(e)); break;
    case Num::Float: ctx.set_value(ctx.vals.of_float(e)); break;
    case Num::Bool: ctx.set_value(ctx.vals.of_bool(e)); break;
  }
}

TensorId tensor0(PropContext& ctx) { return ctx.tensor_arg(0); }

void sym_size(PropContext& ctx) {
  const TensorId t = tensor0(ctx);
  const int64_t d = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(t));
  ctx.set_int(ctx.vals.sizes(t)[static_cast<size_t>(d)]);
}

void sym_stride(PropContext& ctx) {
  const TensorId t = tensor0(ctx);
  const int64_t d = ctx.wrap_dim(ctx.int_const(ctx.arg(1)), ctx.vals.rank(t));
  ctx.set_int(ctx.vals.strides(t)[static_cast<size_t>(d)]);
}

void sym_numel(PropContext& ctx) {
  const TensorId t = tensor0(ctx);
  ExprId n = ctx.ar.one();
  for (ExprId s : ctx.vals.sizes(t)) n = ctx.ar.mul(n, s);
  ctx.set_int(n);
}

void sym_storage_offset(PropContext& ctx) { ctx.set_int(ctx.vals.tensor(tensor0(ctx)).storage_offset); }

void getitem(PropContext& ctx) {
  const ValId seq = ctx.value_of(ctx.arg(0));
  if (ctx.vals.kind(seq) != ValKind::List) ctx.fail("operator.getitem: the indexed value is not a sequence");
  auto items = ctx.vals.items(seq);
  int64_t i = ctx.int_const(ctx.arg(1));
  const int64_t n = static_cast<int64_t>(items.size());
  if (i < 0) i += n;
  if (i < 0 || i >= n) ctx.fail("IndexError: tuple index out of range");
  ctx.set_value(items[static_cast<size_t>(i)]);
}

// Binary arithmetic with Python's int/float result typing.
template <int Op>
void arith(PropContext& ctx) {
  ExprArena& ar = ctx.ar;
  const ScalarOperand a = scalar(ctx, ctx.arg(0)), b = scalar(ctx, ctx.arg(1));
  const bool is_float = a.type == Num::Float || b.type == Num::Float;
  if (Op == 3) {  // truediv always gives a float
    if (is_float) set_number(ctx, ar.float_true_div(as_float(ctx, a), as_float(ctx, b)), Num::Float);
    else set_number(ctx, ar.int_true_div(as_int(ctx, a), as_int(ctx, b)), Num::Float);
    return;
  }
  const ExprId x = is_float ? as_float(ctx, a) : as_int(ctx, a);
  const ExprId y = is_float ? as_float(ctx, b) : as_int(ctx, b);
  const Num t = is_float ? Num::Float : Num::Int;
  switch (Op) {
    case 0: set_number(ctx, ar.add(x, y), t); break;
    case 1: set_number(ctx, ar.sub(x, y), t); break;
    case 2: set_number(ctx, ar.mul(x, y), t); break;
    case 4:
      if (is_float) set_number(ctx, ar.floor_to_int(ar.float_true_div(x, y)), Num::Float);
      else set_number(ctx, ar.floordiv(x, y), Num::Int);
      break;
    case 5: set_number(ctx, ar.mod(x, y), t); break;
    case 6: {  // pow with a constant natural exponent
      if (!ar.is_integer_const(y) || ar.int_value(y) < 0 || is_float) {
        set_number(ctx, ar.float_pow(ar.to_float(x), ar.to_float(y)), Num::Float);
      } else {
        set_number(ctx, ar.pow(x, ar.int_value(y)), Num::Int);
      }
      break;
    }
    case 7: set_number(ctx, ar.min(x, y), t); break;
    case 8: set_number(ctx, ar.max(x, y), t); break;
  }
}

template <ExprKind Rel>
void compare(PropContext& ctx) {
  const ScalarOperand a = scalar(ctx, ctx.arg(0)), b = scalar(ctx, ctx.arg(1));
  const bool is_float = a.type == Num::Float || b.type == Num::Float;
  const ExprId x = is_float ? as_float(ctx, a) : as_int(ctx, a);
  const ExprId y = is_float ? as_float(ctx, b) : as_int(ctx, b);
  set_number(ctx, ctx.ar.relation(Rel, x, y), Num::Bool);
}

void neg(PropContext& ctx) {
  const ScalarOperand a = scalar(ctx, ctx.arg(0));
  set_number(ctx, ctx.ar.neg(a.type == Num::Bool ? as_int(ctx, a) : a.e), a.type == Num::Bool ? Num::Int : a.type);
}

void pos(PropContext& ctx) {
  const ScalarOperand a = scalar(ctx, ctx.arg(0));
  set_number(ctx, a.type == Num::Bool ? as_int(ctx, a) : a.e, a.type == Num::Bool ? Num::Int : a.type);
}

void abs_op(PropContext& ctx) {
  const ScalarOperand a = scalar(ctx, ctx.arg(0));
  const ExprId x = a.type == Num::Bool ? as_int(ctx, a) : a.e;
  set_number(ctx, ctx.ar.max(x, ctx.ar.neg(x)), a.type == Num::Bool ? Num::Int : a.type);
}

void logical_not(PropContext& ctx) {
  const ScalarOperand a = scalar(ctx, ctx.arg(0));
  const ExprId b = a.type == Num::Bool ? a.e : ctx.ar.ne(a.e, a.type == Num::Float ? ctx.ar.floating(0) : ctx.ar.zero());
  set_number(ctx, ctx.ar.logical_not(b), Num::Bool);
}

template <bool And>
void logical(PropContext& ctx) {
  const ScalarOperand a = scalar(ctx, ctx.arg(0)), b = scalar(ctx, ctx.arg(1));
  if (a.type == Num::Bool && b.type == Num::Bool) {
    set_number(ctx, And ? ctx.ar.logical_and(a.e, b.e) : ctx.ar.logical_or(a.e, b.e), Num::Bool);
    return;
  }
  const ExprId x = as_int(ctx, a), y = as_int(ctx, b);
  set_number(ctx, And ? ctx.ar.bitwise_and(x, y) : ctx.ar.bitwise_or(x, y), Num::Int);
}

void sym_int(PropContext& ctx) {
  const ScalarOperand a = scalar(ctx, ctx.arg(0));
  set_number(ctx, a.type == Num::Float ? ctx.ar.trunc_to_int(a.e) : as_int(ctx, a), Num::Int);
}

void sym_float(PropContext& ctx) { set_number(ctx, as_float(ctx, scalar(ctx, ctx.arg(0))), Num::Float); }

// math.ceil / math.floor of a size expression (SymFloat.__ceil__ / __floor__: CeilToInt /
// FloorToInt, an int; of an int, the int itself), e.g. timm's mobilevit
// `math.ceil(H / patch) * patch`.
template <bool Ceil>
void math_round(PropContext& ctx) {
  const ScalarOperand a = scalar(ctx, ctx.arg(0));
  if (a.type != Num::Float) return set_number(ctx, as_int(ctx, a), Num::Int);
  set_number(ctx, Ceil ? ctx.ar.ceil_to_int(a.e) : ctx.ar.floor_to_int(a.e), Num::Int);
}

// aten._assert_scalar(Scalar self, str assert_msg) -> () (torch.export's runtime asserts,
// e.g. `u0 >= 0` after a boolean-mask index): ATen's `TORCH_SYM_CHECK(self.toSymBool(),
// assert_msg)`, i.e. ShapeEnv.expect_true: a guard on backed sizes, a deferred runtime assert
// on unbacked ones; false at the hints is the assert's error.
void assert_scalar(PropContext& ctx) {
  const ScalarOperand c = scalar(ctx, ctx.arg(0));
  const ExprId cond = c.type == Num::Bool ? c.e : ctx.ar.ne(c.e, c.type == Num::Float ? ctx.ar.floating(0) : ctx.ar.zero());
  const ArgId m = ctx.arg(1).valid() ? ctx.arg(1) : ArgId();
  const std::string_view msg = m.valid() && ctx.graph.arg_kind(m) == ArgKind::String ? ctx.string_arg(m) : "";
  if (!ctx.env.expect_true(cond, ctx.node_name()) && !ctx.tolerate(cond))
    ctx.fail("{}", msg.empty() ? std::string_view("Runtime assertion failed") : msg);
  ctx.set_value(ctx.vals.none());
}

constexpr OpRuleEntry kRules[] = {
    {"aten.sym_size.int", sym_size},
    {"aten._assert_scalar.default", assert_scalar},
    {"aten.sym_size", sym_size},
    {"aten.sym_stride.int", sym_stride},
    {"aten.sym_numel.default", sym_numel},
    {"aten.sym_storage_offset.default", sym_storage_offset},
    {"operator.getitem", getitem},
    {"operator.add", arith<0>},
    {"operator.sub", arith<1>},
    {"operator.mul", arith<2>},
    {"operator.truediv", arith<3>},
    {"operator.floordiv", arith<4>},
    {"operator.mod", arith<5>},
    {"operator.pow", arith<6>},
    {"builtins.min", arith<7>},
    {"builtins.max", arith<8>},
    {"torch.sym_min", arith<7>},
    {"torch.sym_max", arith<8>},
    {"operator.eq", compare<ExprKind::Eq>},
    {"operator.ne", compare<ExprKind::Ne>},
    {"operator.lt", compare<ExprKind::Lt>},
    {"operator.le", compare<ExprKind::Le>},
    {"operator.gt", compare<ExprKind::Gt>},
    {"operator.ge", compare<ExprKind::Ge>},
    {"operator.neg", neg},
    {"operator.pos", pos},
    {"operator.abs", abs_op},
    {"operator.not_", logical_not},
    {"operator.and_", logical<true>},
    {"operator.or_", logical<false>},
    {"torch.sym_int", sym_int},
    {"torch.sym_float", sym_float},
    {"math.ceil", math_round<true>},
    {"math.floor", math_round<false>},
};

}  // namespace

std::span<const OpRuleEntry> scalar_rules() { return kRules; }

}  // namespace symshape
