// Dynamism across examples (semantics.md G, behaviours 204-212) through the NDJSON examples
// form of `symshape dynamism`, plus the form's own rules and errors.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>

#include "dynamism/dynamism.h"
#include "dynamism/example_json.h"
#include "dynamism/module_dict.h"

using namespace symshape;
using namespace symshape::dynamism;

namespace {

ExampleSet read(const std::string& ndjson, Diagnostics* problems_out = nullptr) {
  ExampleSet set;
  Diagnostics problems;
  read_examples_ndjson(ndjson, "test.ndjson", set, problems);
  if (problems_out) *problems_out = problems;
  else
    for (const Diagnostic& d : problems.items) ADD_FAILURE() << d.format();
  return set;
}

std::string track(const std::string& ndjson) { return dynamism_json(track_dynamism(read(ndjson))); }

// One line per k in [lo, hi], `fmt` using {0} for k and {1} for k + 2.
std::string lines(const char* pattern, int lo, int hi) {
  std::string out;
  for (int k = lo; k <= hi; ++k) out += fmt::format(fmt::runtime(pattern), k, k + 2) + "\n";
  return out;
}

// A value subtree as Python's repr would print the nested structure (dict keys quoted,
// tensors as T(sizes)), for comparing sets node by node.
std::string render(const ExampleSet& s, size_t& i) {
  const ValueNode& n = s.nodes[i++];
  std::string key;
  switch (n.key_kind) {
    case KeyKind::Name: key = py_repr(s.name(n.key)) + ": "; break;
    case KeyKind::Int: key = fmt::format("{}: ", n.key); break;
    case KeyKind::Attr: key = fmt::format(".{}=", s.name(n.key)); break;
    default: break;
  }
  switch (n.kind) {
    case ValueKind::Dict:
    case ValueKind::List:
    case ValueKind::Object:
    case ValueKind::Module: {
      std::string body;
      for (uint32_t c = 0; c < n.children; ++c) body += (c ? ", " : "") + render(s, i);
      const char* open = n.kind == ValueKind::List ? "[" : n.kind == ValueKind::Module ? "Module{" : "{";
      const char* close = n.kind == ValueKind::List ? "]" : "}";
      return key + open + body + close;
    }
    case ValueKind::Tensor: return key + fmt::format("T({})", fmt::join(s.tensor_sizes(n), ", "));
    case ValueKind::Int: return key + std::to_string(n.payload);
    case ValueKind::Bool: return key + (n.payload ? "True" : "False");
    case ValueKind::Float: return key + fmt::format("{}", n.number);
    case ValueKind::Str: return key + py_repr(s.name(n.payload));
    case ValueKind::None: return key + "None";
  }
  return key;
}
std::string render_example(const ExampleSet& s, size_t e) {
  size_t i = s.roots[e];
  return render(s, i);
}

// Behaviour 207's model: M(n_input, n_output) holds plain attributes n_input, n_output, a
// child y = Y(n_input, n_output) with attribute x = n_input and child compress =
// Linear(n_input, n_output). `training` (a bool) is listed as dir() lists it.
std::string module_m(int n_input, int n_output) {
  return fmt::format(
      R"({{"self": {{"module": {{"attributes": {{"n_input": {0}, "n_output": {1}, "training": true}},)"
      R"( "modules": {{"y": {{"module": {{"attributes": {{"x": {0}, "training": true}},)"
      R"( "modules": {{"compress": {{"module": {{"attributes": {{"in_features": {0}, "out_features": {1}, "training": true}},)"
      R"( "parameters": {{"weight": [{1}, {0}], "bias": [{1}]}}}}}}}}}}}}}}}}}}}})",
      n_input, n_output);
}

}  // namespace

TEST(Dynamism, B204_IntsTensorsAndIntKeyedDicts) {
  // {x: k, y: ones(k, 1), z: {0: ones(k)}} for k = 1..5; y once in the eval form, once tagged.
  EXPECT_EQ(track(lines(R"({{"x": {0}, "y": [{0}, 1], "z": {{"dict": [[0, {{"tensor": [{0}]}}]]}}}})", 1, 5)),
            R"({"x": {"L['x']": [true]}, "y": {"L['y']": [true, false]}, "z": {"L['z'][0]": [true]}})");
  EXPECT_EQ(track(lines(R"({{"x": {0}, "y": {{"tensor": [{0}, 1]}}, "z": {{"dict": [[0, {{"tensor": [{0}]}}]]}}}})", 1, 5)),
            R"({"x": {"L['x']": [true]}, "y": {"L['y']": [true, false]}, "z": {"L['z'][0]": [true]}})");
}

