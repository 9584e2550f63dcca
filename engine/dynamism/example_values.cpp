#include "dynamism/example_values.h"

#include <fmt/format.h>

#include "core/error.h"

namespace symshape::dynamism {

size_t ExampleSet::subtree_end(size_t i) const {
  size_t end = i + 1;
  for (uint32_t left = nodes[i].children; left > 0; --left) end = subtree_end(end);
  return end;
}

std::span<const ValueNode> ExampleSet::example_nodes(size_t e) const {
  const size_t first = roots[e];
  const size_t last = e + 1 < roots.size() ? roots[e + 1] : nodes.size();
  return {nodes.data() + first, last - first};
}

uint32_t ExampleSet::intern(std::string_view s) {
  auto [it, added] = name_ids_.try_emplace(std::string(s), uint32_t(names.size()));
  if (added) names.emplace_back(s);
  return it->second;
}

ValueNode& ExampleSet::push(ValueKind kind) {
  ValueNode n;
  n.kind = kind;
  if (!open_.empty()) {
    ValueNode& parent = nodes[open_.back()];
    if (parent.kind == ValueKind::List) {
      n.key_kind = KeyKind::Index;
      n.key = parent.children;
    } else {
      if (pending_kind_ == KeyKind::Root) throw Error(ErrorKind::Internal, "ExampleSet: a dict entry without a key");
      n.key_kind = pending_kind_;
      n.key = pending_key_;
    }
    ++parent.children;
  }
  pending_kind_ = KeyKind::Root;
  nodes.push_back(n);
  return nodes.back();
}

void ExampleSet::begin_example(uint64_t source_index) {
  mark_nodes_ = nodes.size();
  mark_sizes_ = sizes.size();
  open_.clear();
  pending_kind_ = KeyKind::Root;
  roots.push_back(uint32_t(nodes.size()));
  source.push_back(source_index);
  begin(ValueKind::Dict);
}

void ExampleSet::end_example() {
  end();
  if (!open_.empty()) throw Error(ErrorKind::Internal, "ExampleSet: unclosed container");
}

void ExampleSet::abandon_example() {
  nodes.resize(mark_nodes_);
  sizes.resize(mark_sizes_);
  roots.pop_back();
  source.pop_back();
  open_.clear();
  pending_kind_ = KeyKind::Root;
}

void ExampleSet::begin(ValueKind container) {
  push(container);
  open_.push_back(nodes.size() - 1);
}

void ExampleSet::end() { open_.pop_back(); }

void ExampleSet::tensor(std::span<const int64_t> sz) {
  ValueNode& n = push(ValueKind::Tensor);
  n.payload = int64_t(sizes.size());
  n.rank = uint32_t(sz.size());
  sizes.insert(sizes.end(), sz.begin(), sz.end());
}

void ExampleSet::integer(int64_t v) { push(ValueKind::Int).payload = v; }
void ExampleSet::boolean(bool v) { push(ValueKind::Bool).payload = v ? 1 : 0; }
void ExampleSet::floating(double v) { push(ValueKind::Float).number = v; }
void ExampleSet::string(std::string_view s) {
  const uint32_t id = intern(s);
  push(ValueKind::Str).payload = id;
}
void ExampleSet::none() { push(ValueKind::None); }

std::string py_repr(std::string_view s) {
  // Python prefers single quotes; it switches to double quotes when the text holds a single
  // quote and no double quote.
  const bool has_single = s.find('\'') != std::string_view::npos;
  const bool has_double = s.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == quote) out += fmt::format("\\{}", char(c));
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
    else out += char(c);
  }
  out += quote;
  return out;
}

}  // namespace symshape::dynamism
