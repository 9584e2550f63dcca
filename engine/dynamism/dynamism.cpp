#include "dynamism/dynamism.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "dynamism/module_dict.h"
#include "dynamism/py_json.h"

namespace symshape::dynamism {

bool same_value(const Scalar& a, const Scalar& b) {
  if (!a.is_float && !b.is_float) return a.i == b.i;
  if (a.is_float && b.is_float) return a.f == b.f;
  const Scalar& fl = a.is_float ? a : b;
  const Scalar& in = a.is_float ? b : a;
  // Python compares an int and a float exactly: only an integral float within int64 can match.
  if (!(std::trunc(fl.f) == fl.f) || !(fl.f >= -9223372036854775808.0) || !(fl.f < 9223372036854775808.0)) return false;
  return int64_t(fl.f) == in.i;
}

int64_t DynamismTable::position(uint32_t path, uint32_t index) const {
  auto it = pos_ids_.find((uint64_t(path) << 32) | index);
  return it == pos_ids_.end() ? -1 : int64_t(it->second);
}

int64_t DynamismTable::find_path(std::string_view name) const {
  auto it = path_ids_.find(std::string(name));
  return it == path_ids_.end() ? -1 : int64_t(it->second);
}

std::vector<bool> DynamismTable::varies(uint32_t path) const {
  std::vector<bool> out(path_rank[path], false);
  for (uint32_t i = 0; i < path_rank[path]; ++i) out[i] = pos_varies[size_t(position(path, i))] != 0;
  return out;
}

uint32_t DynamismTable::path_id(const std::string& name, std::string_view arg, bool tensor) {
  auto [it, added] = path_ids_.try_emplace(name, uint32_t(path_name.size()));
  if (!added) return it->second;  // a tensor in one example and a number in another: no error (G.2)
  uint32_t a = 0;
  while (a < arg_name.size() && arg_name[a] != arg) ++a;
  if (a == arg_name.size()) arg_name.emplace_back(arg);
  path_name.push_back(name);
  path_arg.push_back(a);
  path_tensor.push_back(tensor ? 1 : 0);
  path_rank.push_back(0);
  return it->second;
}

void DynamismTable::observe(uint32_t path, uint32_t index, uint32_t example, const Scalar& v) {
  auto [it, added] = pos_ids_.try_emplace((uint64_t(path) << 32) | index, uint32_t(pos_path.size()));
  const uint32_t row = it->second;
  if (added) {
    pos_path.push_back(path);
    pos_index.push_back(index);
    pos_first.push_back(v);
    pos_varies.push_back(0);
    if (index >= path_rank[path]) path_rank[path] = index + 1;
  } else if (!pos_varies[row] && !same_value(pos_first[row], v)) {
    pos_varies[row] = 1;
  }
  obs_pos.push_back(row);
  obs_example.push_back(example);
  obs_value.push_back(v);
}

namespace {

void append_key(std::string& path, const ExampleSet& set, const ValueNode& n) {
  switch (n.key_kind) {
    case KeyKind::Name: path += '[' + py_repr(set.name(n.key)) + ']'; break;
    case KeyKind::Int:
    case KeyKind::Index: fmt::format_to(std::back_inserter(path), "[{}]", n.key); break;
    case KeyKind::Attr: path += '.' + std::string(set.name(n.key)); break;
    case KeyKind::Root: break;
  }
}

// Key paths as a table of prefixes: (parent prefix, key) -> prefix. Walking an example is
// one integer-keyed lookup per node; a path's text is built once, when first seen.
class Prefixes {
 public:
  Prefixes() : text_{"L"}, path_(1, -1) {}

  uint32_t child(uint32_t parent, const ExampleSet& set, const ValueNode& n) {
    // Int and Index keys both print as [k]: one path, as the printed result has one entry.
    const uint8_t kind = n.key_kind == KeyKind::Index ? uint8_t(KeyKind::Int) : uint8_t(n.key_kind);
    const Key k{parent, kind, n.key};
    auto [it, added] = ids_.try_emplace(k, uint32_t(text_.size()));
    if (added) {
      std::string t = text_[parent];
      append_key(t, set, n);
      text_.push_back(std::move(t));
      path_.push_back(-1);
    }
    return it->second;
  }
  // The tracked path of prefix `id` (created on first use).
  uint32_t path(uint32_t id, std::string_view arg, bool tensor, DynamismTable& t) {
    if (path_[id] < 0) path_[id] = int64_t(t.path_id(text_[id], arg, tensor));
    return uint32_t(path_[id]);
  }

