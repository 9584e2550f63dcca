// check_op_schemas reports every op problem of a graph with file, graph, node and argument.
#include <gtest/gtest.h>

#include <string>

#include "graph/json_loader.h"
#include "prop/schema_check.h"

namespace symshape {
namespace {

// The tiny graph of tests/graph/data with the conv2d node's args/kwargs and the relu node's
// target replaced; everything else is valid.
std::string graph_with(const std::string& conv_args, const std::string& conv_kwargs = "{}",
                       const std::string& relu_target = "aten.relu.default") {
  return R"({"format": "fx-graph-json", "version": 1, "name": "g", "producer": {},
 "nodes": [
  {"name": "x", "op": "placeholder", "target": "x", "meta": {"dtype": "float32", "rank": 4}},
  {"name": "w", "op": "get_attr", "target": "conv.weight", "meta": {"shape": [4, 3, 3, 3], "dtype": "float32", "stride": [27, 9, 3, 1]}},
  {"name": "conv2d", "op": "call_function", "target": "aten.conv2d.default", "args": )" +
         conv_args + R"(, "kwargs": )" + conv_kwargs + R"(},
  {"name": "relu", "op": "call_function", "target": ")" +
         relu_target + R"(", "args": [{"node": "conv2d"}], "kwargs": {}},
  {"name": "output", "op": "output", "target": "output", "args": [{"node": "relu"}]}],
 "dynamic_shapes": {"dynamic_shapes": {"x": ["b", 3, 8, 8]}, "dims": {"b": {"min": 1, "max": null, "derived": []}}},
 "examples": []})";
}

const char* kGoodConv = R"([{"node": "x"}, {"node": "w"}, null, [1, 1], [0, 0], [1, 1], 1])";

Diagnostics check(const std::string& json) {
  OpTable ops;
  Graph g(ops);
  Diagnostics load;
  JsonGraphLoader loader;
  EXPECT_TRUE(loader.load_buffer(json, "t.graph.json", ops, g, load));
  Diagnostics d;
  check_op_schemas(g, "t.graph.json", d);
  return d;
}

TEST(SchemaCheck, ValidGraphHasNoProblem) { EXPECT_TRUE(check(graph_with(kGoodConv)).empty()); }

