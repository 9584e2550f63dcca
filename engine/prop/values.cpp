#include "prop/values.h"

#include <algorithm>

#include "core/error.h"

namespace symshape {

void ValueTable::clear() {
  tensors_.clear();
  sizes_.clear();
  strides_.clear();
  storage_count_ = 0;
  kind_.clear();
  payload_.clear();
  count_.clear();
  items_.clear();
  staging_.clear();
  staging_marks_.clear();
}

TensorId ValueTable::add_tensor(DType dtype, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                                ExprId storage_offset, StorageId storage) {
  if (sizes.size() != strides.size() || sizes.size() > 255)
    throw_error(ErrorKind::Internal, "tensor sizes/strides rank mismatch or rank > 255");
  TensorMeta m;
  m.dims_begin = static_cast<uint32_t>(sizes_.size());
  m.rank = static_cast<uint8_t>(sizes.size());
  m.dtype = dtype;
  m.storage = storage;
  m.storage_offset = storage_offset;
  m.data = nullptr;
  // The spans may point into sizes_/strides_ themselves (a tensor shaped like another):
  // grow first, so appending below cannot reallocate under them.
  const size_t rank = sizes.size();
  if (sizes_.size() + rank > sizes_.capacity() || strides_.size() + rank > strides_.capacity()) {
    ExprId copy[2 * 255];
    std::copy(sizes.begin(), sizes.end(), copy);
    std::copy(strides.begin(), strides.end(), copy + rank);
    sizes_.reserve(std::max(2 * sizes_.capacity(), sizes_.size() + rank));
    strides_.reserve(std::max(2 * strides_.capacity(), strides_.size() + rank));
    sizes_.insert(sizes_.end(), copy, copy + rank);
    strides_.insert(strides_.end(), copy + rank, copy + 2 * rank);
  } else {
    // element-wise: push_back of an element of the same vector is valid without reallocation
    for (size_t i = 0; i < rank; ++i) sizes_.push_back(sizes[i]);
    for (size_t i = 0; i < rank; ++i) strides_.push_back(strides[i]);
  }
  tensors_.push_back(m);
  return TensorId(static_cast<uint32_t>(tensors_.size() - 1));
}

void ValueTable::set_geometry(TensorId t, std::span<const ExprId> sizes, std::span<const ExprId> strides,
                              ExprId storage_offset, bool keep_data) {
  // a fresh row appended through add_tensor (which copes with spans into sizes_ / strides_),
  // then moved under t's id
  const TensorMeta old = tensors_[t.index()];
  const TensorId row = add_tensor(old.dtype, sizes, strides, storage_offset, old.storage);
  TensorMeta m = tensors_[row.index()];
  tensors_.pop_back();
  m.data = keep_data ? old.data : nullptr;
  tensors_[t.index()] = m;
}

void ValueTable::begin_list() { staging_marks_.push_back(static_cast<uint32_t>(staging_.size())); }
void ValueTable::list_push(ValId v) { staging_.push_back(v); }
ValId ValueTable::end_list() {
  const uint32_t mark = staging_marks_.back();
  staging_marks_.pop_back();
  const uint32_t first = static_cast<uint32_t>(items_.size());
  items_.insert(items_.end(), staging_.begin() + mark, staging_.end());
  const uint32_t n = static_cast<uint32_t>(staging_.size() - mark);
  staging_.resize(mark);
  return add(ValKind::List, first, n);
}

ValId ValueTable::import(const ValueTable& src, ValId v, std::vector<StorageId>* storage_map) {
  if (&src == this) throw_error(ErrorKind::Internal, "ValueTable::import from itself");
  switch (src.kind(v)) {
    case ValKind::None: return none();
    case ValKind::SymInt: return of_int(src.as_expr(v));
    case ValKind::SymBool: return of_bool(src.as_expr(v));
    case ValKind::SymFloat: return of_float(src.as_expr(v));
    case ValKind::Tensor: {
      const TensorId t = src.as_tensor(v);
      const TensorMeta& m = src.tensor(t);
      StorageId storage = m.storage;
      if (storage_map) {
        if (storage_map->size() <= storage.index()) storage_map->resize(storage.index() + 1);
        StorageId& mapped = (*storage_map)[storage.index()];
        if (!mapped.valid()) mapped = new_storage();
        storage = mapped;
      } else {
        storage_count_ = std::max(storage_count_, storage.index() + 1);
      }
      const TensorId copy = add_tensor(m.dtype, src.sizes(t), src.strides(t), m.storage_offset, storage);
      tensors_[copy.index()].data = m.data;
      return of_tensor(copy);
    }
    case ValKind::List: {
      begin_list();
      for (ValId item : src.items(v)) list_push(import(src, item, storage_map));
      return end_list();
    }
  }
  return none();
}

ValId ValueTable::make_list(std::span<const ValId> items) {
  const uint32_t first = static_cast<uint32_t>(items_.size());
  items_.insert(items_.end(), items.begin(), items.end());
  return add(ValKind::List, first, static_cast<uint32_t>(items.size()));
}

}  // namespace symshape
