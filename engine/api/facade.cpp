// The public facade (include/symshape/symshape.h) over the engine: a graph, its current
// propagation and its compiled guards behind a pimpl. Every entry point catches what the
// engine may throw and turns it into a Status, so no exception crosses the boundary.
#include <fmt/core.h>

#include <symshape/symshape.h>

#include <cstring>
#include <optional>

#include "batch/guard_eval.h"
#include "conform/specialization.h"
#include "corpus/hints.h"
#include "corpus/node_shapes.h"
#include "formats/fb_kind.h"
#include "formats/graph_fb_reader.h"
#include "formats/graph_io.h"
#include "graph/json_loader.h"

namespace symshape::api {
namespace {

// One op/kwarg table for every Engine of the process: interning is thread-safe, and a
// shared table can never be freed under an op rule's per-thread key cache.
OpTable& shared_ops() {
  static OpTable* ops = new OpTable();  // never destroyed: rules may cache its ids
  return *ops;
}

Status status(StatusCode code, std::string message) { return Status{code, std::move(message)}; }

StatusCode code_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Unsupported: return StatusCode::Unsupported;
    case ErrorKind::BadInput: return StatusCode::BadGraph;
    case ErrorKind::Internal: return StatusCode::Internal;
    default: return StatusCode::ShapeError;
  }
}

std::string diagnostics_text(const Diagnostics& diags, std::string_view name) {
  std::string out;
  for (const Diagnostic& d : diags.items) {
    if (!out.empty()) out += '\n';
    out += d.format();
  }
  return out.empty() ? std::string(name) + ": failed to load" : out;
}

// Runs `body`, mapping any escaping exception to a Status.
template <class F>
Status guarded(std::string_view what, F&& body) noexcept {
  try {
    return body();
  } catch (const Error& e) {
    return status(code_of(e.kind()), fmt::format("{}: {}", what, e.what()));
  } catch (const std::bad_alloc&) {
    return status(StatusCode::Internal, fmt::format("{}: out of memory", what));
  } catch (const std::exception& e) {
    return status(StatusCode::Internal, fmt::format("{}: {}", what, e.what()));
  } catch (...) {
    return status(StatusCode::Internal, fmt::format("{}: unknown error", what));
  }
}

}  // namespace

struct Engine::Impl {
  Graph graph{shared_ops()};
  bool loaded = false;
  std::string source;  // file name or memory name, for messages
  RuleTable rules;
  std::unique_ptr<SpecializationCache> cache;  // holds the current propagation (entry 0)
  bool compiled = false;
  GuardProgram program;

  const Specialization* current() const { return cache && cache->size() ? &cache->at(0) : nullptr; }

  Status finish_load(bool ok, const Diagnostics& diags, std::string_view name) {
    cache.reset();
    compiled = false;
    loaded = ok;
    source = std::string(name);
    if (!ok) {
      graph = Graph(shared_ops());
      return status(diags.items.empty() || diags.items[0].code != GraphErrc::Io ? StatusCode::BadGraph
                                                                                : StatusCode::IoError,
                    diagnostics_text(diags, name));
    }
    rules.resolve(shared_ops());
    return {};
  }

  Status run(const std::vector<std::vector<int64_t>>& sizes) {
    if (!loaded) return status(StatusCode::InvalidArgument, "propagate: no graph loaded");
    if (sizes.size() != graph.num_placeholders())
      return status(StatusCode::InvalidArgument, fmt::format("propagate: graph '{}' has {} inputs, {} sizes given",
                                                             graph.name(), graph.num_placeholders(), sizes.size()));
    for (uint32_t p = 0; p < graph.num_placeholders(); ++p) {
      const uint32_t rank = graph.placeholder_rank(PlaceholderId(p));
      if (sizes[p].size() != rank)
        return status(StatusCode::InvalidArgument,
                      fmt::format("propagate: input '{}' has rank {}, {} sizes given",
                                  graph.node_name(graph.placeholder_node(PlaceholderId(p))), rank, sizes[p].size()));
      for (int64_t s : sizes[p])
        if (s < 0)
          return status(StatusCode::InvalidArgument,
                        fmt::format("propagate: input '{}' has a negative size {}",
                                    graph.node_name(graph.placeholder_node(PlaceholderId(p))), s));
    }
    compiled = false;
    cache = std::make_unique<SpecializationCache>(graph, rules);
    const std::vector<std::span<const int64_t>> spans(sizes.begin(), sizes.end());
    PropStatus st;
    if (!cache->add(spans, 0, st)) {
      cache.reset();
      return status(code_of(st.kind), fmt::format("{}: graph '{}': {}", source, graph.name(), st.message));
    }
    return {};
  }
};

Engine::Engine() : impl_(std::make_unique<Impl>()) {}
Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

Status Engine::load_file(const std::string& path) {
  return guarded(path, [&] {
    thread_local JsonGraphLoader json;
    Diagnostics diags;
    const bool ok = load_graph(path, shared_ops(), impl_->graph, json, diags);
    return impl_->finish_load(ok, diags, path);
  });
}

