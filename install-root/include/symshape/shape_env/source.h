#pragma once
// Sources: where a symbol's value comes from in the user's inputs (`L['x'].size()[0]`).
// Interned in a small table per ShapeEnv; the printed name is built once at creation.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/typed_id.h"

namespace symshape {

using SourceId = TypedId<struct SourceTag>;

enum class SourceKind : uint8_t {
  Local,          // L['x']            (an input)
  Size,           // L['x'].size()[i]
  Stride,         // L['x'].stride()[i]
  StorageOffset,  // L['x'].storage_offset()
  Ephemeral,      // internal, never printed first when a real source exists
  Constant,       // a plain named value printed as its name (PyTorch's ConstantSource:
                  // make_fx's `input0`, tests' `__testing_only0`)
};

class SourceTable {
 public:
  SourceId local(std::string_view input_name);
  SourceId size(SourceId tensor, uint32_t dim) { return derived(SourceKind::Size, tensor, dim); }
  SourceId stride(SourceId tensor, uint32_t dim) { return derived(SourceKind::Stride, tensor, dim); }
  SourceId storage_offset(SourceId tensor) { return derived(SourceKind::StorageOffset, tensor, 0); }
  SourceId ephemeral(std::string_view name);
  SourceId constant(std::string_view name);

  SourceKind kind(SourceId s) const { return kind_[s.index()]; }
  SourceId base(SourceId s) const { return base_[s.index()]; }
  uint32_t dim(SourceId s) const { return dim_[s.index()]; }
  const std::string& name(SourceId s) const { return name_[s.index()]; }
  // The input a source reads from (itself for a Local).
  SourceId root(SourceId s) const { return kind(s) == SourceKind::Local || !base(s).valid() ? s : root(base(s)); }
  bool is_tensor_property(SourceId s) const {
    SourceKind k = kind(s);
    return k == SourceKind::Size || k == SourceKind::Stride || k == SourceKind::StorageOffset;
  }
  bool is_ephemeral(SourceId s) const { return kind(s) == SourceKind::Ephemeral; }
  uint32_t count() const { return static_cast<uint32_t>(kind_.size()); }
  void clear();

 private:
  SourceId derived(SourceKind kind, SourceId base, uint32_t dim);
  SourceId add(SourceKind kind, SourceId base, uint32_t dim, std::string name);

  std::vector<SourceKind> kind_;
  std::vector<SourceId> base_;
  std::vector<uint32_t> dim_;
  std::vector<std::string> name_;
};

}  // namespace symshape
