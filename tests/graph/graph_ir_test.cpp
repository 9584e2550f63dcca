// Accessors of the graph IR on hand-written graphs: every node kind, ARG kind, VALUE
// kind, the SPEC and examples, read back exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "graph/graph.h"
#include "graph/json_writer.h"
#include "graph/graph_equal.h"
#include "test_util.h"

namespace symshape {
namespace {

using test::data_path;
using test::load_or_die;

TEST(GraphIr, TinyNodesArgsAndMeta) {
  OpTable ops;
  Graph g = load_or_die(data_path("tiny.graph.json"), ops);
  ASSERT_EQ(g.num_nodes(), 8u);
  EXPECT_EQ(g.name(), "example.tiny");
  EXPECT_EQ(g.output_node(), NodeId(7));
  EXPECT_EQ(g.find_node("relu"), NodeId(4));
  EXPECT_FALSE(g.find_node("nope").valid());

  const NodeId x = g.find_node("x"), conv = g.find_node("conv2d"), view = g.find_node("view");
  EXPECT_EQ(g.node_kind(x), NodeKind::Placeholder);
  EXPECT_EQ(g.node_kind(g.find_node("conv_weight")), NodeKind::GetAttr);
  EXPECT_EQ(g.node_kind(conv), NodeKind::CallFunction);
  EXPECT_EQ(g.node_kind(g.output_node()), NodeKind::Output);
  EXPECT_EQ(g.node_target(g.find_node("conv_weight")), "conv.weight");
  EXPECT_EQ(ops.op_name(g.node_op(conv)), "aten.conv2d.default");
  EXPECT_EQ(g.node_op(conv), ops.find_op("aten.conv2d.default"));
  EXPECT_FALSE(g.node_op(x).valid());

  // conv2d(x, w, b, [2, 2], [0, 0], [1, 1], 1)
  auto args = g.node_args(conv);
  ASSERT_EQ(args.size(), 7u);
  EXPECT_EQ(g.arg_kind(args[0]), ArgKind::Node);
  EXPECT_EQ(g.arg_node(args[0]), x);
  ASSERT_EQ(g.arg_kind(args[3]), ArgKind::List);
  ASSERT_EQ(g.list_items(args[3]).size(), 2u);
  EXPECT_EQ(g.arg_int(g.list_items(args[3])[1]), 2);
  EXPECT_EQ(g.arg_kind(args[6]), ArgKind::Int);
  EXPECT_EQ(g.arg_int(args[6]), 1);
  EXPECT_TRUE(g.node_kwargs(conv).empty());

  // view(relu, [sym_size, -1]): a node reference inside a list
  auto vargs = g.node_args(view);
  auto shape = g.list_items(vargs[1]);
  ASSERT_EQ(shape.size(), 2u);
  EXPECT_EQ(g.arg_node(shape[0]), g.find_node("sym_size"));
  EXPECT_EQ(g.arg_int(shape[1]), -1);
  EXPECT_EQ(g.arg_node(g.output_arg()), view);

  PlaceholderId p = g.placeholder_of(x);
  ASSERT_TRUE(p.valid());
  EXPECT_EQ(g.placeholder_dtype(p), DType::Float32);
  EXPECT_EQ(g.placeholder_rank(p), 4u);
  EXPECT_FALSE(g.placeholder_range(p).has_value());
  AttrId w = g.attr_of(g.find_node("conv_weight"));
  ASSERT_TRUE(w.valid());
  EXPECT_EQ(std::vector<int64_t>(g.attr_shape(w).begin(), g.attr_shape(w).end()), (std::vector<int64_t>{4, 3, 3, 3}));
  EXPECT_EQ(std::vector<int64_t>(g.attr_stride(w).begin(), g.attr_stride(w).end()), (std::vector<int64_t>{27, 9, 3, 1}));
  EXPECT_FALSE(g.attr_has_data(w));
  EXPECT_FALSE(g.attr_of(x).valid());
}

TEST(GraphIr, TinySpecAndExamples) {
  OpTable ops;
  Graph g = load_or_die(data_path("tiny.graph.json"), ops);
  PlaceholderId p = g.placeholder_of(g.find_node("x"));
  ASSERT_TRUE(g.spec_has(p));
  auto dims = g.spec_dims(p);
  ASSERT_EQ(dims.size(), 4u);
  EXPECT_EQ(g.sym_name(dims[0].sym), "batch");
  EXPECT_FALSE(dims[1].sym.valid());
  EXPECT_EQ(dims[1].size, 3);
  EXPECT_EQ(dims[3].sym, g.find_sym("width"));
  EXPECT_EQ(g.sym_min(dims[0].sym), 1);
  EXPECT_FALSE(g.sym_max(dims[0].sym).has_value());

  ASSERT_EQ(g.num_examples(), 2u);
  ExampleView ok = g.example(ExampleId(0));
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(ok.in_spec());
  EXPECT_EQ(ok.seed(), 0);
  EXPECT_EQ(std::vector<int64_t>(ok.input_sizes(p).begin(), ok.input_sizes(p).end()), (std::vector<int64_t>{2, 3, 9, 8}));
  ValueId out = ok.output();
  ASSERT_TRUE(out.valid());
  EXPECT_EQ(g.value_kind(out), ValueKind::Tensor);
  EXPECT_EQ(std::vector<int64_t>(g.value_shape(out).begin(), g.value_shape(out).end()), (std::vector<int64_t>{2, 48}));
  EXPECT_EQ(std::vector<int64_t>(g.value_stride(out).begin(), g.value_stride(out).end()), (std::vector<int64_t>{48, 1}));
  EXPECT_EQ(g.value_dtype(out), DType::Float32);
  ValueId size = ok.golden(g.find_node("sym_size"));
  ASSERT_EQ(g.value_kind(size), ValueKind::Int);
  EXPECT_EQ(g.value_int(size), 2);

  ExampleView bad = g.example(ExampleId(1));
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(bad.error().starts_with("RuntimeError: Calculated padded input size"));
  EXPECT_EQ(bad.error_kind(), ExampleErrorKind::None);  // trimmed in FORMAT.md's example
  EXPECT_FALSE(bad.error_node().valid());
  EXPECT_FALSE(bad.output().valid());
  EXPECT_FALSE(bad.golden(g.find_node("relu")).valid());
}

TEST(GraphIr, EveryArgAndValueKind) {
  OpTable ops;
  Graph g = load_or_die(data_path("args.graph.json"), ops);
  const NodeId arange = g.find_node("arange");
  EXPECT_EQ(g.arg_dtype(g.kwarg(arange, "dtype")), DType::Int64);
  EXPECT_EQ(g.arg_kind(g.kwarg(arange, "layout")), ArgKind::Layout);
  EXPECT_EQ(g.arg_string(g.kwarg(arange, "layout")), "strided");
  EXPECT_EQ(g.arg_kind(g.kwarg(arange, "device")), ArgKind::Device);
  EXPECT_EQ(g.arg_string(g.kwarg(arange, "device")), "cpu");
  EXPECT_EQ(g.arg_kind(g.kwarg(arange, "pin_memory")), ArgKind::Bool);
  EXPECT_FALSE(g.arg_bool(g.kwarg(arange, "pin_memory")));
  EXPECT_FALSE(g.kwarg(arange, "alpha").valid());
  // KeyIds are shared: a rule resolves the key once and compares ids.
  const KeyId dtype_key = ops.find_key("dtype");
  ASSERT_TRUE(dtype_key.valid());
  EXPECT_EQ(g.kwarg(arange, dtype_key), g.kwarg(arange, "dtype"));

  EXPECT_EQ(g.arg_memory_format(g.kwarg(g.find_node("clone"), "memory_format")), MemoryFormat::ChannelsLast);
  auto fill = g.node_args(g.find_node("fill"));
  EXPECT_EQ(g.arg_kind(fill[2]), ArgKind::Float);
  EXPECT_EQ(g.arg_float(fill[2]), -std::numeric_limits<double>::infinity());
  auto pad = g.node_args(g.find_node("pad"));
  EXPECT_EQ(g.arg_kind(pad[2]), ArgKind::String);
  EXPECT_EQ(g.arg_string(pad[2]), "reflect");
  EXPECT_EQ(g.arg_kind(pad[3]), ArgKind::None);
  EXPECT_EQ(g.arg_float(g.node_args(g.find_node("mul"))[1]), 0.125);

  const NodeId scaled = g.find_node("scaled");
  EXPECT_TRUE(std::isnan(g.arg_float(g.node_args(scaled)[1])));
  EXPECT_EQ(g.arg_int(g.kwarg(scaled, "big")), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(g.arg_int(g.kwarg(scaled, "small")), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(g.arg_kind(g.kwarg(scaled, "tiny")), ArgKind::Float);
  EXPECT_TRUE(std::signbit(g.arg_float(g.kwarg(scaled, "neg"))));

  // output: [getitem, [arange, None, []], add]
  ArgId out = g.output_arg();
  auto items = g.list_items(out);
  ASSERT_EQ(items.size(), 3u);
  auto inner = g.list_items(items[1]);
  ASSERT_EQ(inner.size(), 3u);
  EXPECT_EQ(g.arg_node(inner[0]), arange);
  EXPECT_EQ(g.arg_kind(inner[1]), ArgKind::None);
  EXPECT_EQ(g.arg_kind(inner[2]), ArgKind::List);
  EXPECT_TRUE(g.list_items(inner[2]).empty());

  PlaceholderId ids = g.placeholder_of(g.find_node("ids"));
  ASSERT_TRUE(g.placeholder_range(ids).has_value());
  EXPECT_EQ(g.placeholder_range(ids)->lo, 0);
  EXPECT_EQ(g.placeholder_range(ids)->hi, 10);
  EXPECT_EQ(g.sym_max(g.find_sym("n")), 64);

  AttrId table = g.attr_of(g.find_node("table"));
  EXPECT_EQ(std::vector<int64_t>(g.attr_data(table).begin(), g.attr_data(table).end()),
            (std::vector<int64_t>{0, 1, 2, 3, 4, -5}));
  AttrId mask = g.attr_of(g.find_node("mask"));
  EXPECT_EQ(g.attr_dtype(mask), DType::Bool);
  EXPECT_EQ(std::vector<int64_t>(g.attr_data(mask).begin(), g.attr_data(mask).end()), (std::vector<int64_t>{1, 0}));

  ExampleView ex = g.example(ExampleId(0));
  EXPECT_EQ(g.value_kind(ex.golden(g.find_node("eq"))), ValueKind::Bool);
  EXPECT_TRUE(g.value_bool(ex.golden(g.find_node("eq"))));
  EXPECT_EQ(g.value_float(ex.golden(g.find_node("truediv"))), 0.5);
  EXPECT_EQ(g.value_float(ex.golden(g.find_node("inf"))), std::numeric_limits<double>::infinity());
  ValueId split = ex.golden(g.find_node("split"));
  ASSERT_EQ(g.value_kind(split), ValueKind::List);
  EXPECT_EQ(g.value_items(split).size(), 3u);
  auto outv = g.value_items(ex.output());
  ASSERT_EQ(outv.size(), 3u);
  EXPECT_EQ(g.value_kind(g.value_items(outv[1])[1]), ValueKind::Null);
  EXPECT_EQ(g.value_int(outv[2]), 3);

  // Output kinds come from the goldens.
  EXPECT_EQ(g.node_output_kind(g.find_node("x")), ValueKind::Tensor);
  EXPECT_EQ(g.node_output_kind(g.find_node("sym_size")), ValueKind::Int);
  EXPECT_EQ(g.node_output_kind(g.find_node("split")), ValueKind::List);
  EXPECT_EQ(g.node_output_kind(g.find_node("eq")), ValueKind::Bool);
  EXPECT_EQ(g.node_output_kind(g.find_node("inf")), ValueKind::Float);
  EXPECT_EQ(g.node_output_kind(g.output_node()), ValueKind::List);

  // An out-of-spec example may give a different rank than the placeholder's.
  ExampleView wrong_rank = g.example(ExampleId(2));
  EXPECT_EQ(wrong_rank.input_sizes(g.placeholder_of(g.find_node("x"))).size(), 3u);
  EXPECT_EQ(wrong_rank.error_kind(), ExampleErrorKind::Value);
  EXPECT_EQ(wrong_rank.error_node(), g.find_node("pad"));
  EXPECT_EQ(g.example(ExampleId(1)).error(), "RuntimeError: bad \u00e9 \"quoted\"");
  EXPECT_EQ(g.example(ExampleId(1)).seed(), -1);
}

TEST(GraphIr, JsonRoundTripIsExact) {
  OpTable ops;
  for (const char* name : {"tiny.graph.json", "args.graph.json"}) {
    Graph g = load_or_die(data_path(name), ops);
    JsonGraphLoader loader;
    Graph back(ops);
    Diagnostics d;
    ASSERT_TRUE(loader.load_buffer(write_graph_json(g), "rt", ops, back, d)) << test::format_all(d);
    EXPECT_EQ(graph_difference(g, back), "") << name;
    // A second write is byte-identical (the writer is deterministic).
    EXPECT_EQ(write_graph_json(g), write_graph_json(back));
  }
}

TEST(GraphIr, DifferenceIsDetected) {
  OpTable ops;
  Graph a = load_or_die(data_path("tiny.graph.json"), ops);
  std::string text = test::read_file(data_path("tiny.graph.json"));
  text.replace(text.find("[2, 2], [0, 0]"), 14, "[2, 2], [0, 1]");
  JsonGraphLoader loader;
  Graph b(ops);
  Diagnostics d;
  ASSERT_TRUE(loader.load_buffer(text, "b", ops, b, d));
  EXPECT_EQ(graph_difference(a, b), "node #3 'conv2d': args[4][1]: int differs");
}

TEST(GraphIr, LoaderIsReusableAfterAnError) {
  OpTable ops;
  JsonGraphLoader loader;
  Graph g(ops);
  Diagnostics d;
  EXPECT_FALSE(loader.load_buffer("{\"format\": 1", "bad", ops, g, d));
  EXPECT_EQ(g.num_nodes(), 0u);
  Diagnostics d2;
  EXPECT_TRUE(loader.load_buffer(test::read_file(data_path("tiny.graph.json")), "good", ops, g, d2));
  EXPECT_EQ(g.num_nodes(), 8u);
}

// The producer's torch version picks the eager kernels' layouts where releases differ
// (docs/torchref.md, "Eager layouts"): its major and minor numbers, {0, 0} when none is named.
TEST(GraphIr, ProducerTorchVersion) {
  auto version_of = [](const std::string& producer) {
    OpTable ops;
    Graph g(ops);
    Diagnostics d;
    const std::string json = R"({"format": "fx-graph-json", "version": 1, "name": "p", )" + producer +
                             R"("nodes": [{"name": "x", "op": "placeholder", "target": "x", "meta": {"dtype": "float32", "rank": 1}},
                                          {"name": "output", "op": "output", "target": "output", "args": [{"node": "x"}]}],
                                "dynamic_shapes": {"dynamic_shapes": {"x": [4]}, "dims": {}}, "examples": []})";
    EXPECT_TRUE(JsonGraphLoader().load_buffer(json, "p", ops, g, d)) << test::format_all(d);
    return g.producer_torch();
  };
  EXPECT_EQ(version_of(R"("producer": {"tool": "t", "torch": "1.13.0a0"}, )"), (TorchVersion{1, 13}));
  EXPECT_EQ(version_of(R"("producer": {"torch": "2.14.1+cu130", "tool": "symshape.export"}, )"), (TorchVersion{2, 14}));
  EXPECT_EQ(version_of(R"("producer": {"torch": "2.13.0+cpu"}, )"), (TorchVersion{2, 13}));
  EXPECT_EQ(version_of(R"("producer": {"torch": "10.0"}, )"), (TorchVersion{10, 0}));
  EXPECT_EQ(version_of(R"("producer": {"torch": "2"}, )"), (TorchVersion{2, 0}));
  EXPECT_EQ(version_of(R"("producer": {"tool": "no torch here"}, )"), TorchVersion{});
  EXPECT_EQ(version_of(R"("producer": {"torch": "none"}, )"), TorchVersion{});
  EXPECT_EQ(version_of(""), TorchVersion{});
  EXPECT_FALSE(TorchVersion{}.named());
  EXPECT_LT((TorchVersion{2, 13}), (TorchVersion{2, 14}));
  EXPECT_LT((TorchVersion{1, 13}), (TorchVersion{2, 0}));
  EXPECT_GE(kNewestTorch, (TorchVersion{2, 14}));
}

}  // namespace
}  // namespace symshape