Status Engine::load_memory(const void* data, size_t size, std::string_view name) {
  return guarded(name, [&] {
    if (data == nullptr && size != 0) return status(StatusCode::InvalidArgument, fmt::format("{}: null data", name));
    // FlatBuffers wants aligned bytes; the caller's need not be
    std::vector<uint64_t> aligned((size + 7) / 8);
    if (size) std::memcpy(aligned.data(), data, size);
    const auto* bytes = reinterpret_cast<const uint8_t*>(aligned.data());
    Diagnostics diags;
    bool ok = false;
    impl_->graph = Graph(shared_ops());
    switch (detect_file_kind(bytes, size)) {
      case FileKind::GraphFb: ok = load_graph_fb_buffer(bytes, size, name, shared_ops(), impl_->graph, diags); break;
      case FileKind::CorpusFb:
      case FileKind::ExamplesFb:
      case FileKind::ResultsFb: {
        Diagnostic d;
        d.code = GraphErrc::Format;
        d.file = std::string(name);
        d.message = "this FlatBuffers buffer holds no single graph";
        diags.add(std::move(d));
        break;
      }
      default: {
        thread_local JsonGraphLoader json;
        ok = json.load_buffer(std::string_view(reinterpret_cast<const char*>(bytes), size), name, shared_ops(),
                              impl_->graph, diags);
      }
    }
    return impl_->finish_load(ok, diags, name);
  });
}

std::string Engine::graph_name() const { return impl_->loaded ? std::string(impl_->graph.name()) : std::string(); }
size_t Engine::num_nodes() const { return impl_->loaded ? impl_->graph.num_nodes() : 0; }
size_t Engine::num_inputs() const { return impl_->loaded ? impl_->graph.num_placeholders() : 0; }
size_t Engine::num_examples() const { return impl_->loaded ? impl_->graph.num_examples() : 0; }

std::string Engine::input_name(size_t input) const {
  if (input >= num_inputs()) return {};
  return std::string(impl_->graph.node_name(impl_->graph.placeholder_node(PlaceholderId(uint32_t(input)))));
}

size_t Engine::input_rank(size_t input) const {
  return input < num_inputs() ? impl_->graph.placeholder_rank(PlaceholderId(uint32_t(input))) : 0;
}

Status Engine::propagate(const std::vector<std::vector<int64_t>>& sizes) {
  return guarded(impl_->source, [&] { return impl_->run(sizes); });
}

Status Engine::propagate_default() {
  return guarded(impl_->source, [&] {
    if (!impl_->loaded) return status(StatusCode::InvalidArgument, "propagate: no graph loaded");
    return impl_->run(choose_hints(impl_->graph).sizes);
  });
}

Status Engine::node(size_t i, NodeInfo& out) const {
  return guarded(impl_->source, [&] {
    out = NodeInfo();
    if (i >= num_nodes())
      return status(StatusCode::InvalidArgument, fmt::format("node {}: the graph has {} nodes", i, num_nodes()));
    const Graph& g = impl_->graph;
    const NodeId n{static_cast<uint32_t>(i)};
    out.name = std::string(g.node_name(n));
    out.op = std::string(node_kind_name(g.node_kind(n)));
    out.target = std::string(g.node_target(n));
    const Specialization* s = impl_->current();
    if (!s) return Status{};
    static constexpr const char* kKinds[] = {"tensor", "int", "bool", "float", "none", "list", "other"};
    NodeShapeResult r = node_shape_result(g, *s->prop, s->env->arena(), n);
    out.kind = kKinds[static_cast<uint8_t>(r.kind)];
    if (r.kind == ResultValueKind::Tensor) out.dtype = std::string(dtype_name(r.dtype));
    out.shape = std::move(r.shape);
    out.stride = std::move(r.stride);
    out.value = std::move(r.text);
    return Status{};
  });
}

std::vector<std::string> Engine::guards() const {
  const Specialization* s = impl_->current();
  if (!s) return {};
  try {
    return s->guards.text;
  } catch (...) {
    return {};
  }
}

Status Engine::compile_guards() {
  return guarded(impl_->source, [&] {
    const Specialization* s = impl_->current();
    if (!s) return status(StatusCode::InvalidArgument, "compile_guards: propagate first");
    impl_->program = symshape::compile_guards(impl_->graph, *s);
    impl_->compiled = true;
    return Status{};
  });
}

Status Engine::evaluate(const int64_t* const* columns, size_t num_columns, size_t num_examples, int32_t* verdicts) const {
  return guarded(impl_->source, [&] {
    if (!impl_->compiled) return status(StatusCode::InvalidArgument, "evaluate: compile_guards first");
    if (num_columns != this->num_columns())
      return status(StatusCode::InvalidArgument,
                    fmt::format("evaluate: graph '{}' has {} input columns, {} given", impl_->graph.name(),
                                this->num_columns(), num_columns));
    if (num_examples == 0) return Status{};
    if (columns == nullptr || verdicts == nullptr)
      return status(StatusCode::InvalidArgument, "evaluate: null columns or verdicts");
    for (size_t k = 0; k < num_columns; ++k)
      if (columns[k] == nullptr) return status(StatusCode::InvalidArgument, fmt::format("evaluate: column {} is null", k));
    const ExampleColumns ex = ExampleColumns::borrow(impl_->graph, columns, num_examples);
    std::vector<GuardFailure> why(num_examples);
    evaluate_guards(impl_->program, ex, 0, num_examples, verdicts, why.data());
    // clause index -> the guard's line in guards()
    for (size_t e = 0; e < num_examples; ++e)
      if (verdicts[e] >= 0) verdicts[e] = int32_t(impl_->program.clause_line[size_t(verdicts[e])]);
    return Status{};
  });
}

size_t Engine::num_columns() const {
  size_t n = 0;
  for (size_t p = 0; p < num_inputs(); ++p) n += input_rank(p);
  return n;
}

InputColumn Engine::column(size_t k) const {
  for (size_t p = 0; p < num_inputs(); ++p) {
    if (k < input_rank(p)) return InputColumn{input_name(p), uint32_t(k)};
    k -= input_rank(p);
  }
  return {};
}

}  // namespace symshape::api
