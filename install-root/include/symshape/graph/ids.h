#pragma once
// Typed 32-bit ids of the graph IR. Each id indexes exactly one column family of a
// GraphStore (or the shared OpTable), so an ArgId can never be passed as a NodeId.
#include <cstdint>

#include "core/typed_id.h"

namespace symshape {

using NodeId = TypedId<struct NodeTag>;           // node columns of one graph
using ArgId = TypedId<struct ArgTag>;             // argument columns of one graph
using StrId = TypedId<struct StrTag>;             // a graph's StringPool
using OpId = TypedId<struct OpTag>;               // OpTable::ops, shared by a corpus
using KeyId = TypedId<struct KeyTag>;             // OpTable::keys (kwarg names), shared
using PlaceholderId = TypedId<struct PhTag>;      // placeholder side table (graph order)
using AttrId = TypedId<struct AttrTag>;           // get_attr side table (graph order)
using SymId = TypedId<struct SymTag>;             // dims table of the dynamic_shapes SPEC
using ValueId = TypedId<struct ValueTag>;         // golden VALUE columns of one graph
using ExampleId = TypedId<struct ExampleTag>;     // examples of one graph

// A run of `count` entries starting at `first` in some flat array. first == kAbsent
// encodes "field not present" where the format distinguishes absent from empty.
struct Span32 {
  static constexpr uint32_t kAbsent = 0xffffffffu;
  uint32_t first = kAbsent;
  uint32_t count = 0;
  constexpr bool present() const { return first != kAbsent; }
  friend constexpr bool operator==(Span32, Span32) = default;
};
static_assert(sizeof(Span32) == 8);

}  // namespace symshape
