// Behaviours 168-187: DynamicShapesSpec dictionary form, dump and every loader error.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "spec/spec_json.h"
#include "test_util.h"

using namespace symshape::spec;

namespace {
DimRef D(std::string_view name, std::optional<int64_t> min = {}, std::optional<int64_t> max = {}) {
  return DimRef{make_dim(name, min, max), {}};
}
void expect_load_error(std::string_view json, const std::string& msg, LoadOptions opt = {}) {
  expect_spec_error([&] { load_spec_json(json, opt); }, PyException::UserErrorInvalidInput, msg);
}
}  // namespace

TEST(SpecF, B168_DumpNone) {
  EXPECT_EQ(dump_spec_json(DynamicShapes{}), R"({"dynamic_shapes": null, "dims": {}})");
}

TEST(SpecF, B169_DumpDerivedAndHints) {
  DimRef dx = D("dx", 4, 16), dy = dx + 1;
  SpecBuilder b;
  b.begin_list()
      .begin_list().begin_list().dim(dx).size(4).end().begin_list().dim(dy).size(4).end().end()
      .begin_list().hint(HintKind::Static).end()
      .begin_list().hint(HintKind::Static).hint(HintKind::Static).end()
      .none()
      .end();
  EXPECT_EQ(dump_spec_json(b.build()),
            R"({"dynamic_shapes": [[["dx", 4], ["dx + 1", 4]], ["_DimHint.STATIC"], ["_DimHint.STATIC", "_DimHint.STATIC"], null], )"
            R"("dims": {"dx": {"min": 4, "max": 16, "derived": ["dx + 1"]}}})");
}

TEST(SpecF, B172_HintBoundsDropped) {
  SpecBuilder b;
  b.begin_list().hint(call_hint(make_hint(HintKind::Dynamic), 2).kind).hint(HintKind::Auto).end();
  EXPECT_EQ(dump_spec_json(b.build()), R"({"dynamic_shapes": ["_DimHint.DYNAMIC", "_DimHint.AUTO"], "dims": {}})");
}

TEST(SpecF, B173_UnboundedMaxIsNull) {
  SpecBuilder b;
  b.begin_list().dim(D("dx")).end();
  EXPECT_EQ(dump_spec_json(b.build()), R"({"dynamic_shapes": ["dx"], "dims": {"dx": {"min": 0, "max": null, "derived": []}}})");
}

TEST(SpecF, B174_RootRecordedDerivedSorted) {
  DimRef dx = D("dx", 2, 10);
  SpecBuilder b;
  b.begin_list().dim(dx + 1).dim(dx * 2).end();
  EXPECT_EQ(dump_spec_json(b.build()),
            R"({"dynamic_shapes": ["dx + 1", "2*dx"], "dims": {"dx": {"min": 2, "max": 10, "derived": ["2*dx", "dx + 1"]}}})");
}

TEST(SpecF, B175_RootsSorted) {
  SpecBuilder b;
  b.begin_list().dim(D("dz")).dim(D("da")).end();
  EXPECT_EQ(dump_spec_json(b.build()),
            R"({"dynamic_shapes": ["dz", "da"], "dims": {"da": {"min": 0, "max": null, "derived": []}, )"
            R"("dz": {"min": 0, "max": null, "derived": []}}})");
}

TEST(SpecF, B176_LoadKeepsListContainer) {
  DynamicShapes s = load_spec_json(R"({"dynamic_shapes": [["dx", 4]], "dims": {"dx": {"min": 4, "max": 16, "derived": []}}})");
  ASSERT_TRUE(s.present);
  ASSERT_EQ(s.nodes.size(), 4u);
  EXPECT_EQ(s.nodes[0].kind, NodeKind::List);
  EXPECT_EQ(s.nodes[1].kind, NodeKind::List);
  ASSERT_EQ(s.nodes[2].kind, NodeKind::Dim);
  EXPECT_EQ(repr(s.dim(s.nodes[2]).root), "Dim('dx', min=4, max=16)");
  EXPECT_EQ(s.nodes[3].kind, NodeKind::Int);
  EXPECT_EQ(s.nodes[3].value, 4);
}

