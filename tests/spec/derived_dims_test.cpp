// Derived dims (torch.export's `dx + 1`, `2*dx`, `2*dx + 2`, `dx - 1`) applied to a graph and
// propagated: the input size is `mul*root + add` over the root's symbol, the relation is
// checked against the example (produce_guards' derived equality), the ranges follow, a root
// no input uses directly is a phantom symbol, and the guards print as PyTorch's.
// Goldens: PyTorch 1.13 eager at concrete sizes (the snippet above each table).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "expr/evaluate.h"
#include "expr/printer.h"
#include "graph/json_loader.h"
#include "prop/propagate.h"
#include "prop/rules.h"
#include "shape_env/shape_env.h"
#include "spec/apply_spec.h"
#include "spec/graph_spec.h"
#include "spec/spec_check.h"
#include "spec/spec_json.h"
#include "test_util.h"

using namespace symshape;
using namespace symshape::spec;

namespace {

std::string placeholder(const std::string& name, int rank) {
  return R"({"name": ")" + name + R"(", "op": "placeholder", "target": ")" + name +
         R"(", "meta": {"dtype": "float32", "rank": )" + std::to_string(rank) + "}},";
}
std::string graph_json(const std::string& nodes, const std::string& out) {
  return R"({"format": "fx-graph-json", "version": 1, "name": "derived", "producer": {}, "nodes": [)" + nodes +
         R"({"name": "output", "op": "output", "target": "output", "args": [{"node": ")" + out +
         R"("}]}], "dynamic_shapes": {"dynamic_shapes": {}, "dims": {}}, "examples": []})";
}

// torch.cat([x + y[1:], y], 0): y must be one longer than x.
const std::string kCatGraph = graph_json(
    placeholder("x", 2) + placeholder("y", 2) +
        R"({"name": "sl", "op": "call_function", "target": "aten.slice.Tensor", "args": [{"node": "y"}, 0, 1, 9223372036854775807], "kwargs": {}},)"
        R"({"name": "a", "op": "call_function", "target": "aten.add.Tensor", "args": [{"node": "x"}, {"node": "sl"}], "kwargs": {}},)"
        R"({"name": "c", "op": "call_function", "target": "aten.cat.default", "args": [[{"node": "a"}, {"node": "y"}], 0], "kwargs": {}},)",
    "c");
// The same with y placed before x (a derived dim met before its root's input).
const std::string kCatGraphRootLast = graph_json(
    placeholder("y", 2) + placeholder("x", 2) +
        R"({"name": "sl", "op": "call_function", "target": "aten.slice.Tensor", "args": [{"node": "y"}, 0, 1, 9223372036854775807], "kwargs": {}},)"
        R"({"name": "a", "op": "call_function", "target": "aten.add.Tensor", "args": [{"node": "x"}, {"node": "sl"}], "kwargs": {}},)"
        R"({"name": "c", "op": "call_function", "target": "aten.cat.default", "args": [[{"node": "a"}, {"node": "y"}], 0], "kwargs": {}},)",
    "c");
// z.view(-1, 2): z's length must be even.
const std::string kViewGraph = graph_json(
    placeholder("z", 1) +
        R"({"name": "v", "op": "call_function", "target": "aten.view.default", "args": [{"node": "z"}, [-1, 2]], "kwargs": {}},)",
    "v");
// z.view(-1, 2) + x.unsqueeze(1): z = 2*x.
const std::string kViewAddGraph = graph_json(
    placeholder("x", 1) + placeholder("z", 1) +
        R"({"name": "v", "op": "call_function", "target": "aten.view.default", "args": [{"node": "z"}, [-1, 2]], "kwargs": {}},)"
        R"({"name": "u", "op": "call_function", "target": "aten.unsqueeze.default", "args": [{"node": "x"}, 1], "kwargs": {}},)"
        R"({"name": "a", "op": "call_function", "target": "aten.add.Tensor", "args": [{"node": "v"}, {"node": "u"}], "kwargs": {}},)",
    "a");

