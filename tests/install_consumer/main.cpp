// A downstream tool built against an installed symshape through the public facade only:
// load a graph (a path argument, or a small graph held in memory), propagate it, print
// its output shape and guards.
#include <symshape/symshape.h>

#include <cstdio>
#include <string>

namespace {

// conv2d(x, w, stride 2) with a dynamic batch and spatial size
const char* kGraph = R"J({"format": "fx-graph-json", "version": 1, "name": "consumer_conv", "producer": {},
 "nodes": [
  {"name": "x", "op": "placeholder", "target": "x", "meta": {"dtype": "float32", "rank": 4}},
  {"name": "w", "op": "get_attr", "target": "w", "meta": {"shape": [4, 3, 3, 3], "dtype": "float32", "stride": [27, 9, 3, 1]}},
  {"name": "conv2d", "op": "call_function", "target": "aten.conv2d.default",
   "args": [{"node": "x"}, {"node": "w"}, null, [2, 2], [0, 0], [1, 1], 1], "kwargs": {}},
  {"name": "output", "op": "output", "target": "output", "args": [{"node": "conv2d"}]}],
 "dynamic_shapes": {"dynamic_shapes": {"x": ["batch", 3, "height", "width"]},
  "dims": {"batch": {"min": 1, "max": null, "derived": []}, "height": {"min": 1, "max": null, "derived": []},
           "width": {"min": 1, "max": null, "derived": []}}},
 "examples": []})J";

}  // namespace

int main(int argc, char** argv) {
  symshape::api::Engine engine;
  const std::string graph = kGraph;
  symshape::api::Status st =
      argc > 1 ? engine.load_file(argv[1]) : engine.load_memory(graph.data(), graph.size(), "consumer_conv");
  if (st.ok()) st = engine.propagate_default();
  if (!st.ok()) {
    std::fprintf(stderr, "error: %s\n", st.message.c_str());
    return 1;
  }
  symshape::api::NodeInfo out;
  st = engine.node(engine.num_nodes() - 2, out);  // the node before `output`
  if (!st.ok() || out.shape.empty()) return 1;
  std::printf("%s: %s [", engine.graph_name().c_str(), out.name.c_str());
  for (size_t i = 0; i < out.shape.size(); ++i) std::printf("%s%s", i ? ", " : "", out.shape[i].c_str());
  std::printf("] %zu guards\n", engine.guards().size());
  return 0;
}
