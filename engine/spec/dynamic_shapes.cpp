// Walking, comparing and building flat dynamic_shapes specs.
#include "spec/dynamic_shapes.h"

#include <fmt/format.h>

#include "spec/spec_error.h"

namespace symshape::spec {

DimRef DynamicShapes::dim(const SpecNode& leaf) const {
  const DimUse& u = uses[size_t(leaf.value)];
  return DimRef{roots[u.root], u.fn};
}

size_t DynamicShapes::subtree_end(size_t i) const {
  size_t pending = 1;
  while (pending > 0 && i < nodes.size()) {
    pending += nodes[i].children;
    --pending;
    ++i;
  }
  return i;
}

std::optional<size_t> DynamicShapes::find_input(std::string_view name) const {
  if (!present || nodes.empty() || nodes[0].kind != NodeKind::Dict) return std::nullopt;
  size_t i = 1;
  for (uint32_t c = 0; c < nodes[0].children; ++c) {
    if (keys[size_t(nodes[i].key)] == name) return i;
    i = subtree_end(i);
  }
  return std::nullopt;
}

bool operator==(const DynamicShapes& a, const DynamicShapes& b) {
  if (a.present != b.present || a.nodes.size() != b.nodes.size()) return false;
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const SpecNode &x = a.nodes[i], &y = b.nodes[i];
    if (x.kind != y.kind || x.children != y.children || (x.key < 0) != (y.key < 0)) return false;
    if (x.key >= 0 && a.keys[size_t(x.key)] != b.keys[size_t(y.key)]) return false;
    if (x.kind == NodeKind::Dim) {
      if (!(a.dim(x) == b.dim(y))) return false;
    } else if (x.value != y.value) {
      return false;
    }
  }
  return true;
}

SpecBuilder::SpecBuilder() { s_.present = true; }

SpecNode& SpecBuilder::push(NodeKind kind, std::string_view key) {
  // A dict child always has a key, which may be "" (a JSON dict can have the key ""); a
  // list child or the top level has none.
  bool keyed = false;
  if (!open_.empty()) {
    SpecNode& parent = s_.nodes[open_.back()];
    ++parent.children;
    keyed = parent.kind == NodeKind::Dict;
    if (!keyed && !key.empty()) throw_error(ErrorKind::Internal, "SpecBuilder: list children have no key");
  } else if (!s_.nodes.empty()) {
    throw_error(ErrorKind::Internal, "SpecBuilder: one top-level node");
  }
  SpecNode n;
  n.kind = kind;
  if (keyed) {
    n.key = int32_t(s_.keys.size());
    s_.keys.emplace_back(key);
  }
  s_.nodes.push_back(n);
  return s_.nodes.back();
}

SpecBuilder& SpecBuilder::begin_dict(std::string_view key) {
  push(NodeKind::Dict, key);
  open_.push_back(s_.nodes.size() - 1);
  return *this;
}
SpecBuilder& SpecBuilder::begin_list(std::string_view key) {
  push(NodeKind::List, key);
  open_.push_back(s_.nodes.size() - 1);
  return *this;
}
SpecBuilder& SpecBuilder::end() {
  open_.pop_back();
  return *this;
}
SpecBuilder& SpecBuilder::none(std::string_view key) {
  push(NodeKind::None, key);
  return *this;
}
SpecBuilder& SpecBuilder::size(int64_t v, std::string_view key) {
  push(NodeKind::Int, key).value = v;
  return *this;
}
SpecBuilder& SpecBuilder::hint(HintKind h, std::string_view key) {
  push(NodeKind::Hint, key).value = int64_t(h);
  return *this;
}

SpecBuilder& SpecBuilder::dim(const DimRef& d, std::string_view key) {
  uint32_t root = 0;
  while (root < s_.roots.size() && s_.roots[root].name != d.root.name) ++root;
  if (root == s_.roots.size()) {
    s_.roots.push_back(d.root);
  } else if (!(s_.roots[root] == d.root)) {
    // F.3: PyTorch names the later definition as "the same symbolic dimension".
    throw_invalid_input(fmt::format("Found different definitions {} and {} for the same symbolic dimension {}!",
                                    repr(s_.roots[root]), repr(d.root), repr(d.root)));
  }
  push(NodeKind::Dim, key).value = int64_t(s_.uses.size());
  s_.uses.push_back(DimUse{root, d.fn});
  return *this;
}

DynamicShapes SpecBuilder::build() {
  if (!open_.empty()) throw_error(ErrorKind::Internal, "SpecBuilder: unclosed container");
  return std::move(s_);
}

}  // namespace symshape::spec
