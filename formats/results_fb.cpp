#include "formats/results_fb.h"

#include <fmt/format.h>

#include "formats/mapped_file.h"
#include "results_generated.h"

namespace symshape {
namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> strings(FlatBufferBuilder& b, const std::vector<std::string>& v) {
  std::vector<Offset<flatbuffers::String>> offs;
  offs.reserve(v.size());
  for (const std::string& s : v) offs.push_back(b.CreateString(s));
  return b.CreateVector(offs);
}

std::string str(const flatbuffers::String* s) { return s ? s->str() : std::string(); }

std::vector<std::string> strs(const flatbuffers::Vector<Offset<flatbuffers::String>>* v) {
  std::vector<std::string> out;
  if (v)
    for (const flatbuffers::String* s : *v) out.push_back(str(s));
  return out;
}

}  // namespace

const char* graph_status_name(GraphStatus s) {
  switch (s) {
    case GraphStatus::Ok: return "ok";
    case GraphStatus::LoadError: return "load_error";
    case GraphStatus::PropagationError: return "propagation_error";
    case GraphStatus::Unsupported: return "unsupported";
  }
  return "?";
}

flatbuffers::DetachedBuffer write_results_fb(const Results& r) {
  FlatBufferBuilder b(1 << 12);
  std::vector<Offset<fb::GraphResult>> graphs;
  for (const GraphResults& g : r.graphs) {
    std::vector<Offset<fb::Specialization>> specs;
    for (const SpecializationResult& s : g.specializations)
      specs.push_back(fb::CreateSpecialization(b, b.CreateString(s.symbol), s.value, b.CreateString(s.reason)));
    std::vector<Offset<fb::NodeShape>> shapes;
    for (const NodeShapeResult& n : g.node_shapes)
      shapes.push_back(fb::CreateNodeShape(b, n.node, b.CreateString(n.name), uint8_t(n.kind), uint8_t(n.dtype),
                                           strings(b, n.shape), strings(b, n.stride), b.CreateString(n.text)));
    std::vector<Offset<fb::Verdict>> verdicts;
    for (const VerdictResult& v : g.verdicts)
      verdicts.push_back(fb::CreateVerdict(b, v.example, v.expected_ok, v.predicted_ok, v.matches,
                                           b.CreateString(v.error_node), b.CreateString(v.message), v.specialization,
                                           v.has_expected));
    std::vector<Offset<fb::SpecializationEntry>> entries;
    for (const SpecializationEntryResult& e : g.entries)
      entries.push_back(
          fb::CreateSpecializationEntry(b, e.first_example, strings(b, e.guards), strings(b, e.created_by), e.accepted));
    const auto timing = fb::CreateTiming(b, g.timing.propagate_ns, g.timing.compile_ns, g.timing.eval_ns);
    graphs.push_back(fb::CreateGraphResult(b, b.CreateString(g.name), g.ok, b.CreateString(g.error), b.CreateVector(specs),
                                           strings(b, g.guards), b.CreateVector(shapes), b.CreateVector(verdicts),
                                           b.CreateString(g.file), uint8_t(g.status), g.nodes,
                                           b.CreateString(g.error_node), strings(b, g.hints),
                                           b.CreateString(g.hints_from), b.CreateVector(entries), g.examples, timing));
  }
  fb::FinishResultsBuffer(b, fb::CreateResults(b, 1, b.CreateString(r.producer), b.CreateVector(graphs)));
  return b.Release();
}

bool read_results_fb(const uint8_t* data, size_t size, Results& out, std::string& error) {
  out = Results();
  if (size < 8 || size >= FLATBUFFERS_MAX_BUFFER_SIZE || !fb::ResultsBufferHasIdentifier(data)) {
    error = "not a symshape results file (identifier 'SSRS' missing)";
    return false;
  }
  flatbuffers::Verifier verifier(data, size, 16, 10'000'000);
  if (!fb::VerifyResultsBuffer(verifier)) {
    error = "FlatBuffers verification failed (truncated or corrupt file)";
    return false;
  }
  const fb::Results* r = fb::GetResults(data);
  if (r->version() != 1) {
    error = fmt::format("unsupported results version {} (this reader supports 1)", r->version());
    return false;
  }
  out.producer = str(r->producer());
  if (!r->graphs()) return true;
  for (const fb::GraphResult* g : *r->graphs()) {
    GraphResults gr;
    gr.name = str(g->name());
    gr.ok = g->ok();
    gr.error = str(g->error());
    if (g->specializations())
      for (const fb::Specialization* s : *g->specializations())
        gr.specializations.push_back({str(s->symbol()), s->value(), str(s->reason())});
    gr.guards = strs(g->guards());
    if (g->node_shapes()) {
      for (const fb::NodeShape* n : *g->node_shapes()) {
        if (n->kind() > uint8_t(ResultValueKind::Other) || n->dtype() >= kNumDTypes) {
          error = fmt::format("graph '{}': node shape with invalid kind/dtype", gr.name);
          return false;
        }
        gr.node_shapes.push_back({n->node(), str(n->name()), ResultValueKind(n->kind()), DType(n->dtype()),
                                  strs(n->shape()), strs(n->stride()), str(n->text())});
      }
    }
    if (g->verdicts())
      for (const fb::Verdict* v : *g->verdicts())
        gr.verdicts.push_back({v->example(), v->expected_ok(), v->predicted_ok(), v->matches(), str(v->error_node()),
                               str(v->message()), v->specialization(), v->has_expected()});
    gr.file = str(g->file());
    if (g->status() > uint8_t(GraphStatus::Unsupported)) {
      error = fmt::format("graph '{}': invalid status {}", gr.name, g->status());
      return false;
    }
    gr.status = GraphStatus(g->status());
    gr.nodes = g->nodes();
    gr.error_node = str(g->error_node());
    gr.hints = strs(g->hints());
    gr.hints_from = str(g->hints_from());
    if (g->entries())
      for (const fb::SpecializationEntry* e : *g->entries())
        gr.entries.push_back({e->first_example(), strs(e->guards()), strs(e->created_by()), e->accepted()});
    gr.examples = g->examples();
    if (const fb::Timing* t = g->timing()) gr.timing = {t->propagate_ns(), t->compile_ns(), t->eval_ns()};
    out.graphs.push_back(std::move(gr));
  }
  return true;
}

bool load_results_fb_file(const std::string& path, Results& out, std::string& error) {
  MappedFile f;
  if (!f.open(path, uint64_t(1) << 31, error)) return false;
  return read_results_fb(f.data(), f.size(), out, error);
}

}  // namespace symshape