struct PropResult {
  bool ok = false;
  std::string message;
  std::vector<std::string> out;     // output sizes, printed
  std::vector<int64_t> out_values;  // ... evaluated at the run's hints
  std::vector<std::string> guards;  // produce_guards text
  std::vector<std::string> input_sizes;  // every input size, printed
  std::optional<ValueRange> root_range;  // range of the symbol named `root`, if any
};

struct Model {
  OpTable ops;
  Graph graph;
  RuleTable rules;
  Model(const std::string& json, const std::string& spec) {
    Diagnostics diags;
    JsonGraphLoader loader;
    EXPECT_TRUE(loader.load_buffer(json, "test", ops, graph, diags));
    rules.resolve(ops);
    apply_spec(graph, load_spec_json(spec));
  }
  PropResult run(std::vector<std::vector<int64_t>> sizes, const std::string& root = "") {
    std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
    ShapeEnv env;
    Propagator prop(graph, rules);
    const PropStatus st = prop.run(env, spans);
    PropResult r;
    r.ok = st.ok;
    r.message = st.message;
    if (!st.ok) return r;
    ExprArena& ar = env.arena();
    Bindings hints;
    for (const TrackedInput& in : prop.tracked_inputs()) {
      std::vector<ExprId> free;
      ar.free_symbols(in.value, free);
      for (ExprId s : free) hints.set(ar.symbol_id(s), *env.hint(s));
    }
    const ValId out = prop.node_values()[graph.num_nodes() - 2];
    for (ExprId e : prop.values().sizes(prop.values().as_tensor(out))) {
      const ExprId s = env.simplify(env.replace(e));
      r.out.push_back(to_str(ar, s));
      r.out_values.push_back(evaluate_int(ar, s, hints));
    }
    for (uint32_t p = 0; p < graph.num_placeholders(); ++p) {
      const ValId v = prop.node_values()[graph.placeholder_node(PlaceholderId(p)).index()];
      for (ExprId e : prop.values().sizes(prop.values().as_tensor(v))) r.input_sizes.push_back(to_str(ar, e));
    }
    r.guards = env.produce_guards(prop.tracked_inputs()).text;
    if (!root.empty())
      if (const ExprId s = ar.find_symbol(root); s.valid()) r.root_range = env.range(s);
    return r;
  }
};

bool has(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

constexpr const char* kPlusOne =
    R"({"dynamic_shapes": {"x": ["dx", 3], "y": ["dx + 1", 3]}, "dims": {"dx": {"min": 2, "max": 64, "derived": ["dx + 1"]}}})";

}  // namespace

// for n in (2, 4, 7, 30): torch.cat([randn(n, 3) + randn(n + 1, 3)[1:], randn(n + 1, 3)], 0).shape
//   -> (5, 3) (9, 3) (15, 3) (61, 3)
TEST(DerivedDims, PlusOneIsRootExpressionAndMatchesPyTorch) {
  Model m(kCatGraph, kPlusOne);
  const std::vector<std::pair<int64_t, int64_t>> golden = {{2, 5}, {4, 9}, {7, 15}, {30, 61}};
  for (auto [n, cat] : golden) {
    PropResult r = m.run({{n, 3}, {n + 1, 3}});
    ASSERT_TRUE(r.ok) << r.message;
    EXPECT_EQ(r.input_sizes, (std::vector<std::string>{"dx", "3", "dx + 1", "3"}));
    EXPECT_EQ(r.out, (std::vector<std::string>{"2*dx + 1", "3"}));
    EXPECT_EQ(r.out_values, (std::vector<int64_t>{cat, 3}));
  }
}