TEST(Dynamism, B205_DeeplyNested) {
  EXPECT_EQ(track(lines(R"({{"z": {{"z": {{"z": {{"z": {{"dict": [[0, {{"tensor": [{0}]}}]]}}}}}}}}}})", 1, 5)),
            R"({"z": {"L['z']['z']['z']['z'][0]": [true]}})");
}

TEST(Dynamism, B206_MixedDynamism) {
  // {a: ones(k, 2), b: [ones(k), k + 2], c: {d: 42}}
  EXPECT_EQ(track(lines(R"({{"a": [{0}, 2], "b": [{{"tensor": [{0}]}}, {1}], "c": {{"d": 42}}}})", 1, 5)),
            R"({"a": {"L['a']": [true, false]}, "b": {"L['b'][0]": [true], "L['b'][1]": [true]}, "c": {"L['c']['d']": [false]}})");
}

TEST(Dynamism, B207_ModuleAttributes) {
  const DynamismTable t = track_dynamism(read(module_m(3210, 30) + "\n" + module_m(3211, 30) + "\n"));
  const std::string c = "L['self']['_modules']['y']['_modules']['compress']";
  // First-seen order: _parameters, then _modules, then the attributes in dir()'s sorted order.
  const std::vector<std::pair<std::string, std::vector<bool>>> expected = {
      {c + "['_parameters']['weight']", {false, true}},
      {c + "['_parameters']['bias']", {false}},
      {c + "['bias']", {false}},
      {c + "['in_features']", {true}},
      {c + "['out_features']", {false}},
      {c + "['weight']", {false, true}},
      {"L['self']['_modules']['y']['x']", {true}},
      {"L['self']['n_input']", {true}},
      {"L['self']['n_output']", {false}},
  };
  ASSERT_EQ(t.num_paths(), expected.size()) << dynamism_json(t);
  for (uint32_t p = 0; p < t.num_paths(); ++p) {
    EXPECT_EQ(t.path_name[p], expected[p].first);
    EXPECT_EQ(t.varies(p), expected[p].second) << t.path_name[p];
    EXPECT_EQ(t.arg_name[t.path_arg[p]], "self");
  }
  EXPECT_EQ(t.find_path("L['self']['training']"), -1);  // a bool attribute is not kept (G.3)
  EXPECT_EQ(t.find_path(c + "['training']"), -1);
}

TEST(Dynamism, B208_SelfModuleReplacedByItsNestedDict) {
  // PyTorch rewrites the caller's dicts; here the rewrite is replace_self_modules, and
  // track_dynamism applies it to a copy (the caller's set still holds the module).
  ExampleSet set = read(module_m(3210, 30) + "\n" + module_m(3211, 30) + "\n");
  const DynamismTable before = track_dynamism(set);
  EXPECT_EQ(set.nodes[set.roots[0] + 1].kind, ValueKind::Module);  // unchanged by tracking
  EXPECT_EQ(replace_self_modules(set), 2u);
  for (size_t e = 0; e < 2; ++e) {
    const ValueNode& self = set.nodes[set.roots[e] + 1];
    EXPECT_EQ(self.kind, ValueKind::Dict) << "example " << e;
    EXPECT_EQ(set.name(self.key), "self");
  }
  // The nested dict G.3 produces, written out by hand.
  const ExampleSet by_hand = read(
      R"({"self": {"_parameters": {}, "_modules": {"y": {"_parameters": {}, "_modules": {"compress": )"
      R"({"_parameters": {"weight": {"tensor": [30, 3210]}, "bias": {"tensor": [30]}}, "_modules": {}, )"
      R"("bias": {"tensor": [30]}, "in_features": 3210, "out_features": 30, "weight": {"tensor": [30, 3210]}}}, "x": 3210}}, )"
      R"("n_input": 3210, "n_output": 30}})");
  EXPECT_EQ(render_example(set, 0), render_example(by_hand, 0));
  // Tracking the rewritten examples again gives the same answer (nothing left to convert).
  EXPECT_EQ(dynamism_json(track_dynamism(set)), dynamism_json(before));
  EXPECT_EQ(replace_self_modules(set), 0u);
}

