// torch/fx/passes/shape_prop.py _extract_tensor_metadata and torch/_prims_common's
// is_contiguous / is_channels_last_contiguous_{2d,3d} with false_if_dde=True, as the
// export tracer runs them on each op output (see the header).
#include "spec/export_tensor_meta.h"

#include <array>

#include "shape_env/shape_env.h"

namespace symshape::spec {
namespace {

// guard_or_false / guard_or_true: a constant answers itself, an unbacked size its default.
bool guard_or_false(ShapeEnv& env, ExprId c) {
  return c == env.arena().true_() || (c != env.arena().false_() && env.guard_or_false(c));
}
bool guard_or_true(ShapeEnv& env, ExprId c) {
  return c == env.arena().true_() || (c != env.arena().false_() && env.guard_or_true(c));
}

}  // namespace

void ExportTensorMetaHook::after_node(NodeId n) {
  if (g_.node_kind(n) != NodeKind::CallFunction) return;
  record_meta(prop_.node_values()[n.index()]);
}

void ExportTensorMetaHook::record_meta(ValId v) {
  if (!v.valid()) return;
  const ValueTable& vals = prop_.values();
  switch (vals.kind(v)) {
    case ValKind::Tensor: memory_format(vals.as_tensor(v)); break;
    case ValKind::List:
      for (ValId item : vals.items(v)) record_meta(item);
      break;
    default: break;
  }
}

// The first format that holds ends the search, as in _extract_tensor_metadata.
void ExportTensorMetaHook::memory_format(TensorId t) {
  static constexpr std::array<size_t, 4> kChannelsLast2d{1, 3, 2, 0};
  static constexpr std::array<size_t, 5> kChannelsLast3d{1, 4, 3, 2, 0};
  if (contiguous(t)) return;
  const uint32_t rank = prop_.values().rank(t);
  if (rank == 4) channels_last(t, kChannelsLast2d);
  if (rank == 5) channels_last(t, kChannelsLast3d);
}

bool ExportTensorMetaHook::contiguous(TensorId t) {
  ExprArena& ar = env_.arena();
  const ValueTable& vals = prop_.values();
  auto sizes = vals.sizes(t);
  auto strides = vals.strides(t);
  ExprId numel = ar.one();
  for (ExprId s : sizes) numel = ar.mul(numel, s);
  if (guard_or_false(env_, ar.lt(numel, ar.integer(2)))) return true;
  ExprId expected = ar.one(), expected_max = ar.one();
  for (size_t i = sizes.size(); i-- > 0;) {
    if (guard_or_false(env_, ar.eq(sizes[i], ar.one()))) continue;
    if (guard_or_true(env_, ar.ne(strides[i], expected)) && guard_or_true(env_, ar.ne(strides[i], expected_max)))
      return false;
    expected_max = ar.mul(expected_max, ar.max(sizes[i], ar.one()));
    expected = ar.mul(expected, sizes[i]);
  }
  return true;
}

bool ExportTensorMetaHook::channels_last(TensorId t, std::span<const size_t> order) {
  ExprArena& ar = env_.arena();
  const ValueTable& vals = prop_.values();
  auto sizes = vals.sizes(t);
  auto strides = vals.strides(t);
  ExprId expected = ar.one();
  for (size_t d : order) {
    if (guard_or_false(env_, ar.eq(sizes[d], ar.one()))) continue;
    if (guard_or_true(env_, ar.ne(strides[d], expected))) return false;
    expected = ar.mul(expected, sizes[d]);
  }
  return true;
}

}  // namespace symshape::spec