// The guard text export's produce_guards gives for the derived source (its derived equality
// made `s1 -> s0 + 1`): `L['y'].size()[0] == 1 + L['x'].size()[0]` (PyTorch's guard printer
// keeps sympy's argument order, number first; DimConstraints' str form says `... + 1`), and
// the root's range.
TEST(DerivedDims, GuardsPrintTheRelationAsPyTorch) {
  Model m(kCatGraph, kPlusOne);
  PropResult r = m.run({{4, 3}, {5, 3}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_TRUE(has(r.guards, "L['y'].size()[0] == 1 + L['x'].size()[0]")) << testing::PrintToString(r.guards);
  EXPECT_TRUE(has(r.guards, "2 <= L['x'].size()[0] and L['x'].size()[0] <= 64")) << testing::PrintToString(r.guards);
  Model twice(kViewAddGraph,
              R"({"dynamic_shapes": {"x": ["dx"], "z": ["2*dx"]}, "dims": {"dx": {"min": 0, "max": null, "derived": ["2*dx"]}}})");
  PropResult t = twice.run({{5}, {10}});
  ASSERT_TRUE(t.ok) << t.message;
  EXPECT_TRUE(has(t.guards, "L['z'].size()[0] == 2*L['x'].size()[0]")) << testing::PrintToString(t.guards);
}

// for n in (3, 5): (randn(2*n).view(-1, 2) + randn(n).unsqueeze(1)).shape -> (3, 2) (5, 2)
TEST(DerivedDims, TimesTwoMatchesPyTorch) {
  Model m(kViewAddGraph,
          R"({"dynamic_shapes": {"x": ["dx"], "z": ["2*dx"]}, "dims": {"dx": {"min": 0, "max": null, "derived": ["2*dx"]}}})");
  for (auto [n, rows] : std::vector<std::pair<int64_t, int64_t>>{{3, 3}, {5, 5}}) {
    PropResult r = m.run({{n}, {2 * n}});
    ASSERT_TRUE(r.ok) << r.message;
    EXPECT_EQ(r.out, (std::vector<std::string>{"dx", "2"}));
    EXPECT_EQ(r.out_values, (std::vector<int64_t>{rows, 2}));
  }
}

// An example that does not fit the relation is refused with produce_guards' message for a
// violated derived equality (PyTorch's eager run of the same sizes fails too: "The size of
// tensor a (4) must match the size of tensor b (5) at non-singleton dimension 0").
TEST(DerivedDims, ExampleViolatingTheRelationIsRejected) {
  Model m(kCatGraph, kPlusOne);
  PropResult r = m.run({{4, 3}, {6, 3}});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.message.find("Expected input L['y'].size()[0] to be equal to dx + 1, where dx = 4, but got 6"),
            std::string::npos)
      << r.message;
  Model twice(kViewAddGraph,
              R"({"dynamic_shapes": {"x": ["dx"], "z": ["2*dx + 2"]}, "dims": {"dx": {"min": 0, "max": null, "derived": ["2*dx + 2"]}}})");
  PropResult t = twice.run({{3}, {9}});
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.message.find("Expected input L['z'].size()[0] to be equal to 2*dx + 2, where dx = 3, but got 9"),
            std::string::npos)
      << t.message;
}

