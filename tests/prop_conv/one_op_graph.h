#pragma once
// Test helper: builds a small fx-graph-json graph around one call (static weights as
// get_attr nodes with explicit strides, so layouts can be chosen; inputs as placeholders,
// optionally dynamic), loads it with the JSON loader and runs the propagation driver.
// The result's sizes/strides are read back as concrete values (hints).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "expr/printer.h"
#include "graph/json_loader.h"
#include "prop/propagate.h"
#include "prop/rules.h"
#include "shape_env/shape_env.h"

namespace symshape::test {

struct TensorResult {
  std::vector<int64_t> shape, stride;
  DType dtype = DType::Float32;
};

class OneOpGraph {
 public:
  // A static tensor operand with the given sizes and strides (contiguous if empty).
  OneOpGraph& attr(const std::string& name, std::vector<int64_t> shape, std::vector<int64_t> stride = {},
                   const std::string& dtype = "float32") {
    if (stride.empty()) stride = contiguous(shape);
    nodes_ += fmt::format(R"({{"name": "{}", "op": "get_attr", "target": "{}", "meta": {{"shape": {}, "dtype": "{}", "stride": {}}}}},)",
                          name, name, list(shape), dtype, list(stride));
    return *this;
  }
  // A graph input; `dims` entries are either a number (static) or a symbol name.
  OneOpGraph& input(const std::string& name, std::vector<std::string> dims, std::vector<int64_t> example,
                    const std::string& dtype = "float32") {
    nodes_ += fmt::format(R"({{"name": "{}", "op": "placeholder", "target": "{}", "meta": {{"dtype": "{}", "rank": {}}}}},)",
                          name, name, dtype, dims.size());
    std::string d;
    for (size_t i = 0; i < dims.size(); ++i) {
      const bool sym = !dims[i].empty() && !std::isdigit(static_cast<unsigned char>(dims[i][0]));
      d += (i ? ", " : "") + (sym ? "\"" + dims[i] + "\"" : dims[i]);
      if (sym && syms_.find("\"" + dims[i] + "\"") == std::string::npos)
        syms_ += fmt::format(R"({}"{}": {{"min": 2, "max": null, "derived": []}})", syms_.empty() ? "" : ", ", dims[i]);
    }
    spec_ += fmt::format(R"({}"{}": [{}])", spec_.empty() ? "" : ", ", name, d);
    example_.push_back(std::move(example));
    return *this;
  }
  // The call under test: `args` is the JSON text of the positional argument list. A call
  // feeding the one under test gets another `name` (the graph's output is the "out" node).
  OneOpGraph& call(const std::string& target, const std::string& args, const std::string& kwargs = "{}",
                   const std::string& name = "out") {
    nodes_ += fmt::format(R"({{"name": "{}", "op": "call_function", "target": "{}", "args": {}, "kwargs": {}}},)",
                          name, target, args, kwargs);
    return *this;
  }

  // The graph's producer.torch version ("1.13.1", "2.14.1", ...): the eager kernels whose
  // layouts apply (docs/torchref.md, "Eager layouts"); none named means the newest 2.x.
  OneOpGraph& producer_torch(const std::string& version) {
    producer_ = fmt::format(R"("torch": "{}")", version);
    return *this;
  }

  // Loads and propagates; false with `message` set when the op rejected the sizes.
  bool run(std::string* message = nullptr) {
    const std::string json = fmt::format(
        R"({{"format": "fx-graph-json", "version": 1, "name": "t", "producer": {{{}}}, "nodes": [{} {{"name": "output", "op": "output", "target": "output", "args": [{{"node": "out"}}]}}], "dynamic_shapes": {{"dynamic_shapes": {{{}}}, "dims": {{{}}}}}, "examples": []}})",
        producer_, nodes_, spec_, syms_);
    graph_ = Graph(ops_);
    Diagnostics diags;
    JsonGraphLoader loader;
    if (!loader.load_buffer(json, "test", ops_, graph_, diags)) {
      ADD_FAILURE() << "graph did not load: " << json;
      return false;
    }
    rules_.resolve(ops_);
    prop_.emplace(graph_, rules_);
    std::vector<std::span<const int64_t>> spans;
    for (const auto& e : example_) spans.emplace_back(e);
    const PropStatus st = prop_->run(env_, spans);
    if (!st.ok && message) *message = st.message;
    return st.ok;
  }

  // The call's result (a tensor) or item `i` of its list result.
  TensorResult result(std::optional<size_t> item = std::nullopt) {
    const ValueTable& vals = prop_->values();
    ValId v = prop_->node_values()[graph_.find_node("out").index()];
    if (item) v = vals.items(v)[*item];
    EXPECT_EQ(vals.kind(v), ValKind::Tensor);
    const TensorId t = vals.as_tensor(v);
    TensorResult r;
    for (ExprId e : vals.sizes(t)) r.shape.push_back(env_.size_hint(e));
    for (ExprId e : vals.strides(t)) r.stride.push_back(env_.size_hint(e));
    r.dtype = vals.dtype(t);
    return r;
  }
  // Printed size expressions of the result (symbolic form).
  std::vector<std::string> size_exprs() {
    const ValueTable& vals = prop_->values();
    const TensorId t = vals.as_tensor(prop_->node_values()[graph_.find_node("out").index()]);
    std::vector<std::string> out;
    for (ExprId e : vals.sizes(t)) out.push_back(to_str(env_.arena(), env_.simplify(e)));
    return out;
  }
  ShapeEnv& env() { return env_; }
  // The recorded guards in order, simplified and printed (symbols named after the spec's dims).
  std::vector<std::string> guard_strs() {
    std::vector<std::string> out;
    for (const auto& g : env_.guards()) out.push_back(to_str(env_.arena(), env_.simplify(g.expr)));
    return out;
  }

 private:
  static std::vector<int64_t> contiguous(const std::vector<int64_t>& s) {
    std::vector<int64_t> st(s.size());
    int64_t run = 1;
    for (size_t i = s.size(); i-- > 0;) {
      st[i] = run;
      run *= std::max<int64_t>(s[i], 1);
    }
    return st;
  }
  static std::string list(const std::vector<int64_t>& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

  std::string producer_, nodes_, spec_, syms_;
  std::vector<std::vector<int64_t>> example_;
  OpTable ops_;
  RuleTable rules_;
  Graph graph_;
  ShapeEnv env_;
  std::optional<Propagator> prop_;
};

using Shape = std::vector<int64_t>;

}  // namespace symshape::test