TEST(SpecF, B177_LoadDerived) {
  DynamicShapes s = load_spec_json(R"({"dynamic_shapes": ["2*dx + 1"], "dims": {"dx": {"min": 4, "max": 16, "derived": ["2*dx + 1"]}}})");
  DimRef d = s.dim(s.nodes[1]);
  EXPECT_EQ(d.root.name, "dx");
  EXPECT_EQ(d.fn.mul, 2);
  EXPECT_EQ(d.fn.add, 1);
}

TEST(SpecF, B178_DimsEntryMissingMax) {
  expect_load_error(R"({"dynamic_shapes": ["dx"], "dims": {"dx": {"min": 4, "derived": []}}})",
                    "Expected `spec['dims']` values to have keys `derived`, `max`, and `min`, instead found "
                    "dict_keys(['min', 'derived'])");
}

TEST(SpecF, B179_NullMaxQuirk) {
  const char* j = R"({"dynamic_shapes": ["dx"], "dims": {"dx": {"min": 4, "max": null, "derived": []}}})";
  expect_load_error(j, "Expected dims in `spec['dims']` to map `max` to an int or None, got dx: None",
                    LoadOptions{.reject_null_max = true});
  // Default (corpus form): null is an unbounded max.
  DynamicShapes s = load_spec_json(j);
  EXPECT_FALSE(s.roots[0].has_max);
}

TEST(SpecF, B180_MinNotInt) {
  expect_load_error(R"({"dynamic_shapes": ["dx"], "dims": {"dx": {"min": "4", "max": 8, "derived": []}}})",
                    "Expected dims in `spec['dims']` to map `min` to an int, got dx: 4");
}

TEST(SpecF, B181_DerivedNotList) {
  expect_load_error(R"({"dynamic_shapes": ["dx"], "dims": {"dx": {"min": 4, "max": 8, "derived": "dx + 1"}}})",
                    "Expected dims in `spec['dims']` to map `derived` to a list of derived expressions, got dx: dx + 1");
}

TEST(SpecF, B182_TopLevelShape) {
  expect_load_error(R"([1, 2])", "With from_dict=True, expected `spec` to be a dict, got <class 'list'>");
  expect_load_error(R"({"dynamic_shapes": null, "dims": {}, "extra": 1})",
                    "With from_dict=True, expected `spec` to have keys `dims` and `dynamic_shapes`, instead found "
                    "dict_keys(['dynamic_shapes', 'dims', 'extra'])");
}

TEST(SpecF, B184_DimsKeyNotSymbol) {
  expect_load_error(R"({"dynamic_shapes": [], "dims": {"2*x": {"min": 0, "max": 8, "derived": []}}})",
                    "Expected `spec['dims']` keys to be symbols, got 2*x");
}

TEST(SpecF, B185_DerivedExpressions) {
  expect_load_error(R"({"dynamic_shapes": [], "dims": {"dx": {"min": 0, "max": 8, "derived": ["dx**2"]}}})",
                    "Expected derived expressions to be linear expressions, got dx**2");
  expect_load_error(R"({"dynamic_shapes": [], "dims": {"dx": {"min": 0, "max": 8, "derived": ["dx + dy"]}}})",
                    "Expected derived expressions in to have dx as the only free symbol, got dx + dy");
}

TEST(SpecF, B186_BadLeaves) {
  expect_load_error(R"({"dynamic_shapes": ["dz"], "dims": {"dx": {"min": 0, "max": 8, "derived": []}}})",
                    "Expected dims in `spec['dynamic_shapes']` to be tracked in `spec['dims']`, got dz which is not "
                    "in dict_keys(['dx'])");
  expect_load_error(R"({"dynamic_shapes": [3.5], "dims": {}})",
                    "Expected leaves in `spec['dynamic_shapes']` to be ints, None, Dim.AUTO/STATIC, symbols,  or "
                    "derived expressions, got 3.5");
}