// Ranges: the derived dim's own range is [fn(min), fn(max)] (a size outside it is refused as
// create_symbol refuses it), and the root narrows so fn(root) stays in it ∩ [2, oo]: with
// `dx - 1`, dx >= 3 (export's replacement `s1 -> s0 - 1` refines s0 so).
TEST(DerivedDims, RangesFollowTheRoot) {
  Model m(kCatGraph, kPlusOne);
  PropResult big = m.run({{64, 3}, {66, 3}});
  EXPECT_FALSE(big.ok);
  EXPECT_NE(big.message.find("66 not in range [3, 65]"), std::string::npos) << big.message;
  PropResult root_out = m.run({{65, 3}, {66, 3}});
  EXPECT_FALSE(root_out.ok);
  EXPECT_NE(root_out.message.find("65 not in range [2, 64]"), std::string::npos) << root_out.message;

  const std::string minus_one =
      graph_json(placeholder("x", 1) + placeholder("y", 1) +
                     R"({"name": "sl", "op": "call_function", "target": "aten.slice.Tensor", "args": [{"node": "x"}, 0, 1, 9223372036854775807], "kwargs": {}},)"
                     R"({"name": "a", "op": "call_function", "target": "aten.add.Tensor", "args": [{"node": "sl"}, {"node": "y"}], "kwargs": {}},)",
                 "a");
  Model mm(minus_one,
           R"({"dynamic_shapes": {"x": ["dx"], "y": ["dx - 1"]}, "dims": {"dx": {"min": 1, "max": 20, "derived": ["dx - 1"]}}})");
  // PyTorch 2.13 (torchref_prop at x=6, y=5): Eq(s_y, s_x - 1) replaces the larger-hinted s_x
  // by s_y + 1, so y's own symbol (s17, as PyTorch names it) carries the range [2, 19] and x's
  // [3, 20]: guards `L['x'].size()[0] == 1 + L['y'].size()[0]`, `2 <= L['y'].size()[0] and
  // L['y'].size()[0] <= 19`, output size s17.
  PropResult r = mm.run({{6}, {5}}, "dx");
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.out, (std::vector<std::string>{"s17"}));
  EXPECT_EQ(r.out_values, (std::vector<int64_t>{5}));
  ASSERT_TRUE(r.root_range.has_value());
  EXPECT_EQ(r.root_range->lo.str(), "3");
  EXPECT_EQ(r.root_range->hi.str(), "20");
  EXPECT_TRUE(has(r.guards, "L['x'].size()[0] == 1 + L['y'].size()[0]")) << testing::PrintToString(r.guards);
  EXPECT_TRUE(has(r.guards, "2 <= L['y'].size()[0] and L['y'].size()[0] <= 19")) << testing::PrintToString(r.guards);
}

// A derived dim met before the input that uses its root directly: the root is that input's
// dim all the same (its source prints the guards).
TEST(DerivedDims, RootInALaterInput) {
  Model m(kCatGraphRootLast, kPlusOne);
  PropResult r = m.run({{5, 3}, {4, 3}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.input_sizes, (std::vector<std::string>{"dx + 1", "3", "dx", "3"}));
  EXPECT_EQ(r.out, (std::vector<std::string>{"2*dx + 1", "3"}));
  EXPECT_TRUE(has(r.guards, "L['y'].size()[0] == 1 + L['x'].size()[0]")) << testing::PrintToString(r.guards);
  EXPECT_FALSE(m.run({{7, 3}, {4, 3}}).ok);
}

// for k in (4, 8, 14): randn(k).view(-1, 2).shape -> (2, 2) (4, 2) (7, 2);
// randn(7).view(-1, 2): "shape '[-1, 2]' is invalid for input of size 7".
// `2*r` with r used by no input: export's phantom root, valued by solving 2*r = size, named
// by its Dim (ConstantSource('r')), bound first; an odd size does not fit: int(7/2) = 3.
TEST(DerivedDims, PhantomRootSolvedFromTheDerivedSize) {
  Model m(kViewGraph, R"({"dynamic_shapes": {"z": ["2*r"]}, "dims": {"r": {"min": 1, "max": null, "derived": ["2*r"]}}})");
  for (auto [k, rows] : std::vector<std::pair<int64_t, int64_t>>{{4, 2}, {8, 4}, {14, 7}}) {
    PropResult r = m.run({{k}}, "r");
    ASSERT_TRUE(r.ok) << r.message;
    EXPECT_EQ(r.input_sizes, (std::vector<std::string>{"2*r"}));
    EXPECT_EQ(r.out, (std::vector<std::string>{"r", "2"}));
    EXPECT_EQ(r.out_values, (std::vector<int64_t>{rows, 2}));
    ASSERT_FALSE(r.guards.empty());
    EXPECT_EQ(r.guards[0], "L['z'].size()[0] == 2*r");
    EXPECT_TRUE(has(r.guards, "2 <= r")) << testing::PrintToString(r.guards);
  }
  PropResult odd = m.run({{7}});
  EXPECT_FALSE(odd.ok);
  EXPECT_NE(odd.message.find("Expected input L['z'].size()[0] to be equal to 2*r, where r = 3, but got 7"),
            std::string::npos)
      << odd.message;
}

// Two derived dims over one phantom root: the first one values it, the second must agree.
TEST(DerivedDims, PhantomRootSharedByTwoDerivedDims) {
  const std::string g = graph_json(
      placeholder("a", 1) + placeholder("b", 1) +
          R"({"name": "sa", "op": "call_function", "target": "aten.slice.Tensor", "args": [{"node": "a"}, 0, 0, -1], "kwargs": {}},)"
          R"({"name": "c", "op": "call_function", "target": "aten.cat.default", "args": [[{"node": "sa"}, {"node": "b"}], 0], "kwargs": {}},)",
      "c");
  Model m(g, R"({"dynamic_shapes": {"a": ["r + 1"], "b": ["2*r"]}, "dims": {"r": {"min": 2, "max": null, "derived": ["2*r", "r + 1"]}}})");
  PropResult r = m.run({{5}, {8}});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.out, (std::vector<std::string>{"3*r"}));
  EXPECT_EQ(r.out_values, (std::vector<int64_t>{12}));  // torch.cat([randn(5)[:-1], randn(8)]).shape == (12,)
  PropResult bad = m.run({{5}, {10}});
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.message.find("Expected input L['b'].size()[0] to be equal to 2*r, where r = 4, but got 10"),
            std::string::npos)
      << bad.message;
}

