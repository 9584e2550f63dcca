#include "formats/graph_fb_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "corpus_generated.h"
#include "formats/fb_columns.h"
#include "formats/mapped_file.h"
#include "graph/json_error_locator.h"
#include "graph/validate.h"
#include "graph_generated.h"

namespace symshape {
namespace {

using fb_detail::copy_in;
using StringVec = flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>;
constexpr uint32_t kNone = 0xffffffffu;
// 1: the original columns; 2: also spec_dim_fn (derived dims). Both read the same way (a
// missing spec_dim_fn reads as empty: no derived dim).
bool container_version_ok(uint32_t v) { return v == 1 || v == 2; }

Diagnostic diag(GraphErrc code, std::string_view file, std::string_view graph, std::string message) {
  Diagnostic d;
  d.code = code;
  d.file = std::string(file);
  d.graph = printable(graph);
  d.message = std::move(message);
  return d;
}

// The container's shared tables, with per-entry checks done once and ids resolved
// against the caller's OpTable lazily.
class Container {
 public:
  Container(const StringVec* strings, const StringVec* ops, const StringVec* keys, OpTable& table,
            const GraphLimits& lim)
      : strings_(strings), ops_(ops), keys_(keys), table_(table), lim_(lim) {
    checked_.assign(size(strings_), 0);
    op_ids_.assign(size(ops_), OpId());
    key_ids_.assign(size(keys_), KeyId());
  }

  // Returns false with `why` set when the index or the string is bad.
  bool string(uint32_t index, std::string_view& out, std::string& why) {
    if (index >= size(strings_)) return bad(why, fmt::format("string index {} out of range", index));
    const flatbuffers::String* s = strings_->Get(index);
    out = std::string_view(s->data(), s->size());
    if (!checked_[index]) {
      if (out.size() > lim_.max_string_bytes) return bad(why, "string exceeds the length limit");
      if (!simdjson::validate_utf8(out.data(), out.size())) return bad(why, "string is not valid UTF-8");
      checked_[index] = 1;
    }
    return true;
  }
  bool op(uint32_t index, OpId& out, std::string& why) {
    return intern(ops_, op_ids_, index, out, why, [&](std::string_view s) { return table_.intern_op(s); });
  }
  bool key(uint32_t index, KeyId& out, std::string& why) {
    return intern(keys_, key_ids_, index, out, why, [&](std::string_view s) { return table_.intern_key(s); });
  }

 private:
  static uint32_t size(const StringVec* v) { return v ? v->size() : 0; }
  static bool bad(std::string& why, std::string text) {
    why = std::move(text);
    return false;
  }
  template <class Id, class F>
  bool intern(const StringVec* table, std::vector<Id>& ids, uint32_t index, Id& out, std::string& why, F&& f) {
    if (index >= ids.size()) return bad(why, fmt::format("op/key index {} out of range", index));
    if (!ids[index].valid()) {
      const flatbuffers::String* s = table->Get(index);
      std::string_view sv(s->data(), s->size());
      if (sv.empty() || sv.size() > lim_.max_name_bytes || !simdjson::validate_utf8(sv.data(), sv.size()))
        return bad(why, "invalid op or kwarg name");
      ids[index] = f(sv);
    }
    out = ids[index];
    return true;
  }