TEST(Dynamism, B208_ModuleOutsideSelfIsOpaque) {
  // Only the top-level "self" is converted; a module anywhere else is a leaf pytree skips.
  EXPECT_EQ(track(R"({"m": {"module": {"attributes": {"n": 1}}}, "x": [2]})"
                  "\n"
                  R"({"m": {"module": {"attributes": {"n": 2}}}, "x": [3]})"),
            R"({"x": {"L['x']": [true]}})");
}

TEST(Dynamism, B209_StringsAndNoneIgnoredBoolsTracked) {
  EXPECT_EQ(track(R"({"s": "a", "n": null, "b": true, "i": 1})"
                  "\n"
                  R"({"s": "b", "n": null, "b": false, "i": 1})"),
            R"({"b": {"L['b']": [true]}, "i": {"L['i']": [false]}})");
  // As in Python's set: True == 1 and 2 == 2.0 are one value.
  EXPECT_EQ(track("{\"b\": true, \"f\": 2}\n{\"b\": 1, \"f\": 2.0}\n"),
            R"({"b": {"L['b']": [false]}, "f": {"L['f']": [false]}})");
  EXPECT_EQ(track("{\"f\": 0.5}\n{\"f\": 0.25}\n"), R"({"f": {"L['f']": [true]}})");
}

TEST(Dynamism, B210_RankChangeExtendsThePositions) {
  EXPECT_EQ(track("{\"t\": [2]}\n{\"t\": [2, 3]}\n"), R"({"t": {"L['t']": [false, false]}})");
  // Fewer positions later leave the extra ones untouched.
  EXPECT_EQ(track("{\"t\": [2, 3]}\n{\"t\": [4]}\n"), R"({"t": {"L['t']": [true, false]}})");
  // A tensor in one example and a number in another is no error.
  EXPECT_EQ(track("{\"t\": [2]}\n{\"t\": 5}\n"), R"({"t": {"L['t']": [true]}})");
}

TEST(Dynamism, B211_ExamplesHoldMetadataOnly) {
  // clone_and_convert_to_meta has nothing to do here: a tensor of the examples form is its
  // sizes (what a meta tensor keeps), other leaves are kept as given.
  const ExampleSet set = read(R"({"a": {"tensor": [2, 3]}, "b": 5})");
  EXPECT_EQ(render_example(set, 0), "{'a': T(2, 3), 'b': 5}");
}

TEST(Dynamism, B212_NormalizeSourceName) {
  EXPECT_EQ(normalize_source_name("L.self.x"), "L['self']['x']");
  EXPECT_EQ(normalize_source_name("L['x'].size()[0]"), "L['x']['size']()[0]");  // method names too
  EXPECT_EQ(normalize_source_name("L['x']"), "L['x']");
  EXPECT_EQ(normalize_source_name("a.b1._c.9"), "a['b1']['_c'].9");
}

TEST(Dynamism, AttributeKeysAndStringKeysRenderAsPytreeDoes) {
  EXPECT_EQ(track("{\"o\": {\"attrs\": {\"w\": {\"tensor\": [2]}}}, \"d\": {\"it's\": 1}}\n"
                  "{\"o\": {\"attrs\": {\"w\": {\"tensor\": [3]}}}, \"d\": {\"it's\": 1}}\n"),
            R"({"o": {"L['o'].w": [true]}, "d": {"L['d'][\"it's\"]": [false]}})");
  // Below the top level an array is a list, never a tensor.
  EXPECT_EQ(track("{\"o\": {\"attrs\": {\"w\": [2]}}}\n{\"o\": {\"attrs\": {\"w\": [3]}}}\n"),
            R"({"o": {"L['o'].w[0]": [true]}})");
  // A dict whose single key is a tag is written as a pair list.
  EXPECT_EQ(track("{\"d\": {\"dict\": [[\"tensor\", 4]]}}\n"), R"({"d": {"L['d']['tensor']": [false]}})");
  // A top-level list of ints is {"list": [...]} (a bare one is a tensor).
  EXPECT_EQ(track("{\"l\": {\"list\": [1, 2]}}\n{\"l\": {\"list\": [1, 3]}}\n"),
            R"({"l": {"L['l'][0]": [false], "L['l'][1]": [true]}})");
  // Rank-0 tensors and empty containers.
  EXPECT_EQ(track("{\"s\": [], \"e\": {}, \"n\": {\"list\": []}}\n"), R"({"s": {"L['s']": []}})");
}