// Nesting is composition on the root (PyTorch's _DerivedDim._derive): (dx + 1)*2 is 2*dx + 2
// over dx. The dict form has no derived-of-derived: a `dims` key must be a root symbol.
TEST(DerivedDims, DerivedOfDerivedComposesOnTheRoot) {
  const RootDim dx = make_dim("dx", 2);
  const DimRef nested = (DimRef{dx, {}} + 1) * 2;
  EXPECT_EQ(nested.root, dx);
  EXPECT_EQ(dim_name(nested), "2*dx + 2");
  SpecBuilder b;
  b.begin_dict().begin_list("z").dim(nested).end().end();
  const DynamicShapes spec = b.build();
  Model m(kViewGraph, R"({"dynamic_shapes": null, "dims": {}})");
  apply_spec(m.graph, spec);
  EXPECT_EQ(dump_spec_json(spec_of_graph(m.graph)),
            R"({"dynamic_shapes": {"z": ["2*dx + 2"]}, "dims": {"dx": {"min": 2, "max": null, "derived": ["2*dx + 2"]}}})");
  PropResult r = m.run({{8}}, "dx");  // randn(8).view(-1, 2).shape == (4, 2): dx = 3
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.out, (std::vector<std::string>{"dx + 1", "2"}));
  EXPECT_EQ(r.out_values, (std::vector<int64_t>{4, 2}));
  expect_spec_error(
      [] {
        load_spec_json(
            R"({"dynamic_shapes": {"x": ["dx"]}, "dims": {"dx": {"min": 2, "max": null, "derived": ["dx + 1"]}, "dx + 1": {"min": 3, "max": null, "derived": ["dx + 2"]}}})");
      },
      PyException::UserErrorInvalidInput, "Expected `spec['dims']` keys to be symbols, got dx + 1");
}

