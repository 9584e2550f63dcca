#include "prop/data_dependent_tags.h"

namespace symshape {

namespace {

struct Entry {
  std::string_view target;
  DataDependentOp op;
};

// Ops whose tag applies whatever their arguments. repeat_interleave (without
// output_size), boolean-mask indexing and one_hot(-1) are data-dependent only for some
// arguments: FakeTensorProp catches them by the unbacked symbol their rule creates.
constexpr Entry kEntries[] = {
    {"aten.nonzero.default", {DataDependentTag::DynamicOutputShape, "aten.nonzero.default"}},
    {"aten.argwhere.default", {DataDependentTag::DynamicOutputShape, "aten.nonzero.default"}},
    {"aten.nonzero_numpy.default", {DataDependentTag::DynamicOutputShape, "aten.nonzero.default"}},
    {"aten.where.default", {DataDependentTag::DynamicOutputShape, "aten.nonzero.default"}},
    {"aten.masked_select.default", {DataDependentTag::DynamicOutputShape, "aten.masked_select.default"}},
    {"aten._unique.default", {DataDependentTag::DynamicOutputShape, "aten._unique.default"}},
    {"aten._unique2.default", {DataDependentTag::DynamicOutputShape, "aten._unique2.default"}},
    {"aten.unique_dim.default", {DataDependentTag::DynamicOutputShape, "aten.unique_dim.default"}},
    {"aten.unique_consecutive.default", {DataDependentTag::DynamicOutputShape, "aten.unique_consecutive.default"}},
    {"aten.unique_dim_consecutive.default",
     {DataDependentTag::DynamicOutputShape, "aten.unique_dim_consecutive.default"}},
    {"aten.bincount.default", {DataDependentTag::DynamicOutputShape, "aten.bincount.default"}},
    {"aten.item.default", {DataDependentTag::ScalarOutput, "aten._local_scalar_dense.default"}},
    {"aten._local_scalar_dense.default", {DataDependentTag::ScalarOutput, "aten._local_scalar_dense.default"}},
    {"aten.equal.default", {DataDependentTag::DataDependentOutput, "aten.equal.default"}},
};

}  // namespace

DataDependentOp data_dependent_op(std::string_view target) {
  for (const Entry& e : kEntries)
    if (e.target == target) return e.op;
  return {};
}

}  // namespace symshape
