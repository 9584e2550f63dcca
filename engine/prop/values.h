#pragma once
// Values of one propagation, in flat tables: every node gets a ValId; a tensor value
// points at a row of the fake-tensor table (rank, dtype, storage, offset, and a span of
// size/stride ExprIds in two flat arrays). Lists are spans into a flat ValId array.
// Nothing here allocates per node once the vectors reached their steady-state capacity
// (`clear()` keeps capacity), which is what makes repeated propagation cheap.
#include <cstdint>
#include <span>
#include <vector>

#include "core/typed_id.h"
#include "expr/expr.h"
#include "graph/kinds.h"

namespace symshape {

using TensorId = TypedId<struct FakeTensorTag>;
using ValId = TypedId<struct PropValueTag>;
using StorageId = TypedId<struct StorageTag>;

enum class ValKind : uint8_t {
  None,      // Python None / no value
  Tensor,    // payload: TensorId
  SymInt,    // payload: ExprId (integer-valued; constant for a plain int)
  SymBool,   // payload: ExprId (boolean-valued)
  SymFloat,  // payload: ExprId (float-valued)
  List,      // payload: first index into list items, count
};

struct TensorMeta {
  uint32_t dims_begin;  // into sizes / strides
  uint8_t rank;
  DType dtype;
  StorageId storage;    // views share their base's storage
  ExprId storage_offset;
  const int64_t* data;  // exact integer contents (get_attr tables), or nullptr
};

class ValueTable {
 public:
  void clear();

  // ---- tensors ----
  TensorId add_tensor(DType dtype, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                      ExprId storage_offset, StorageId storage);
  StorageId new_storage() { return StorageId(storage_count_++); }
  const TensorMeta& tensor(TensorId t) const { return tensors_[t.index()]; }
  TensorMeta& mutable_tensor(TensorId t) { return tensors_[t.index()]; }
  uint32_t rank(TensorId t) const { return tensors_[t.index()].rank; }
  DType dtype(TensorId t) const { return tensors_[t.index()].dtype; }
  std::span<const ExprId> sizes(TensorId t) const {
    const TensorMeta& m = tensors_[t.index()];
    return {sizes_.data() + m.dims_begin, m.rank};
  }
  std::span<const ExprId> strides(TensorId t) const {
    const TensorMeta& m = tensors_[t.index()];
    return {strides_.data() + m.dims_begin, m.rank};
  }
  uint32_t tensor_count() const { return static_cast<uint32_t>(tensors_.size()); }
  // An in-place metadata change (unsqueeze_, transpose_, as_strided_, ...): tensor `t` itself
  // takes these sizes, strides and offset, so every value holding `t` (the mutated node, the
  // in-place op's result, list items) sees them from now on, as every Python reference to
  // the mutated tensor does. Its tracked contents stay only with `keep_data` (a change that
  // keeps the row-major order of the elements: unsqueeze_, squeeze_).
  void set_geometry(TensorId t, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                    ExprId storage_offset, bool keep_data);

  // ---- values ----
  ValId none() { return add(ValKind::None, 0, 0); }
  ValId of_tensor(TensorId t) { return add(ValKind::Tensor, t.value, 0); }
  ValId of_int(ExprId e) { return add(ValKind::SymInt, e.value, 0); }
  ValId of_bool(ExprId e) { return add(ValKind::SymBool, e.value, 0); }
  ValId of_float(ExprId e) { return add(ValKind::SymFloat, e.value, 0); }
  // Lists: start with begin_list(), push items with list_push(), close with end_list().
  // Items are staged in a scratch stack so nested lists work.
  void begin_list();
  void list_push(ValId v);
  ValId end_list();
  ValId make_list(std::span<const ValId> items);
  // Deep-copies value `v` of another table into this one (a recorded snapshot, or an
  // argument handed to a nested propagation). With `storage_map` null a tensor keeps its
  // StorageId (both tables share one storage numbering); otherwise source storage s
  // becomes (*storage_map)[s], allocated here on first sight, so aliasing among the
  // copied values is kept.
  ValId import(const ValueTable& src, ValId v, std::vector<StorageId>* storage_map);

  ValKind kind(ValId v) const { return kind_[v.index()]; }
  TensorId as_tensor(ValId v) const { return TensorId(static_cast<uint32_t>(payload_[v.index()])); }
  ExprId as_expr(ValId v) const { return ExprId(static_cast<uint32_t>(payload_[v.index()])); }
  std::span<const ValId> items(ValId v) const {
    return {items_.data() + payload_[v.index()], count_[v.index()]};
  }

 private:
  ValId add(ValKind k, uint32_t payload, uint32_t count) {
    kind_.push_back(k);
    payload_.push_back(payload);
    count_.push_back(count);
    return ValId(static_cast<uint32_t>(kind_.size() - 1));
  }

  std::vector<TensorMeta> tensors_;
  std::vector<ExprId> sizes_, strides_;
  uint32_t storage_count_ = 0;
  std::vector<ValKind> kind_;
  std::vector<uint32_t> payload_;
  std::vector<uint32_t> count_;
  std::vector<ValId> items_;
  std::vector<ValId> staging_;
  std::vector<uint32_t> staging_marks_;
};

}  // namespace symshape