  const StringVec* strings_;
  const StringVec* ops_;
  const StringVec* keys_;
  OpTable& table_;
  const GraphLimits& lim_;
  std::vector<uint8_t> checked_;
  std::vector<OpId> op_ids_;
  std::vector<KeyId> key_ids_;
};

bool producer_ok(std::string_view json, std::string& why) {
  // Re-emitted by the JSON writer, so it must be a well-formed, shallow JSON object.
  simdjson::dom::parser parser;
  if (parser.allocate(json.size() + 64, 32) != simdjson::SUCCESS) return why = "producer too large", false;
  simdjson::padded_string padded(json);
  simdjson::dom::element e;
  if (parser.parse(padded).get(e) != simdjson::SUCCESS || e.type() != simdjson::dom::element_type::OBJECT)
    return why = "producer is not a JSON object", false;
  return true;
}

// Reads one GraphData into `out`; false with `why` on a corrupt reference.
bool read_graph(const fb::GraphData* d, Container& c, Graph& out, const GraphLimits& lim, std::string& why) {
  GraphStore& s = out.mutable_store();
  if (!d) return why = "missing graph table", false;
  if (const auto* strs = d->strings()) {
    for (uint32_t i = 0; i < strs->size(); ++i) {
      std::string_view text;
      if (!c.string(strs->Get(i), text, why)) return false;
      // Local ids must be dense and distinct, or interning would renumber them.
      if (s.strings.intern(text).index() != i) return why = "duplicate entry in a graph's string list", false;
    }
  }
  s.name = StrId(d->name());
  s.format_version = d->format_version();
  if (s.format_version != 1) return why = fmt::format("unsupported fx-graph-json version {}", s.format_version), false;
  if (const auto* p = d->producer_json()) {
    s.producer_json.assign(p->data(), p->size());
    if (s.producer_json.size() > lim.max_string_bytes) return why = "producer too large", false;
    if (!producer_ok(s.producer_json, why)) return false;
  }
  copy_in(s.node_kind, d->node_kind());
  copy_in(s.node_name, d->node_name());
  copy_in(s.node_target, d->node_target());
  std::vector<uint32_t> node_op;
  copy_in(node_op, d->node_op());
  s.node_op.resize(node_op.size());
  for (size_t i = 0; i < node_op.size(); ++i)
    if (node_op[i] != kNone && !c.op(node_op[i], s.node_op[i], why)) return false;
  copy_in(s.node_args, d->node_args());
  copy_in(s.node_kwargs, d->node_kwargs());
  copy_in(s.node_meta, d->node_meta());
  s.output = NodeId(d->output());
  copy_in(s.arg_kind, d->arg_kind());
  copy_in(s.arg_payload, d->arg_payload());
  copy_in(s.arg_refs, d->arg_refs());
  copy_in(s.kwargs, d->kwargs());
  for (Kwarg& kw : s.kwargs)
    if (!c.key(kw.key.value, kw.key, why)) return false;
  copy_in(s.ph_node, d->ph_node());
  copy_in(s.ph_dtype, d->ph_dtype());
  copy_in(s.ph_rank, d->ph_rank());
  copy_in(s.ph_has_range, d->ph_has_range());
  copy_in(s.ph_range_lo, d->ph_range_lo());
  copy_in(s.ph_range_hi, d->ph_range_hi());
  copy_in(s.attr_node, d->attr_node());
  copy_in(s.attr_dtype, d->attr_dtype());
  copy_in(s.attr_dims_first, d->attr_dims_first());
  copy_in(s.attr_rank, d->attr_rank());
  copy_in(s.attr_data, d->attr_data());
  copy_in(s.attr_ints, d->attr_ints());
  copy_in(s.spec_of_ph, d->spec_of_ph());
  copy_in(s.spec_dims, d->spec_dims());
  copy_in(s.sym_name, d->sym_name());
  copy_in(s.sym_min, d->sym_min());
  copy_in(s.sym_max, d->sym_max());
  copy_in(s.sym_has_max, d->sym_has_max());
  copy_in(s.spec_dim_fn, d->spec_dim_fn());
  copy_in(s.ex_seed, d->ex_seed());
  copy_in(s.ex_in_spec, d->ex_in_spec());
  copy_in(s.ex_ok, d->ex_ok());
  copy_in(s.ex_error, d->ex_error());
  copy_in(s.ex_error_kind, d->ex_error_kind());
  copy_in(s.ex_error_node, d->ex_error_node());
  copy_in(s.ex_has_values, d->ex_has_values());
  copy_in(s.ex_inputs, d->ex_inputs());
  copy_in(s.ex_sizes, d->ex_sizes());
  copy_in(s.ex_golden, d->ex_golden());
  copy_in(s.value_kind, d->value_kind());
  copy_in(s.value_payload, d->value_payload());
  copy_in(s.value_ints, d->value_ints());
  copy_in(s.value_refs, d->value_refs());
  return true;
}

// Integrity, then the name index, then semantic validation (same rules as JSON).
bool finish_graph(Graph& g, std::string_view file, const GraphLimits& lim, Diagnostics& diags) {
  if (!check_graph_integrity(g, file, lim, diags)) return false;
  GraphStore& s = g.mutable_store();
  s.node_by_name.assign(s.strings.size(), NodeId());
  for (uint32_t i = 0; i < s.num_nodes(); ++i) {
    NodeId& slot = s.node_by_name[s.node_name[i].index()];
    if (!slot.valid()) slot = NodeId(i);
  }
  if (!validate_graph(g, file, diags)) return false;
  s.derive();
  return true;
}

bool verify_size(size_t size, std::string_view name, Diagnostics& diags) {
  if (size >= FLATBUFFERS_MAX_BUFFER_SIZE) {
    diags.add(diag(GraphErrc::Limit, name, {}, "file too large for FlatBuffers"));
    return false;
  }
  return true;
}

}  // namespace

bool load_graph_fb_buffer(const uint8_t* data, size_t size, std::string_view name, OpTable& ops, Graph& out,
                          Diagnostics& diags, const GraphLimits& limits) {
  out = Graph(ops);
  if (!verify_size(size, name, diags)) return false;
  if (size < 8 || !fb::GraphFileBufferHasIdentifier(data)) {
    diags.add(diag(GraphErrc::Format, name, {}, "not a symshape graph FlatBuffers file (identifier 'SSGR' missing)"));
    return false;
  }
  flatbuffers::Verifier verifier(data, size, /*max_depth=*/16, /*max_tables=*/1024);
  if (!fb::VerifyGraphFileBuffer(verifier)) {
    diags.add(diag(GraphErrc::Format, name, {}, "FlatBuffers verification failed (truncated or corrupt file)"));
    return false;
  }
  const fb::GraphFile* file = fb::GetGraphFile(data);
  if (!container_version_ok(file->version())) {
    diags.add(diag(GraphErrc::Version, name, {}, fmt::format("unsupported graph file version {} (this reader supports 1 and 2)", file->version())));
    return false;
  }
  Container c(file->strings(), file->ops(), file->keys(), ops, limits);
  std::string why;
  if (!read_graph(file->graph(), c, out, limits, why)) {
    diags.add(diag(GraphErrc::Corrupt, name, {}, "corrupt graph data: " + why));
    out = Graph(ops);
    return false;
  }
  if (!finish_graph(out, name, limits, diags)) {
    out = Graph(ops);
    return false;
  }
  return true;
}

bool load_graph_fb_file(const std::string& path, OpTable& ops, Graph& out, Diagnostics& diags, const GraphLimits& limits) {
  MappedFile f;
  std::string error;
  if (!f.open(path, limits.max_file_bytes, error)) {
    out = Graph(ops);
    diags.add(diag(GraphErrc::Io, path, {}, error));
    return false;
  }
  return load_graph_fb_buffer(f.data(), f.size(), path, ops, out, diags, limits);
}

bool load_corpus_fb_buffer(const uint8_t* data, size_t size, std::string_view name, OpTable& ops,
                           std::vector<Graph>& out, Diagnostics& diags, const GraphLimits& limits) {
  if (!verify_size(size, name, diags)) return false;
  if (size < 8 || !fb::CorpusFileBufferHasIdentifier(data)) {
    diags.add(diag(GraphErrc::Format, name, {}, "not a symshape corpus FlatBuffers file (identifier 'SSCP' missing)"));
    return false;
  }
  flatbuffers::Verifier verifier(data, size, /*max_depth=*/16, /*max_tables=*/1'000'000);
  if (!fb::VerifyCorpusFileBuffer(verifier)) {
    diags.add(diag(GraphErrc::Format, name, {}, "FlatBuffers verification failed (truncated or corrupt file)"));
    return false;
  }
  const fb::CorpusFile* file = fb::GetCorpusFile(data);
  if (!container_version_ok(file->version())) {
    diags.add(diag(GraphErrc::Version, name, {}, fmt::format("unsupported corpus file version {} (this reader supports 1 and 2)", file->version())));
    return false;
  }
  Container c(file->strings(), file->ops(), file->keys(), ops, limits);
  bool all_ok = true;
  const auto* graphs = file->graphs();
  for (uint32_t i = 0; graphs && i < graphs->size(); ++i) {
    Graph g(ops);
    std::string why;
    const std::string where = fmt::format("{} [graph {}]", name, i);
    if (!read_graph(graphs->Get(i), c, g, limits, why)) {
      diags.add(diag(GraphErrc::Corrupt, where, {}, "corrupt graph data: " + why));
      all_ok = false;
      continue;
    }
    if (!finish_graph(g, where, limits, diags)) {
      all_ok = false;
      continue;
    }
    out.push_back(std::move(g));
  }
  return all_ok;
}

bool load_corpus_fb_file(const std::string& path, OpTable& ops, std::vector<Graph>& out, Diagnostics& diags,
                         const GraphLimits& limits) {
  MappedFile f;
  std::string error;
  if (!f.open(path, limits.max_file_bytes, error)) {
    diags.add(diag(GraphErrc::Io, path, {}, error));
    return false;
  }
  return load_corpus_fb_buffer(f.data(), f.size(), path, ops, out, diags, limits);
}

}  // namespace symshape