TEST(SchemaCheck, UnsupportedTargetIsNamed) {
  Diagnostics d = check(graph_with(kGoodConv, "{}", "os.system"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.items[0].code, GraphErrc::UnsupportedOp);
  EXPECT_EQ(d.items[0].node_name, "relu");
  EXPECT_EQ(d.items[0].format(), "t.graph.json: graph 'g': node #3 'relu': target: unsupported op 'os.system': no shape rule in symshape");
}

TEST(SchemaCheck, TooFewArgumentsIsAMissingArgument) {
  Diagnostics d = check(graph_with(R"([{"node": "x"}])"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.items[0].code, GraphErrc::MissingArg);
  EXPECT_EQ(d.items[0].field, "args[1]");
  EXPECT_NE(d.items[0].message.find("'weight'"), std::string::npos);
}

TEST(SchemaCheck, OmittedArgumentsWithDefaultsAreAccepted) {
  EXPECT_TRUE(check(graph_with(R"([{"node": "x"}, {"node": "w"}])")).empty());
}

TEST(SchemaCheck, StrideAsAStringIsTheWrongKind) {
  Diagnostics d = check(graph_with(R"([{"node": "x"}, {"node": "w"}, null, "2", [0, 0], [1, 1], 1])"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.items[0].code, GraphErrc::ArgKind);
  EXPECT_EQ(d.items[0].field, "args[3]");
  EXPECT_EQ(d.items[0].message, "aten.conv2d.default(): argument 'stride' must be int[2], not string");
}

TEST(SchemaCheck, ASingleIntStandsForAFixedSizeList) {
  EXPECT_TRUE(check(graph_with(R"([{"node": "x"}, {"node": "w"}, null, 2, 0, 1, 1])")).empty());
}

TEST(SchemaCheck, ListItemOfTheWrongKindIsLocated) {
  Diagnostics d = check(graph_with(R"([{"node": "x"}, {"node": "w"}, null, [1, 1.5], [0, 0], [1, 1], 1])"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.items[0].code, GraphErrc::ArgKind);
  EXPECT_EQ(d.items[0].field, "args[3][1]");
}

TEST(SchemaCheck, EachKindIsChecked) {
  struct Case { const char* args; const char* field; };
  const Case cases[] = {
      {R"([1.5, {"node": "w"}, null, [1, 1], [0, 0], [1, 1], 1])", "args[0]"},          // Tensor given a float? accepted (0-dim)
      {R"([{"node": "x"}, "w", null, [1, 1], [0, 0], [1, 1], 1])", "args[1]"},          // Tensor given a string
      {R"([{"node": "x"}, {"node": "w"}, 3, [1, 1], [0, 0], [1, 1], 1])", ""},          // Tensor? given an int: wrapped, accepted
      {R"([{"node": "x"}, {"node": "w"}, null, [1, 1], [0, 0], [1, 1], 1.0])", "args[6]"},  // int given a float
      {R"([{"node": "x"}, {"node": "w"}, null, [1, 1], [0, 0], [1, 1], {"dtype": "float32"}])", "args[6]"},  // int given a dtype
      {R"([{"node": "x"}, {"node": "w"}, null, [1, 1], [0, 0], [1, 1], null])", "args[6]"},  // int (not optional) given None
  };
  for (const Case& c : cases) {
    Diagnostics d = check(graph_with(c.args));
    if (std::string(c.field).empty() || std::string(c.args).starts_with("[1.5")) {
      EXPECT_TRUE(d.empty()) << c.args;
      continue;
    }
    ASSERT_EQ(d.size(), 1u) << c.args;
    EXPECT_EQ(d.items[0].code, GraphErrc::ArgKind) << c.args;
    EXPECT_EQ(d.items[0].field, c.field) << c.args;
  }
}

TEST(SchemaCheck, UnknownAndDuplicateKeywords) {
  Diagnostics d = check(graph_with(kGoodConv, R"({"strides": [1, 1], "groups": 1})"));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.items[0].code, GraphErrc::UnknownKwarg);
  EXPECT_EQ(d.items[0].field, "kwargs.strides");
  EXPECT_EQ(d.items[1].code, GraphErrc::DuplicateArg);
  EXPECT_EQ(d.items[1].field, "kwargs.groups");
}

TEST(SchemaCheck, KeywordGivenInsteadOfPositionalIsAccepted) {
  EXPECT_TRUE(check(graph_with(R"([{"node": "x"}])", R"({"weight": {"node": "w"}, "groups": 1})")).empty());
}

TEST(SchemaCheck, TooManyPositionalArguments) {
  Diagnostics d = check(graph_with(R"([{"node": "x"}, {"node": "w"}, null, [1, 1], [0, 0], [1, 1], 1, 7])"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d.items[0].code, GraphErrc::TooManyArgs);
  EXPECT_EQ(d.items[0].field, "args[7]");
}

TEST(SchemaCheck, EveryProblemOfTheFileIsReported) {
  Diagnostics d = check(graph_with(R"([{"node": "x"}, {"node": "w"}, null, "2", [0, 0], [1, 1], 1.0])", R"({"bogus": 1})",
                                   "os.system"));
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d.items[0].code, GraphErrc::ArgKind);
  EXPECT_EQ(d.items[1].code, GraphErrc::ArgKind);
  EXPECT_EQ(d.items[2].code, GraphErrc::UnknownKwarg);
  EXPECT_EQ(d.items[3].code, GraphErrc::UnsupportedOp);
}

}  // namespace
}  // namespace symshape
