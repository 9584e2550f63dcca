#pragma once
// Internal to the fx-graph-json loader: the state of one load (target columns, limits,
// the JSON path being read) and checked readers for DOM elements. Every reader either
// returns a well-typed value or calls fail(), which throws LoadAbort carrying a
// Diagnostic located at the current path. Exceptions only travel on the error path and
// never leave JsonGraphLoader.
#include <simdjson.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "graph/diagnostic.h"
#include "graph/graph_store.h"
#include "graph/limits.h"
#include "graph/op_table.h"

namespace symshape::json_detail {

namespace dom = simdjson::dom;

// Quotes user text for a message, capped at 64 bytes.
std::string quoted(std::string_view s);
// Shortest round-trip text of a double, always with '.', an exponent, or inf/nan.
std::string float_text(double v);

struct LoadAbort {
  Diagnostic diag;
};

// One step of the JSON path: `.key` or `[index]`.
struct PathSeg {
  std::string_view key;
  int64_t index = -1;
};

class JsonContext {
 public:
  JsonContext(GraphStore& s, OpTable& ops, const GraphLimits& lim, std::string_view file,
              std::vector<ArgId>& arg_scratch, std::vector<ValueId>& value_scratch)
      : s(s), ops(ops), lim(lim), file(file), arg_scratch(arg_scratch), value_scratch(value_scratch) {}

  // --- the whole document, in dependency order (json_loader.cpp, json_spec.cpp, json_examples.cpp)
  void load_root(dom::element root);
  void prescan_names(dom::array nodes);
  void load_node(dom::element e, uint32_t index);
  void load_placeholder_meta(dom::element meta, NodeId n);
  void load_get_attr_meta(dom::element meta, NodeId n);
  void load_spec(dom::element spec);
  [[noreturn]] void undefined_spec_name(std::string_view name, const std::vector<SymId>& sym_of_str);
  void load_examples(dom::element examples);
  void load_example(dom::element e, uint32_t index);
  ArgId load_arg(dom::element e, uint32_t list_depth);        // json_args.cpp
  Span32 load_arg_items(dom::element e, uint32_t list_depth);  // an ARG array -> arg_refs
  ValueId load_value(dom::element e, uint32_t list_depth);     // json_values.cpp

  // --- path tracking; PathScope pops on destruction
  class PathScope {
   public:
    PathScope(JsonContext& c, std::string_view key) : c_(c) { c_.push({key, -1}); }
    PathScope(JsonContext& c, int64_t index) : c_(c) { c_.push({{}, index}); }
    ~PathScope() { --c_.depth_; }
    PathScope(const PathScope&) = delete;
    PathScope& operator=(const PathScope&) = delete;
   private:
    JsonContext& c_;
  };
  void enter_node(uint32_t index, std::string_view name) { node_ = index; node_name_ = name; base_ = depth_; }
  void leave_node() { node_ = -1; node_name_ = {}; base_ = 0; }

  [[noreturn]] void fail(GraphErrc code, std::string message);

  // --- checked readers
  static const char* type_name(dom::element e);
  int64_t read_int(dom::element e);
  bool read_bool(dom::element e);
  std::string_view read_string(dom::element e);
  std::string_view read_name(dom::element e);  // string, 1..max_name_bytes long
  dom::array read_array(dom::element e);
  dom::object read_object(dom::element e);
  DType read_dtype(dom::element e);
  // Reads a JSON array of ints (a shape/stride/size list) onto the end of `out`.
  uint32_t read_int_list(dom::element e, std::vector<int64_t>& out, uint32_t max_len, const char* what);

  // Splits an object into its known fields, rejecting unknown and duplicate keys.
  template <size_t N>
  struct Fields {
    std::array<dom::element, N> value{};
    std::array<bool, N> has{};
  };
  template <size_t N>
  Fields<N> read_fields(dom::element e, const std::array<std::string_view, N>& names);
  template <size_t N>
  void require(const Fields<N>& f, const std::array<std::string_view, N>& names, size_t i) {
    if (!f.has[i]) fail(GraphErrc::MissingField, "missing field '" + std::string(names[i]) + "'");
  }

  // Local caches from pool strings to shared ids: one OpTable lock per distinct name.
  OpId op_for(StrId target);
  KeyId key_for(StrId key);
  NodeId resolve_node(std::string_view name);  // fails with DanglingRef
  // resolve_node with a guess checked first: files mostly refer to the previous node and
  // list goldens in node order, so one compare usually replaces a hash lookup.
  NodeId resolve_node(std::string_view name, uint32_t guess) {
    if (guess < s.node_name.size() && s.strings.get(s.node_name[guess]) == name) return NodeId(guess);
    return resolve_node(name);
  }
  int64_t current_node() const { return node_; }

  GraphStore& s;
  OpTable& ops;
  const GraphLimits& lim;
  std::string_view file;
  std::string_view graph_name;
  std::vector<ArgId>& arg_scratch;
  std::vector<ValueId>& value_scratch;
  std::vector<OpId> op_cache;
  std::vector<KeyId> key_cache;

 private:
  void push(PathSeg seg);
  std::string format_path() const;

  static constexpr uint32_t kMaxPath = 256;  // > max_json_depth, checked in push()
  std::array<PathSeg, kMaxPath> path_{};
  uint32_t depth_ = 0;
  uint32_t base_ = 0;  // path segments before this index are "nodes[i]" of the current node
  int64_t node_ = -1;
  std::string_view node_name_;
};

template <size_t N>
JsonContext::Fields<N> JsonContext::read_fields(dom::element e, const std::array<std::string_view, N>& names) {
  dom::object obj = read_object(e);
  Fields<N> f;
  for (dom::key_value_pair kv : obj) {
    size_t i = 0;
    while (i < N && names[i] != kv.key) ++i;
    if (i == N) {
      std::string expected;
      for (size_t j = 0; j < N; ++j) expected += (j ? ", " : "") + std::string(names[j]);
      fail(GraphErrc::UnknownField, "unknown field '" + std::string(kv.key.substr(0, 64)) + "' (expected " + expected + ")");
    }
    if (f.has[i]) fail(GraphErrc::DuplicateKey, "duplicate key '" + std::string(kv.key) + "'");
    f.has[i] = true;
    f.value[i] = kv.value;
  }
  return f;
}

}  // namespace symshape::json_detail
