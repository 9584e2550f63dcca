#pragma once
// Type promotion (semantics.md H.3): the dtype lattice, operand tiers (dimensioned
// tensors, zero-dim tensors, Python scalars) and the result-kind adjustments.
#include <optional>
#include <span>

#include "graph/kinds.h"
#include "prop/context.h"

namespace symshape {

enum class PromotionKind : uint8_t { Default, NoOpMath, IntToFloat, AlwaysBool, ComplexToFloat, BoolToLong };

ScalarCategory dtype_category(DType d);
DType promote_types(DType a, DType b);
bool is_floating(DType d);
bool is_integral(DType d, bool include_bool);
// c10::canCast: no complex -> real, float -> integral, or non-bool -> bool.
bool can_cast(DType from, DType to);
// c10's ScalarType name for messages ("Float", "Long", "Bool", ...).
std::string_view scalar_type_name(DType d);

// Result dtype of an elementwise op over its operands (tensor or scalar ARGs).
DType result_type(PropContext& ctx, std::span<const ArgId> operands, PromotionKind kind = PromotionKind::Default);
// Whether a Python bool in a non-tensor operand of `target` binds as an int (Scalar
// parameter through torch.ops) rather than as a bool wrapped tensor (Tensor parameter).
bool scalar_params_take_bool_as_int(std::string_view target);

}  // namespace symshape
