// The public facade (include/symshape/symshape.h): load from a path or memory, in JSON
// or FlatBuffers; propagate; read nodes and guards; every failure a Status naming the
// file, never an exception; one Engine per thread, concurrently.
#include <gtest/gtest.h>

#include <symshape/symshape.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace {

using symshape::api::Engine;
using symshape::api::NodeInfo;
using symshape::api::Status;
using symshape::api::StatusCode;

std::string sample(const char* name) { return std::string(SYMSHAPE_SOURCE_DIR) + "/data/samples/" + name; }

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string temp_file(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() / ("symshape_facade_" + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

const NodeInfo* find(const std::vector<NodeInfo>& nodes, const std::string& name) {
  for (const NodeInfo& n : nodes)
    if (n.name == name) return &n;
  return nullptr;
}

std::vector<NodeInfo> all_nodes(const Engine& e) {
  std::vector<NodeInfo> out(e.num_nodes());
  for (size_t i = 0; i < out.size(); ++i) EXPECT_TRUE(e.node(i, out[i]).ok());
  return out;
}

TEST(Facade, LoadPropagateAndReadShapes) {
  Engine e;
  Status st = e.load_file(sample("zoo_conv.graph.json"));
  ASSERT_TRUE(st.ok()) << st.message;
  EXPECT_EQ(e.graph_name(), "zoo_conv");
  ASSERT_EQ(e.num_inputs(), 1u);
  EXPECT_EQ(e.input_name(0), "x");
  ASSERT_EQ(e.input_rank(0), 4u);
  EXPECT_GT(e.num_examples(), 0u);
  st = e.propagate({{2, 8, 32, 32}});
  ASSERT_TRUE(st.ok()) << st.message;
  const std::vector<NodeInfo> nodes = all_nodes(e);
  const NodeInfo* x = find(nodes, "x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->op, "placeholder");
  EXPECT_EQ(x->kind, "tensor");
  EXPECT_EQ(x->dtype, "float32");
  ASSERT_EQ(x->shape.size(), 4u);
  EXPECT_EQ(x->shape[1], "8");                   // static in the spec
  EXPECT_NE(x->shape[2].find_first_not_of("0123456789"), std::string::npos);  // symbolic
  EXPECT_EQ(x->stride.size(), 4u);
  // every call_function got a value, and the guards are PyTorch's text
  for (const NodeInfo& n : nodes) {
    if (n.op == "call_function") {
      EXPECT_FALSE(n.kind.empty()) << n.name;
    }
  }
  const std::vector<std::string> guards = e.guards();
  ASSERT_FALSE(guards.empty());
  bool mentions_x = false;
  for (const std::string& g : guards) mentions_x |= g.find("L['x']") != std::string::npos;
  EXPECT_TRUE(mentions_x);
  NodeInfo out_of_range;
  EXPECT_EQ(e.node(nodes.size(), out_of_range).code, StatusCode::InvalidArgument);
}

TEST(Facade, JsonAndFlatBuffersFromMemoryAgree) {
  Engine from_file, from_json, from_fb;
  ASSERT_TRUE(from_file.load_file(sample("resnet18.graph.json")).ok());
  const std::string json = read_all(sample("resnet18.graph.json"));
  ASSERT_TRUE(from_json.load_memory(json.data(), json.size(), "resnet18 (memory)").ok());
  // a graph.fb written by the CLI would do; here: FlatBuffers bytes from convert
  const std::string fb_path = std::filesystem::temp_directory_path() / "symshape_facade_resnet18.graph.fb";
  const std::string cmd = std::string(SYMSHAPE_CLI) + " convert " + sample("resnet18.graph.json") + " " + fb_path +
                          " > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string fb = read_all(fb_path);
  // deliberately misaligned copy: the facade must not rely on the caller's alignment
  std::string shifted = " " + fb;
  Status st = from_fb.load_memory(shifted.data() + 1, fb.size(), "resnet18.graph.fb");
  ASSERT_TRUE(st.ok()) << st.message;
  for (Engine* e : {&from_file, &from_json, &from_fb}) ASSERT_TRUE(e->propagate_default().ok());
  EXPECT_EQ(from_json.guards(), from_file.guards());
  EXPECT_EQ(from_fb.guards(), from_file.guards());
  const auto a = all_nodes(from_file), b = all_nodes(from_fb);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].shape, b[i].shape) << a[i].name;
    EXPECT_EQ(a[i].stride, b[i].stride) << a[i].name;
    EXPECT_EQ(a[i].dtype, b[i].dtype) << a[i].name;
  }
}

