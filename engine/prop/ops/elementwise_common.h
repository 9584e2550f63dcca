#pragma once
// Helpers shared by the elementwise-family rule files (pointwise ops, conversions,
// factories): the TensorIterator result of a pointwise op and the sub-tables that
// elementwise_rules() concatenates.
#include <span>

#include "prop/context.h"
#include "prop/dtype_rules.h"
#include "prop/rules.h"

namespace symshape {

// Broadcast shape (operands folded left to right) and TensorIterator output strides of
// a pointwise op. Tensor args are operands; any other non-None arg is a Python scalar,
// i.e. a wrapped 0-dim CPU operand (it disables the fast paths). Pass only the args that
// are TensorIterator operands of the eager kernel.
// The guards are PyTorch 2.x FakeTensor's (fake_elementwise_questions.h). `path` says how
// FakeTensorMode runs the op under symbolic sizes, which decides the form of the strides
// (their values are eager's either way):
//   Eager       a C++ meta or a decomposition whose first op is a binary fast path
//               (gelu, hardswish, square, ...): a channels_last result has raw strides;
//   FastBinary  aten.add/sub/mul/div.Tensor try fake_impls' binary fast path first;
//   Refs        torch._refs through a prims elementwise meta (relu, sigmoid, exp, ...):
//               compute_elementwise_output_strides, make_contiguous_strides_for of the
//               permuted shape, so a channels_last result is `C*Max(1, W)`, not `C*W`.
enum class PointwisePath : uint8_t { Eager, FastBinary, Refs };
void pointwise_layout(PropContext& ctx, std::span<const ArgId> operands, Dims& shape, Dims& strides,
                      PointwisePath path = PointwisePath::Eager);
TensorId pointwise_result(PropContext& ctx, std::span<const ArgId> operands, DType dtype,
                          PointwisePath path = PointwisePath::Eager);

// In-place pointwise semantics: the operands' broadcast shape must equal self's and the
// computed dtype must be castable to self's; the result is self itself.
void check_inplace(PropContext& ctx, TensorId self, std::span<const ArgId> operands, DType computed);

// dtype from an optional dtype argument, else `dflt`.
DType dtype_or(PropContext& ctx, ArgId a, DType dflt);

// div's keyword-only rounding_mode (not in context.h's Key set): its KeyId is resolved
// once per OpTable, not per node.
ArgId rounding_mode_kwarg(PropContext& ctx);

std::span<const OpRuleEntry> pointwise_rules();   // unary / binary / ternary / in-place
std::span<const OpRuleEntry> conversion_rules();  // to / _to_copy / clone / contiguous / detach / copy
std::span<const OpRuleEntry> factory_rules();     // full / zeros / *_like / new_* / arange / linspace
std::span<const OpRuleEntry> dropout_rules();     // dropout family
std::span<const OpRuleEntry> diff_cross_rules();  // diff / cross / linalg_cross
std::span<const OpRuleEntry> complex_fft_rules();  // real / imag / view_as_real / view_as_complex / polar / FFTs

}  // namespace symshape
