#pragma once
// A dynamic_shapes spec as flat data (semantics.md F.2): the container tree of the spec in
// pre-order (dict / list / None / leaves), the root Dims it names and the (root, fn) pairs
// its Dim leaves use. No pointers: consumers walk `nodes` by index.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spec/dim.h"

namespace symshape::spec {

enum class NodeKind : uint8_t {
  None,  // a tensor-level (or per-dimension) None
  List,  // list or tuple: `children` entries follow
  Dict,  // dict: `children` entries follow, each with a key
  Int,   // a static size: value
  Hint,  // Dim.AUTO/STATIC/DYNAMIC: value is the HintKind
  Dim,   // a named or derived Dim: value indexes DynamicShapes::uses
};

struct SpecNode {
  NodeKind kind = NodeKind::None;
  uint32_t children = 0;  // List/Dict: number of direct children
  int64_t value = 0;
  int32_t key = -1;  // child of a Dict: index into DynamicShapes::keys
};

struct DimUse {
  uint32_t root = 0;  // index into DynamicShapes::roots
  LinearFn fn;
};

struct DynamicShapes {
  bool present = false;  // false: `dynamic_shapes` is None
  std::vector<SpecNode> nodes;  // pre-order; nodes[0] is the top level when present
  std::vector<std::string> keys;
  std::vector<RootDim> roots;
  std::vector<DimUse> uses;

  DimRef dim(const SpecNode& leaf) const;  // leaf.kind == Dim
  // Index of the node that ends the subtree starting at `i` (one past its last node).
  size_t subtree_end(size_t i) const;
  // The per-input entry of a dict top level keyed `name` (node index), if any.
  std::optional<size_t> find_input(std::string_view name) const;
};

// Semantic equality: same tree, same keys, same Dims (name, range, function) at every leaf.
bool operator==(const DynamicShapes& a, const DynamicShapes& b);

// Builder for specs written in code (tests, suggestion): add_* append in pre-order.
class SpecBuilder {
 public:
  SpecBuilder();
  SpecBuilder& begin_dict(std::string_view key = {});
  SpecBuilder& begin_list(std::string_view key = {});
  SpecBuilder& end();
  SpecBuilder& none(std::string_view key = {});
  SpecBuilder& size(int64_t v, std::string_view key = {});
  SpecBuilder& hint(HintKind h, std::string_view key = {});
  SpecBuilder& dim(const DimRef& d, std::string_view key = {});
  DynamicShapes build();  // validates: same Dim name with different bounds (F.3)

 private:
  SpecNode& push(NodeKind kind, std::string_view key);
  DynamicShapes s_;
  std::vector<size_t> open_;
};

}  // namespace symshape::spec