TEST(Facade, MalformedInputIsAStatusNamingTheFile) {
  Engine e;
  const std::string good = read_all(sample("zoo_conv.graph.json"));
  const std::string truncated = temp_file("truncated.graph.json", good.substr(0, good.size() / 2));
  Status st = e.load_file(truncated);
  EXPECT_EQ(st.code, StatusCode::BadGraph);
  EXPECT_NE(st.message.find("truncated.graph.json"), std::string::npos) << st.message;

  st = e.load_file("/no/such/file.graph.json");
  EXPECT_EQ(st.code, StatusCode::IoError);
  EXPECT_NE(st.message.find("/no/such/file.graph.json"), std::string::npos) << st.message;

  const std::string garbage = "\x01\x02 not a graph";
  st = e.load_memory(garbage.data(), garbage.size(), "garbage-buffer");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("garbage-buffer"), std::string::npos) << st.message;

  // a FlatBuffers identifier with a corrupt body
  std::string fake_fb(64, '\0');
  fake_fb.replace(4, 4, "SSGR");
  st = e.load_memory(fake_fb.data(), fake_fb.size(), "corrupt.graph.fb");
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message.find("corrupt.graph.fb"), std::string::npos) << st.message;

  // a node referring to a node that does not exist names the node
  std::string dangling = good;
  const size_t at = dangling.find("{\"node\":\"x\"}");
  ASSERT_NE(at, std::string::npos);
  dangling.replace(at, 12, "{\"node\":\"nope\"}");
  st = e.load_memory(dangling.data(), dangling.size(), "dangling.graph.json");
  EXPECT_EQ(st.code, StatusCode::BadGraph);
  EXPECT_NE(st.message.find("nope"), std::string::npos) << st.message;

  // after failed loads the engine is empty, and using it is a status too
  EXPECT_EQ(e.num_nodes(), 0u);
  EXPECT_EQ(e.propagate({{1}}).code, StatusCode::InvalidArgument);
  EXPECT_TRUE(e.guards().empty());
  EXPECT_EQ(e.load_memory(nullptr, 5).code, StatusCode::InvalidArgument);
}

TEST(Facade, BadSizesAreStatuses) {
  Engine e;
  ASSERT_TRUE(e.load_file(sample("zoo_conv.graph.json")).ok());
  EXPECT_EQ(e.propagate({}).code, StatusCode::InvalidArgument);
  EXPECT_EQ(e.propagate({{2, 8, 32}}).code, StatusCode::InvalidArgument);
  Status st = e.propagate({{2, 8, -4, 32}});
  EXPECT_EQ(st.code, StatusCode::InvalidArgument);
  EXPECT_NE(st.message.find("negative"), std::string::npos) << st.message;
  // too small for the convolutions: PyTorch would raise; the status names the node
  st = e.propagate({{2, 8, 1, 1}});
  EXPECT_EQ(st.code, StatusCode::ShapeError) << st.message;
  EXPECT_NE(st.message.find("zoo_conv"), std::string::npos) << st.message;
  // absurd sizes overflow int64 somewhere: an error, never a crash or a wrong shape
  st = e.propagate({{int64_t(1) << 62, 8, int64_t(1) << 62, int64_t(1) << 62}});
  EXPECT_FALSE(st.ok());
  EXPECT_FALSE(st.message.empty());
  // a failed propagation leaves no stale values
  NodeInfo n;
  ASSERT_TRUE(e.node(0, n).ok());
  EXPECT_TRUE(n.kind.empty());
}

TEST(Facade, OneEnginePerThreadRunsConcurrently) {
  const std::vector<std::string> files = {"resnet18.graph.json", "gpt2_small.graph.json", "zoo_conv.graph.json",
                                          "seq_ops.graph.json"};
  std::vector<std::vector<std::string>> expected;
  for (const std::string& f : files) {
    Engine e;
    EXPECT_TRUE(e.load_file(sample(f.c_str())).ok());
    EXPECT_TRUE(e.propagate_default().ok());
    expected.push_back(e.guards());
  }
  std::vector<std::vector<std::string>> got(files.size() * 2);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        Engine e;  // new engines again and again: no state may leak between them
        if (!e.load_file(sample(files[t % files.size()].c_str())).ok() || !e.propagate_default().ok()) return;
        got[t] = e.guards();
      }
    });
  for (std::thread& t : threads) t.join();
  for (size_t t = 0; t < got.size(); ++t) EXPECT_EQ(got[t], expected[t % files.size()]) << files[t % files.size()];
}

}  // namespace

namespace {

// compile_guards + evaluate: plain int64 columns in, the first failing guard's line out.
TEST(Facade, EvaluatesGuardsOverColumns) {
  Engine e;
  ASSERT_TRUE(e.load_file(sample("resnet18.graph.json")).ok());
  EXPECT_EQ(e.evaluate(nullptr, 0, 1, nullptr).code, StatusCode::InvalidArgument);  // not compiled yet
  ASSERT_TRUE(e.propagate({{2, 3, 64, 64}}).ok());
  ASSERT_TRUE(e.compile_guards().ok());
  ASSERT_EQ(e.num_columns(), 4u);
  // batch 2 and 5 pass; batch 1 fails `2 <= L['x'].size()[0]`; channels 4 fails `size()[1] == 3`
  const int64_t n[] = {2, 5, 1, 2}, c[] = {3, 3, 3, 4}, h[] = {64, 97, 64, 64}, w[] = {64, 33, 64, 64};
  const int64_t* cols[] = {n, c, h, w};
  int32_t v[4];
  ASSERT_TRUE(e.evaluate(cols, 4, 4, v).ok());
  const std::vector<std::string> g = e.guards();
  EXPECT_EQ(v[0], -1);
  EXPECT_EQ(v[1], -1);
  ASSERT_GE(v[2], 0);
  EXPECT_EQ(g[size_t(v[2])], "2 <= L['x'].size()[0]");
  ASSERT_GE(v[3], 0);
  EXPECT_EQ(g[size_t(v[3])], "L['x'].size()[1] == 3");
  EXPECT_EQ(e.evaluate(cols, 3, 4, v).code, StatusCode::InvalidArgument);  // wrong column count
}

}  // namespace