TEST(SpecF, B187_DynamicShapesNone) {
  DynamicShapes s = load_spec_json(R"({"dynamic_shapes": null, "dims": {}})");
  EXPECT_FALSE(s.present);
}

TEST(SpecJson, MalformedJsonIsInvalidInputNeverACrash) {
  for (std::string_view bad : {"", "{", "{\"dynamic_shapes\": [", "nul", "{\"dims\": 1, \"dynamic_shapes\": 2}",
                               "{\"dims\": {\"dx\": 3}, \"dynamic_shapes\": []}"}) {
    EXPECT_THROW(load_spec_json(bad), SpecError) << bad;
  }
}

TEST(SpecJson, DeepNestingIsRejected) {
  std::string deep = R"({"dims": {}, "dynamic_shapes": )" + std::string(100, '[') + std::string(100, ']') + "}";
  EXPECT_THROW(load_spec_json(deep), SpecError);
}

TEST(SpecJson, MinAboveMaxGivesDimsAssertion) {
  expect_spec_error([] { load_spec_json(R"({"dynamic_shapes": ["dx"], "dims": {"dx": {"min": 9, "max": 4, "derived": []}}})"); },
                    PyException::AssertionError, "Cannot create Dim with inconsistent min=9, max=4");
}

// Found by the PyTorch 2.x differential harness (python -m symshape.torchref, docs/torchref.md).
TEST(SpecTorchRef, SympyNamesAreNotSymbols) {
  // sympify("gamma") is sympy's gamma function, not a Symbol: PyTorch refuses the key.
  for (const char* name : {"gamma", "E", "I", "pi", "oo", "N", "S", "Symbol", "None", "True", "print"})
    expect_load_error(fmt::format(R"({{"dynamic_shapes": {{"x": ["{0}"]}}, "dims": {{"{0}": {{"min": 2, "max": null, "derived": []}}}}}})", name),
                      fmt::format("Expected `spec['dims']` keys to be symbols, got {}", name));
  for (const char* name : {"range", "list", "dict", "Dim", "x1", "gamma2"})  // builtins sympy reads as a Symbol
    EXPECT_NO_THROW(load_spec_json(fmt::format(
        R"({{"dynamic_shapes": {{"x": ["{0}"]}}, "dims": {{"{0}": {{"min": 2, "max": null, "derived": []}}}}}})", name)))
        << name;
}

TEST(SpecTorchRef, BoolBoundsPrintAsPythonDoes) {
  expect_spec_error([] { load_spec_json(R"({"dynamic_shapes": {"x": ["dx"]}, "dims": {"dx": {"min": 1, "max": true, "derived": []}}})"); },
                    PyException::AssertionError, "Cannot create Dim with inconsistent min=1, max=True");
}

TEST(SpecTorchRef, LinearExpressionsPrintInSympyForm) {
  auto load_derived = [](const char* expr) {
    return fmt::format(R"({{"dynamic_shapes": {{"x": ["dx"]}}, "dims": {{"dx": {{"min": 2, "max": null, "derived": ["{}"]}}}}}})", expr);
  };
  expect_load_error(load_derived("1 + dx + zz"), "Expected derived expressions in to have dx as the only free symbol, got dx + zz + 1");
  expect_load_error(load_derived("0*dx + 3"), "Expected derived expressions in to have dx as the only free symbol, got 3");
  expect_load_error(load_derived("zz - 2*dx"), "Expected derived expressions in to have dx as the only free symbol, got -2*dx + zz");
  expect_load_error(load_derived("dx - dx"), "Expected derived expressions in to have dx as the only free symbol, got 0");
}
