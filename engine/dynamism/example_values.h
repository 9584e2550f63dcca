#pragma once
// The inputs of a set of examples as flat data (semantics.md G.2's input): every example is
// a dict of named values, stored as one pre-order run of ValueNodes (a container node is
// followed by its `children` subtrees), all examples one after the other. Values are what
// track_dynamism_across_examples distinguishes: containers (dict, list/tuple, an object's
// attributes), tensors (their sizes only: what a meta tensor keeps), ints, floats, bools,
// strings and None, and nn.Module descriptions (converted by module_dict.h). No pointers.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace symshape::dynamism {

enum class ValueKind : uint8_t {
  Dict,    // children keyed by KeyKind::Name or KeyKind::Int
  List,    // list or tuple: children keyed by KeyKind::Index
  Object,  // an object's attributes: children keyed by KeyKind::Attr (rendered `.name`)
  Module,  // an nn.Module description: children are its sections (module_dict.h)
  Tensor,  // sizes in ExampleSet::sizes[payload, payload + rank)
  Int,
  Float,
  Bool,
  Str,
  None,
};

// How a node is reached from its parent; pytree's key kinds (MappingKey with a str or an int
// key, SequenceKey, GetAttrKey).
enum class KeyKind : uint8_t { Root, Name, Int, Index, Attr };

struct ValueNode {
  ValueKind kind = ValueKind::None;
  KeyKind key_kind = KeyKind::Root;
  uint32_t children = 0;  // containers: number of direct children
  uint32_t rank = 0;      // Tensor: number of sizes
  int64_t key = 0;        // Name/Attr: index into ExampleSet::names; Int: the key; Index: position
  int64_t payload = 0;    // Int/Bool: the value; Tensor: first size; Str: index into names
  double number = 0.0;    // Float: the value
};

class ExampleSet {
 public:
  std::vector<ValueNode> nodes;
  std::vector<int64_t> sizes;
  std::vector<std::string> names;  // interned dict keys, attribute names and strings
  std::vector<uint32_t> roots;     // per example: its top-level Dict node
  std::vector<uint64_t> source;    // per example: where it came from (NDJSON line, example index)

  size_t num_examples() const { return roots.size(); }
  // One past the last node of the subtree starting at `i`.
  size_t subtree_end(size_t i) const;
  // Nodes of example `e` (its root and everything below).
  std::span<const ValueNode> example_nodes(size_t e) const;
  std::span<const int64_t> tensor_sizes(const ValueNode& n) const {
    return {sizes.data() + n.payload, n.rank};
  }
  uint32_t intern(std::string_view s);
  std::string_view name(int64_t id) const { return names[size_t(id)]; }

  // Building, in pre-order. begin_example opens the top-level dict; every value call adds
  // one child to the innermost open container; end() closes it.
  void begin_example(uint64_t source_index);
  void end_example();
  void set_key_name(std::string_view k) { pending_kind_ = KeyKind::Name, pending_key_ = intern(k); }
  void set_key_int(int64_t k) { pending_kind_ = KeyKind::Int, pending_key_ = k; }
  void set_key_attr(std::string_view k) { pending_kind_ = KeyKind::Attr, pending_key_ = intern(k); }
  void begin(ValueKind container);
  void end();
  void tensor(std::span<const int64_t> sz);
  void integer(int64_t v);
  void boolean(bool v);
  void floating(double v);
  void string(std::string_view s);
  void none();
  // Drops the example being built (a malformed line): the set is as before begin_example.
  void abandon_example();

 private:
  ValueNode& push(ValueKind kind);
  std::unordered_map<std::string, uint32_t> name_ids_;
  std::vector<size_t> open_;  // open containers (node indices)
  KeyKind pending_kind_ = KeyKind::Root;
  int64_t pending_key_ = 0;
  size_t mark_nodes_ = 0, mark_sizes_ = 0;
};

// Python's repr() of a str key, as pytree's MappingKey prints it: 'x', "it's", 'a\n'.
std::string py_repr(std::string_view s);

}  // namespace symshape::dynamism
