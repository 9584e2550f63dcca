#pragma once
// The PyTorch op tags that decide how a fake mode treats data-dependent ops (semantics.md
// D.4): `dynamic_output_shape` ops need a ShapeEnv that allows unbacked output sizes, the
// scalar-reading ops need one that allows scalar outputs, and the other
// `data_dependent_output` ops (equal) cannot be faked at all.
#include <string_view>

namespace symshape {

enum class DataDependentTag : uint8_t {
  None,
  DynamicOutputShape,   // nonzero, masked_select, unique, bincount, ...
  ScalarOutput,         // item / _local_scalar_dense: an unbacked SymInt/SymFloat/SymBool
  DataDependentOutput,  // equal: raises DataDependentOutputException in every mode
};

struct DataDependentOp {
  DataDependentTag tag = DataDependentTag::None;
  // The op PyTorch's fake mode names in the exception: composite ops (item, argwhere,
  // where(cond)) reach the fake mode as the op they decompose into.
  std::string_view raised_op;
};

DataDependentOp data_dependent_op(std::string_view target);

}  // namespace symshape