TEST(Dynamism, MalformedLinesAreReportedTheRestIsUsed) {
  Diagnostics problems;
  const std::string text =
      "{\"x\": [2]}\n"
      "{\"x\": [3\n"                      // 2: invalid JSON
      "[1, 2]\n"                          // 3: not an object
      "{\"x\": [-1]}\n"                   // 4: negative size
      "{\"x\": {\"tensor\": [1.5]}}\n"    // 5: a tensor of a float
      "\n"                                // 6: blank: skipped
      "{\"x\": {\"module\": {\"bogus\": {}}}}\n"                          // 7: unknown section
      "{\"x\": {\"dict\": [[0, 1], [0, 2]]}}\n"                           // 8: duplicate key
      "{\"x\": {\"dict\": [[1.5, 1]]}}\n"                                 // 9: float key
      "{\"x\": [4]}\n"
      "{\"x\": [4], \"x\": [5]}\n"                                       // 11: duplicate key
      "{\"x\": {\"a\": 1, \"a\": 2}}\n";                                 // 12: duplicate key
  const ExampleSet set = read(text, &problems);
  ASSERT_EQ(set.num_examples(), 2u);
  EXPECT_EQ(set.source[0], 1u);
  EXPECT_EQ(set.source[1], 10u);
  ASSERT_EQ(problems.size(), 9u);
  const std::vector<std::string> want = {
      "test.ndjson: line 2: invalid JSON",
      "test.ndjson: line 3: expected an object of named inputs",
      "test.ndjson: line 4: x[0]: a tensor size must be a non-negative integer",
      "test.ndjson: line 5: x.tensor: expected a list of integer sizes",
      "test.ndjson: line 7: x.module.bogus: unknown module section",
      "test.ndjson: line 8: x.dict[1][0]: duplicate key [0]",
      "test.ndjson: line 9: x.dict[0][0]: a dict key must be an int or a string",
      "test.ndjson: line 11: x: duplicate key",
      "test.ndjson: line 12: x['a']: duplicate key",
  };
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(problems.items[i].format().substr(0, want[i].size()), want[i]) << problems.items[i].format();
  EXPECT_EQ(dynamism_json(track_dynamism(set)), R"({"x": {"L['x']": [true]}})");
}

TEST(Dynamism, NestingLimit) {
  std::string deep = "{\"x\": ", tail = "}";
  for (int i = 0; i < kMaxValueDepth + 1; ++i) deep += "[", tail = "]" + tail;
  Diagnostics problems;
  const ExampleSet set = read(deep + "1" + tail + "\n{\"x\": 1}\n", &problems);
  EXPECT_EQ(set.num_examples(), 1u);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems.items[0].message.find("nested deeper than"), std::string::npos) << problems.items[0].format();
  // Within the limit: fine, and the path has one index per level.
  std::string ok = "{\"x\": ", ok_tail = "}";
  for (int i = 0; i < kMaxValueDepth - 1; ++i) ok += "[", ok_tail = "]" + ok_tail;
  const DynamismTable t = track_dynamism(read(ok + "{\"tensor\": [3]}" + ok_tail));
  ASSERT_EQ(t.num_paths(), 1u);
  EXPECT_EQ(t.path_name[0], "L['x']" + [] {
    std::string s;
    for (int i = 0; i < kMaxValueDepth - 1; ++i) s += "[0]";
    return s;
  }());
}

TEST(Dynamism, UnreadableFile) {
  ExampleSet set;
  Diagnostics problems;
  EXPECT_FALSE(read_examples_file("/nonexistent/examples.ndjson", set, problems));
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems.items[0].format(), "/nonexistent/examples.ndjson: cannot open file");
}

TEST(Dynamism, ObservationsKeepEveryValue) {
  // The spec suggestion reads the per-example values back.
  const DynamismTable t = track_dynamism(read("{\"x\": [2, 5]}\n{\"x\": [3, 5]}\n{\"x\": [4, 5]}\n"));
  ASSERT_EQ(t.num_examples, 3u);
  ASSERT_EQ(t.obs_pos.size(), 6u);
  const int64_t d0 = t.position(0, 0);
  std::vector<int64_t> col;
  for (size_t i = 0; i < t.obs_pos.size(); ++i)
    if (int64_t(t.obs_pos[i]) == d0) col.push_back(t.obs_value[i].i);
  EXPECT_EQ(col, (std::vector<int64_t>{2, 3, 4}));
}
