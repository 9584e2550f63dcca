#include "prop/dtype_rules.h"

#include "core/error.h"

namespace symshape {

namespace {

// Dense index of each DType in c10's promotion table order (the DType enum is not in
// that order). Complex32/Complex128 have no DType: promotions that reach them are
// reported as unsupported rather than silently narrowed.
enum P : uint8_t { u1, i1, i2, i4, i8, f2, f4, f8, c8, b1, bf, kP };

constexpr P to_p(DType d) {
  switch (d) {
    case DType::UInt8: return u1;
    case DType::Int8: return i1;
    case DType::Int16: return i2;
    case DType::Int32: return i4;
    case DType::Int64: return i8;
    case DType::Float16: return f2;
    case DType::Float32: return f4;
    case DType::Float64: return f8;
    case DType::Complex64: return c8;
    case DType::Bool: return b1;
    case DType::BFloat16: return bf;
  }
  return kP;
}

constexpr DType from_p(P p) {
  constexpr DType kOf[] = {DType::UInt8,   DType::Int8,    DType::Int16,     DType::Int32, DType::Int64,   DType::Float16,
                           DType::Float32, DType::Float64, DType::Complex64, DType::Bool,  DType::BFloat16};
  return kOf[p];
}

// c10::promoteTypes, restricted to the dtypes the engine models; kP marks complex128
// (float64 with complex64), which the engine cannot represent.
constexpr P kTable[kP][kP] = {
    /*        u1  i1  i2  i4  i8  f2  f4  f8  c8  b1  bf */
    /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c8, u1, bf},
    /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c8, i1, bf},
    /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c8, i2, bf},
    /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c8, i4, bf},
    /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c8, i8, bf},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c8, f2, f4},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c8, f4, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, kP, f8, f8},
    /* c8 */ {c8, c8, c8, c8, c8, c8, c8, kP, c8, c8, c8},
    /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c8, b1, bf},
    /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c8, bf, bf},
};

[[noreturn]] void unsupported_complex(std::string_view what) {
  throw_error(ErrorKind::Unsupported, fmt::format("type promotion to {} is not modelled (no such dtype)", what));
}

// One tier of operands: unset until the first operand arrives.
struct Tier {
  bool set = false;
  DType d = DType::Bool;
  void add(DType x) {
    d = set ? promote_types(d, x) : x;
    set = true;
  }
};

// c10's combine_categories(higher, lower): the lower tier only matters when it is of a
// higher category than the higher tier.
Tier combine(Tier higher, Tier lower) {
  if (!higher.set) return lower;
  if (!lower.set) return higher;
  const ScalarCategory hc = dtype_category(higher.d), lc = dtype_category(lower.d);
  if (hc == ScalarCategory::Complex) return higher;
  if (lc == ScalarCategory::Complex) {
    // keep the float width of `higher` in the complex result
    if (hc == ScalarCategory::Floating) {
      if (higher.d == DType::Float16) unsupported_complex("complex32");
      if (higher.d == DType::Float64) unsupported_complex("complex128");
      return Tier{true, DType::Complex64};
    }
    return lower;
  }
  if (hc == ScalarCategory::Floating) return higher;
  if (higher.d == DType::Bool || lc == ScalarCategory::Floating) return Tier{true, promote_types(higher.d, lower.d)};
  return higher;
}

}  // namespace

ScalarCategory dtype_category(DType d) {
  switch (d) {
    case DType::Bool: return ScalarCategory::Bool;
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64: return ScalarCategory::Floating;
    case DType::Complex64: return ScalarCategory::Complex;
    default: return ScalarCategory::Integer;
  }
}

DType promote_types(DType a, DType b) {
  const P r = kTable[to_p(a)][to_p(b)];
  if (r == kP) unsupported_complex("complex128");
  return from_p(r);
}

bool is_floating(DType d) { return dtype_category(d) == ScalarCategory::Floating; }

