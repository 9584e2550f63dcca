#pragma once
// Builds a small fx-graph-json graph in a test, propagates it with the real driver and
// reads back the values: shapes/strides as hints (ints) or printed expressions.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "expr/printer.h"
#include "graph/json_loader.h"
#include "prop/propagate.h"
#include "prop/rules.h"
#include "shape_env/shape_env.h"

namespace symshape::test {

using Ints = std::vector<int64_t>;
using Strs = std::vector<std::string>;

class PropHarness {
 public:
  // A placeholder; `dims[i]` non-empty makes dim i a spec symbol of that name (min 2).
  PropHarness& input(const std::string& name, const std::string& dtype, Ints sizes, Strs dims = {}) {
    nodes_.push_back(R"({"name": ")" + name + R"(", "op": "placeholder", "target": ")" + name +
                     R"(", "meta": {"dtype": ")" + dtype + R"(", "rank": )" + std::to_string(sizes.size()) + "}}");
    std::string spec;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const bool sym = i < dims.size() && !dims[i].empty();
      spec += (i ? ", " : "") + (sym ? "\"" + dims[i] + "\"" : std::to_string(sizes[i]));
      if (sym && std::find(sym_names_.begin(), sym_names_.end(), dims[i]) == sym_names_.end())
        sym_names_.push_back(dims[i]);
    }
    specs_.push_back("\"" + name + "\": [" + spec + "]");
    sizes_.push_back(std::move(sizes));
    input_names_.push_back(name);
    return *this;
  }
  // A static weight with explicit strides (the way to get a non-contiguous operand).
  PropHarness& attr(const std::string& name, const std::string& dtype, Ints shape, Ints stride) {
    nodes_.push_back(R"({"name": ")" + name + R"(", "op": "get_attr", "target": ")" + name +
                     R"(", "meta": {"shape": )" + list(shape) + R"(, "dtype": ")" + dtype +
                     R"(", "stride": )" + list(stride) + "}}");
    return *this;
  }
  // A static integer table with exact contents (get_attr "data", row-major).
  PropHarness& attr_data(const std::string& name, const std::string& dtype, Ints shape, Ints stride, Ints data) {
    nodes_.push_back(R"({"name": ")" + name + R"(", "op": "get_attr", "target": ")" + name +
                     R"(", "meta": {"shape": )" + list(shape) + R"(, "dtype": ")" + dtype +
                     R"(", "stride": )" + list(stride) + R"(, "data": )" + list(data) + "}}");
    return *this;
  }
  PropHarness& call(const std::string& name, const std::string& target, const std::string& args,
                    const std::string& kwargs = "{}") {
    nodes_.push_back(R"({"name": ")" + name + R"(", "op": "call_function", "target": ")" + target +
                     R"(", "args": )" + args + R"(, "kwargs": )" + kwargs + "}");
    last_ = name;
    return *this;
  }

  // The graph's producer.torch version ("2.13.0", ...): the eager kernels whose layouts apply
  // (docs/torchref.md, "Eager layouts"); none named means the newest release symshape knows.
  PropHarness& producer_torch(const std::string& version) {
    producer_ = R"("torch": ")" + version + "\"";
    return *this;
  }

  // Report FakeTensorMode's strides where they differ from the eager kernels'
  // (ReferenceHost::fake_strides, as the differential harness asks).
  PropHarness& fake_strides() {
    fake_strides_ = true;
    return *this;
  }

  // Loads and propagates; returns whether propagation succeeded (error() otherwise).
  bool run() {
    std::string json = R"({"format": "fx-graph-json", "version": 1, "name": "t", "producer": {)" + producer_ +
                       R"(}, "nodes": [)";
    for (const auto& n : nodes_) json += n + ",\n";
    json += R"({"name": "output", "op": "output", "target": "output", "args": [{"node": ")" + last_ + R"("}]}],)";
    json += R"("dynamic_shapes": {"dynamic_shapes": {)";
    for (size_t i = 0; i < specs_.size(); ++i) json += (i ? ", " : "") + specs_[i];
    json += R"(}, "dims": {)";
    for (size_t i = 0; i < sym_names_.size(); ++i)
      json += (i ? ", " : "") + ("\"" + sym_names_[i] + R"(": {"min": 2, "max": null, "derived": []})");
    json += R"(}}, "examples": []})";
    Diagnostics diags;
    JsonGraphLoader loader;
    if (!loader.load_buffer(json, "test.graph.json", ops_, graph_, diags)) {
      ADD_FAILURE() << "graph did not load:\n" << json;
      return false;
    }
    rules_.resolve(ops_);
    prop_ = std::make_unique<Propagator>(graph_, rules_);
    if (fake_strides_) {
      ReferenceHost host = kFakeTensorModeHost;
      host.fake_strides = true;
      prop_->set_reference_host(host);
    }
    std::vector<std::span<const int64_t>> spans;
    for (const auto& s : sizes_) spans.emplace_back(s);
    status_ = prop_->run(env_, spans);
    return status_.ok;
  }

  const std::string& error() const { return status_.message; }
  ShapeEnv& env() { return env_; }

  // A tensor value: the node's own, or item `i` of a list value.
  TensorId tensor(const std::string& node, int item = -1) const {
    const ValueTable& v = prop_->values();
    ValId val = prop_->node_values()[graph_.find_node(node).index()];
    if (item >= 0) val = v.items(val)[item];
    EXPECT_EQ(v.kind(val), ValKind::Tensor) << node;
    return v.as_tensor(val);
  }
  Ints shape(const std::string& node, int item = -1) { return hints(prop_->values().sizes(tensor(node, item))); }
  Ints stride(const std::string& node, int item = -1) { return hints(prop_->values().strides(tensor(node, item))); }
  Strs shape_str(const std::string& node, int item = -1) { return strs(prop_->values().sizes(tensor(node, item))); }
  Strs stride_str(const std::string& node, int item = -1) { return strs(prop_->values().strides(tensor(node, item))); }
  std::span<const ExprId> shape_exprs(const std::string& node, int item = -1) {
    return prop_->values().sizes(tensor(node, item));
  }
  std::span<const ExprId> stride_exprs(const std::string& node, int item = -1) {
    return prop_->values().strides(tensor(node, item));
  }
  DType dtype(const std::string& node, int item = -1) { return prop_->values().dtype(tensor(node, item)); }
  std::string offset_str(const std::string& node, int item = -1) {
    return to_str(env_.arena(), env_.simplify(prop_->values().tensor(tensor(node, item)).storage_offset));
  }
  size_t list_size(const std::string& node) const {
    return prop_->values().items(prop_->node_values()[graph_.find_node(node).index()]).size();
  }
  // Whether two nodes hold the very same fake tensor (in-place / aliasing results).
  bool same_tensor(const std::string& a, const std::string& b) const { return tensor(a) == tensor(b); }
  bool same_storage(const std::string& a, const std::string& b) const {
    return prop_->values().tensor(tensor(a)).storage == prop_->values().tensor(tensor(b)).storage;
  }

 private:
  static std::string list(const Ints& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  }
  Ints hints(std::span<const ExprId> es) {
    Ints out;
    for (ExprId e : es) out.push_back(env_.size_hint(e));
    return out;
  }
  Strs strs(std::span<const ExprId> es) {
    Strs out;
    for (ExprId e : es) out.push_back(to_str(env_.arena(), env_.simplify(e)));
    return out;
  }

  std::vector<std::string> nodes_, specs_, sym_names_, input_names_;
  std::vector<Ints> sizes_;
  std::string last_, producer_;
  OpTable ops_;
  Graph graph_{ops_};
  RuleTable rules_;
  ShapeEnv env_;
  std::unique_ptr<Propagator> prop_;
  bool fake_strides_ = false;
  PropStatus status_;
};

// "x" as a node-reference ARG.
inline std::string N(const std::string& name) { return R"({"node": ")" + name + R"("})"; }

}  // namespace symshape::test