// What PyTorch refuses: a multiplier < 1 (Dim.__mul__'s NotImplementedError, also for a spec
// built from raw values), a derived min below 0 (_DerivedDim.min's assertion).
TEST(DerivedDims, RefusedAsPyTorchRefuses) {
  Model m(kCatGraph, R"({"dynamic_shapes": null, "dims": {}})");
  const RootDim dx = make_dim("dx", 2);
  expect_spec_error([&] { (void)(DimRef{dx, {}} * 0); }, PyException::NotImplementedError,
                    "Attempted to multiply 0 with dx, where a positive integer was expected. (Only increasing linear "
                    "operations with integer coefficients are supported.)");
  SpecBuilder b;
  b.begin_dict().begin_list("x").dim(DimRef{dx, {}}).size(3).end().begin_list("y").dim(DimRef{dx, LinearFn{-1, 9}}).size(3).end().end();
  const DynamicShapes raw = b.build();
  expect_spec_error([&] { apply_spec(m.graph, raw); }, PyException::NotImplementedError,
                    "Attempted to multiply -1 with dx, where a positive integer was expected. (Only increasing linear "
                    "operations with integer coefficients are supported.)");
  // the dict form: `-dx` is rebuilt as dx * -1 (F.6), which Dim.__mul__ refuses
  expect_spec_error(
      [&] {
        load_spec_json(R"({"dynamic_shapes": {"x": ["dx", 3], "y": ["-dx + 9", 3]}, "dims": {"dx": {"min": 2, "max": 8, "derived": ["-dx + 9"]}}})");
      },
      PyException::NotImplementedError,
      "Attempted to multiply -1 with dx, where a positive integer was expected. (Only increasing linear operations "
      "with integer coefficients are supported.)");
  expect_spec_error(
      [&] {
        apply_spec(m.graph, load_spec_json(R"({"dynamic_shapes": {"x": ["dx", 3], "y": ["dx - 1", 3]}, "dims": {"dx": {"min": 0, "max": null, "derived": ["dx - 1"]}}})"));
      },
      PyException::AssertionError,
      "Expected derived min value of dx - 1 to be >= 0. Please specify an appropriate min value for dx (currently 0).");
}

// spec check: a relation the spec declares is no violation (the corrected spec of a related
// pair, `x = dy + 1`, re-checks clean); undeclared, it is phase 1's "must always be related".
TEST(DerivedDims, SpecCheckAcceptsTheDeclaredRelation) {
  auto check = [&](const std::string& graph, const std::string& spec, std::vector<std::vector<int64_t>> sizes) {
    Model m(graph, spec);
    std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
    const DynamicShapes s = load_spec_json(spec);
    SpecCheckResult r = check_spec_at(m.graph, m.rules, &s, spans);
    EXPECT_TRUE(r.checked) << r.error;
    return format_violations(r);
  };
  EXPECT_EQ(check(kCatGraph, kPlusOne, {{4, 3}, {5, 3}}), "");
  EXPECT_EQ(check(kViewGraph, R"({"dynamic_shapes": {"z": ["2*r"]}, "dims": {"r": {"min": 2, "max": null, "derived": ["2*r"]}}})",
                  {{8}}),
            "");
  const std::string undeclared = check(
      kCatGraph,
      R"({"dynamic_shapes": {"x": ["dx", 3], "y": ["dy", 3]}, "dims": {"dx": {"min": 2, "max": 64, "derived": []}, "dy": {"min": 2, "max": null, "derived": []}}})",
      {{4, 3}, {5, 3}});
  EXPECT_NE(undeclared.find("The values of dy = L['y'].size()[0] must always be related to the values of dx = "
                            "L['x'].size()[0] by dy = dx + 1."),
            std::string::npos)
      << undeclared;
  // A derived dim the graph specialises is reported under its derived name.
  const std::string narrow = graph_json(
      placeholder("x", 1) + placeholder("y", 1) +
          R"({"name": "n", "op": "call_function", "target": "aten.view.default", "args": [{"node": "y"}, [5]], "kwargs": {}},)",
      "n");
  const std::string specialised = check(
      narrow, R"({"dynamic_shapes": {"x": ["dx"], "y": ["dx + 1"]}, "dims": {"dx": {"min": 2, "max": null, "derived": ["dx + 1"]}}})",
      {{4}, {5}});
  EXPECT_NE(specialised.find("Constraints violated ("), std::string::npos) << specialised;
  EXPECT_NE(specialised.find("dx"), std::string::npos) << specialised;
}