bool is_integral(DType d, bool include_bool) {
  const ScalarCategory c = dtype_category(d);
  return c == ScalarCategory::Integer || (include_bool && c == ScalarCategory::Bool);
}

bool can_cast(DType from, DType to) {
  const ScalarCategory f = dtype_category(from), t = dtype_category(to);
  if (f == ScalarCategory::Complex && t != ScalarCategory::Complex) return false;
  if (f == ScalarCategory::Floating && (t == ScalarCategory::Integer || t == ScalarCategory::Bool)) return false;
  if (f != ScalarCategory::Bool && t == ScalarCategory::Bool) return false;
  return true;
}

std::string_view scalar_type_name(DType d) {
  switch (d) {
    case DType::Float16: return "Half";
    case DType::BFloat16: return "BFloat16";
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
    case DType::Int8: return "Char";
    case DType::UInt8: return "Byte";
    case DType::Int16: return "Short";
    case DType::Int32: return "Int";
    case DType::Int64: return "Long";
    case DType::Bool: return "Bool";
    case DType::Complex64: return "ComplexFloat";
  }
  return "Undefined";
}

bool scalar_params_take_bool_as_int(std::string_view target) {
  // The goldens' reference interpreter calls torch.ops.aten.*, whose argument binding in
  // 1.13 converts a Python bool given to a Scalar parameter as an int (bool subclasses
  // int): add.Scalar(bool_t, True) is int64, where.Scalar(c, True, False) int64. Given to
  // a Tensor parameter (add.Tensor(bool_t, True)) it stays a bool wrapped tensor. The
  // non-tensor operands of these overloads are Scalar parameters.
  const size_t dot = target.rfind('.');
  const std::string_view overload = dot == std::string_view::npos ? target : target.substr(dot + 1);
  if (overload.find("Scalar") != std::string_view::npos) return true;
  return target == "aten.clamp.default" || target == "aten.clamp_.default" || target == "aten.clamp_min.default" ||
         target == "aten.clamp_min_.default" || target == "aten.clamp_max.default" ||
         target == "aten.clamp_max_.default";
}

DType result_type(PropContext& ctx, std::span<const ArgId> operands, PromotionKind kind) {
  // Three tiers (H.3): dimensioned tensors, zero-dim tensors, Python scalars. A Python
  // float / complex scalar enters as the default float / complex dtype.
  Tier dim, zero, wrapped;
  for (ArgId a : operands) {
    if (ctx.is_none(a)) continue;
    if (ctx.is_tensor(a)) {
      const TensorId t = ctx.tensor(a);
      (ctx.vals.rank(t) > 0 ? dim : zero).add(ctx.vals.dtype(t));
      continue;
    }
    switch (ctx.scalar_category(a)) {
      case ScalarCategory::Bool:
        wrapped.add(scalar_params_take_bool_as_int(ctx.target()) ? DType::Int64 : DType::Bool);
        break;
      case ScalarCategory::Integer: wrapped.add(DType::Int64); break;
      case ScalarCategory::Floating: wrapped.add(DType::Float32); break;
      case ScalarCategory::Complex: wrapped.add(DType::Complex64); break;
    }
  }
  const Tier r = combine(dim, combine(zero, wrapped));
  if (!r.set) throw_error(ErrorKind::Internal, "result_type without operands");
  switch (kind) {
    case PromotionKind::Default:
    case PromotionKind::NoOpMath: return r.d;
    case PromotionKind::IntToFloat: return is_integral(r.d, true) ? DType::Float32 : r.d;
    case PromotionKind::AlwaysBool: return DType::Bool;
    case PromotionKind::ComplexToFloat: return r.d == DType::Complex64 ? DType::Float32 : r.d;
    case PromotionKind::BoolToLong: return r.d == DType::Bool ? DType::Int64 : r.d;
  }
  return r.d;
}

}  // namespace symshape