 private:
  struct Key {
    uint32_t parent;
    uint8_t kind;
    int64_t key;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      uint64_t h = (uint64_t(k.parent) << 8 | k.kind) * 0x9E3779B97F4A7C15ull;
      return size_t(h ^ (uint64_t(k.key) + 0x7F4A7C15ull + (h << 6) + (h >> 2)));
    }
  };
  std::vector<std::string> text_;
  std::vector<int64_t> path_;
  std::unordered_map<Key, uint32_t, KeyHash> ids_;
};

struct Open {
  uint32_t left;    // children still to visit
  uint32_t prefix;  // the container's own prefix
};

// Walks example `e` in pre-order with the prefix of the current node (`stack`: reused).
void track_example(const ExampleSet& set, uint32_t e, Prefixes& prefixes, std::vector<Open>& stack, DynamismTable& t) {
  const size_t root = set.roots[e];
  stack.clear();
  std::string_view arg;
  stack.push_back({set.nodes[root].children, 0});
  size_t i = root + 1;
  while (!stack.empty()) {
    if (stack.back().left == 0) {
      stack.pop_back();
      continue;
    }
    --stack.back().left;
    const ValueNode& n = set.nodes[i++];
    if (stack.size() == 1) arg = set.name(n.key);  // top-level keys are names
    const uint32_t prefix = prefixes.child(stack.back().prefix, set, n);
    switch (n.kind) {
      case ValueKind::Dict:
      case ValueKind::List:
      case ValueKind::Object: stack.push_back({n.children, prefix}); break;
      case ValueKind::Module: i = set.subtree_end(i - 1); break;  // an opaque leaf
      case ValueKind::Tensor: {
        const uint32_t p = prefixes.path(prefix, arg, true, t);
        const auto sz = set.tensor_sizes(n);
        for (uint32_t d = 0; d < sz.size(); ++d) t.observe(p, d, e, Scalar{sz[d], 0.0, false});
        break;
      }
      case ValueKind::Int:
      case ValueKind::Bool: t.observe(prefixes.path(prefix, arg, false, t), 0, e, Scalar{n.payload, 0.0, false}); break;
      case ValueKind::Float: t.observe(prefixes.path(prefix, arg, false, t), 0, e, Scalar{0, n.number, true}); break;
      case ValueKind::Str:
      case ValueKind::None: break;
    }
  }
}

}  // namespace

DynamismTable track_dynamism(const ExampleSet& set) {
  DynamismTable t;
  t.num_examples = uint32_t(set.num_examples());
  bool has_self_module = false;
  for (const ValueNode& n : set.nodes) has_self_module |= n.kind == ValueKind::Module;
  if (has_self_module) {
    ExampleSet converted = set;
    replace_self_modules(converted);
    Prefixes prefixes;
    std::vector<Open> stack;
    for (uint32_t e = 0; e < converted.num_examples(); ++e) track_example(converted, e, prefixes, stack, t);
  } else {
    Prefixes prefixes;
    std::vector<Open> stack;
    for (uint32_t e = 0; e < set.num_examples(); ++e) track_example(set, e, prefixes, stack, t);
  }
  return t;
}

nlohmann::ordered_json dynamism_object(const DynamismTable& t) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const std::string& a : t.arg_name) out[a] = nlohmann::ordered_json::object();
  for (uint32_t p = 0; p < t.num_paths(); ++p) {
    nlohmann::ordered_json flags = nlohmann::ordered_json::array();
    for (bool v : t.varies(p)) flags.push_back(v);
    out[t.arg_name[t.path_arg[p]]][t.path_name[p]] = std::move(flags);
  }
  return out;
}

std::string dynamism_json(const DynamismTable& t) { return py_dumps(dynamism_object(t)); }

std::string normalize_source_name(std::string_view name) {
  auto ident_start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  auto ident_char = [&](char c) { return ident_start(c) || (c >= '0' && c <= '9'); };
  std::string out;
  out.reserve(name.size() + 8);
  size_t i = 0;
  while (i < name.size()) {
    if (name[i] == '.' && i + 1 < name.size() && ident_start(name[i + 1])) {
      size_t j = i + 1;
      while (j < name.size() && ident_char(name[j])) ++j;
      out += "['";
      out.append(name.substr(i + 1, j - i - 1));
      out += "']";
      i = j;
    } else {
      out += name[i++];
    }
  }
  return out;
}

}  // namespace symshape::dynamism
