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

// Walks example `e` in pre-order with the path of the current node.
void track_example(const ExampleSet& set, uint32_t e, DynamismTable& t) {
  const size_t root = set.roots[e];
  struct Open {
    uint32_t left;      // children still to visit
    size_t path_len;    // length of the parent's path
  };
  std::vector<Open> stack;
  std::string path = "L";
  std::string_view arg;
  stack.push_back({set.nodes[root].children, path.size()});
  size_t i = root + 1;
  while (!stack.empty()) {
    if (stack.back().left == 0) {
      path.resize(stack.back().path_len);
      stack.pop_back();
      continue;
    }
    --stack.back().left;
    const ValueNode& n = set.nodes[i++];
    const size_t parent_len = path.size();
    if (stack.size() == 1) arg = set.name(n.key);  // top-level keys are names
    append_key(path, set, n);
    switch (n.kind) {
      case ValueKind::Dict:
      case ValueKind::List:
      case ValueKind::Object:
        stack.push_back({n.children, parent_len});
        continue;  // the path stays extended for the children
      case ValueKind::Module:
        i = set.subtree_end(i - 1);  // an opaque leaf
        break;
      case ValueKind::Tensor: {
        const uint32_t p = t.path_id(path, arg, true);
        const auto sz = set.tensor_sizes(n);
        for (uint32_t d = 0; d < sz.size(); ++d) t.observe(p, d, e, Scalar{sz[d], 0.0, false});
        break;
      }
      case ValueKind::Int:
      case ValueKind::Bool: t.observe(t.path_id(path, arg, false), 0, e, Scalar{n.payload, 0.0, false}); break;
      case ValueKind::Float: t.observe(t.path_id(path, arg, false), 0, e, Scalar{0, n.number, true}); break;
      case ValueKind::Str:
      case ValueKind::None: break;
    }
    path.resize(parent_len);
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
    for (uint32_t e = 0; e < converted.num_examples(); ++e) track_example(converted, e, t);
  } else {
    for (uint32_t e = 0; e < set.num_examples(); ++e) track_example(set, e, t);
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
