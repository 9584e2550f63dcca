#include "formats/graph_fb_writer.h"

#include <fmt/format.h>

#include <cstdio>

#include "corpus_generated.h"
#include "formats/fb_columns.h"
#include "graph_generated.h"

namespace symshape {
namespace {

using fb_detail::column_bytes;
using fb_detail::copy_out;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

constexpr uint32_t kNone = 0xffffffffu;
// Version 1 files have no spec_dim_fn; a file whose graphs carry a derived dim is written as
// version 2, so a reader that predates derived dims refuses it instead of reading `b + 1` as `b`.
constexpr uint32_t kContainerVersion = 1;
constexpr uint32_t kDerivedContainerVersion = 2;
uint32_t container_version(std::span<const Graph> graphs) {
  for (const Graph& g : graphs)
    if (g.spec_has_derived()) return kDerivedContainerVersion;
  return kContainerVersion;
}
// Headroom below FlatBuffers' 2 GiB buffer limit for tables, alignment and strings.
constexpr uint64_t kMaxColumnBytes = uint64_t(1800) << 20;

// The string/op/key tables of one output file, shared by all graphs written into it.
struct Tables {
  StringPool strings;
  StringPool ops;
  StringPool keys;

  Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> write(FlatBufferBuilder& b, const StringPool& pool) {
    std::vector<Offset<flatbuffers::String>> offs(pool.size());
    for (uint32_t i = 0; i < pool.size(); ++i) {
      std::string_view s = pool.get(StrId(i));
      offs[i] = b.CreateString(s.data(), s.size());
    }
    return b.CreateVector(offs);
  }
};

uint64_t graph_bytes(const GraphStore& s) {
  return s.strings.byte_size() + s.producer_json.size() + column_bytes(s.node_kind) * 33 + column_bytes(s.arg_kind) * 9 +
         column_bytes(s.arg_refs) + column_bytes(s.kwargs) + column_bytes(s.attr_ints) + column_bytes(s.spec_dims) +
         column_bytes(s.ex_inputs) + column_bytes(s.ex_sizes) + column_bytes(s.ex_golden) + column_bytes(s.value_kind) * 9 +
         column_bytes(s.value_ints) + column_bytes(s.value_refs) + column_bytes(s.ph_node) * 30 + column_bytes(s.attr_node) * 25 +
         column_bytes(s.ex_seed) * 4 + column_bytes(s.sym_name) * 6;
}

Offset<fb::GraphData> write_graph_data(FlatBufferBuilder& b, const Graph& g, Tables& t) {
  const GraphStore& s = g.store();
  std::vector<uint32_t> strings(s.strings.size());
  for (uint32_t i = 0; i < strings.size(); ++i) strings[i] = t.strings.intern(s.strings.get(StrId(i))).index();
  // OpIds/KeyIds of the in-memory OpTable -> indexes into this file's op/key tables.
  std::vector<uint32_t> node_op(s.node_op.size(), kNone);
  for (size_t i = 0; i < node_op.size(); ++i)
    if (s.node_op[i].valid()) node_op[i] = t.ops.intern(g.ops().op_name(s.node_op[i])).index();
  std::vector<Kwarg> kwargs(s.kwargs);
  for (Kwarg& kw : kwargs) kw.key = KeyId(t.keys.intern(g.ops().key_name(kw.key)).index());

  auto v_strings = copy_out<uint32_t>(b, strings);
  auto v_producer = s.producer_json.empty() ? Offset<flatbuffers::String>() : b.CreateString(s.producer_json);
  auto v_node_kind = copy_out<uint8_t>(b, s.node_kind);
  auto v_node_name = copy_out<uint32_t>(b, s.node_name);
  auto v_node_target = copy_out<uint32_t>(b, s.node_target);
  auto v_node_op = copy_out<uint32_t>(b, node_op);
  auto v_node_args = copy_out<const fb::Span*>(b, s.node_args);
  auto v_node_kwargs = copy_out<const fb::Span*>(b, s.node_kwargs);
  auto v_node_meta = copy_out<uint32_t>(b, s.node_meta);
  auto v_arg_kind = copy_out<uint8_t>(b, s.arg_kind);
  auto v_arg_payload = copy_out<uint64_t>(b, s.arg_payload);
  auto v_arg_refs = copy_out<uint32_t>(b, s.arg_refs);
  auto v_kwargs = copy_out<const fb::Kwarg*>(b, kwargs);
  auto v_ph_node = copy_out<uint32_t>(b, s.ph_node);
  auto v_ph_dtype = copy_out<uint8_t>(b, s.ph_dtype);
  auto v_ph_rank = copy_out<uint32_t>(b, s.ph_rank);
  auto v_ph_has_range = copy_out<uint8_t>(b, s.ph_has_range);
  auto v_ph_range_lo = copy_out<int64_t>(b, s.ph_range_lo);
  auto v_ph_range_hi = copy_out<int64_t>(b, s.ph_range_hi);
  auto v_attr_node = copy_out<uint32_t>(b, s.attr_node);
  auto v_attr_dtype = copy_out<uint8_t>(b, s.attr_dtype);
  auto v_attr_dims_first = copy_out<uint32_t>(b, s.attr_dims_first);
  auto v_attr_rank = copy_out<uint32_t>(b, s.attr_rank);
  auto v_attr_data = copy_out<const fb::Span*>(b, s.attr_data);
  auto v_attr_ints = copy_out<int64_t>(b, s.attr_ints);
  auto v_spec_of_ph = copy_out<const fb::Span*>(b, s.spec_of_ph);
  auto v_spec_dims = copy_out<const fb::SpecDim*>(b, s.spec_dims);
  auto v_sym_name = copy_out<uint32_t>(b, s.sym_name);
  auto v_sym_min = copy_out<int64_t>(b, s.sym_min);
  auto v_sym_max = copy_out<int64_t>(b, s.sym_max);
  auto v_sym_has_max = copy_out<uint8_t>(b, s.sym_has_max);
  auto v_spec_dim_fn = s.spec_dim_fn.empty() ? Offset<flatbuffers::Vector<const fb::SpecDimFn*>>()
                                             : copy_out<const fb::SpecDimFn*>(b, s.spec_dim_fn);
  auto v_ex_seed = copy_out<int64_t>(b, s.ex_seed);
  auto v_ex_in_spec = copy_out<uint8_t>(b, s.ex_in_spec);
  auto v_ex_ok = copy_out<uint8_t>(b, s.ex_ok);
  auto v_ex_error = copy_out<uint32_t>(b, s.ex_error);
  auto v_ex_error_kind = copy_out<uint8_t>(b, s.ex_error_kind);
  auto v_ex_error_node = copy_out<uint32_t>(b, s.ex_error_node);
  auto v_ex_has_values = copy_out<uint8_t>(b, s.ex_has_values);
  auto v_ex_inputs = copy_out<const fb::Span*>(b, s.ex_inputs);
  auto v_ex_sizes = copy_out<int64_t>(b, s.ex_sizes);
  auto v_ex_golden = copy_out<uint32_t>(b, s.ex_golden);
  auto v_value_kind = copy_out<uint8_t>(b, s.value_kind);
  auto v_value_payload = copy_out<uint64_t>(b, s.value_payload);
  auto v_value_ints = copy_out<int64_t>(b, s.value_ints);
  auto v_value_refs = copy_out<uint32_t>(b, s.value_refs);

  fb::GraphDataBuilder gd(b);
  gd.add_strings(v_strings);
  gd.add_name(s.name.value);
  if (!v_producer.IsNull()) gd.add_producer_json(v_producer);
  gd.add_format_version(s.format_version);
  gd.add_node_kind(v_node_kind);
  gd.add_node_name(v_node_name);
  gd.add_node_target(v_node_target);
  gd.add_node_op(v_node_op);
  gd.add_node_args(v_node_args);
  gd.add_node_kwargs(v_node_kwargs);
  gd.add_node_meta(v_node_meta);
  gd.add_output(s.output.value);
  gd.add_arg_kind(v_arg_kind);
  gd.add_arg_payload(v_arg_payload);
  gd.add_arg_refs(v_arg_refs);
  gd.add_kwargs(v_kwargs);
  gd.add_ph_node(v_ph_node);
  gd.add_ph_dtype(v_ph_dtype);
  gd.add_ph_rank(v_ph_rank);
  gd.add_ph_has_range(v_ph_has_range);
  gd.add_ph_range_lo(v_ph_range_lo);
  gd.add_ph_range_hi(v_ph_range_hi);
  gd.add_attr_node(v_attr_node);
  gd.add_attr_dtype(v_attr_dtype);
  gd.add_attr_dims_first(v_attr_dims_first);
  gd.add_attr_rank(v_attr_rank);
  gd.add_attr_data(v_attr_data);
  gd.add_attr_ints(v_attr_ints);
  gd.add_spec_of_ph(v_spec_of_ph);
  gd.add_spec_dims(v_spec_dims);
  gd.add_sym_name(v_sym_name);
  gd.add_sym_min(v_sym_min);
  gd.add_sym_max(v_sym_max);
  gd.add_sym_has_max(v_sym_has_max);
  if (!s.spec_dim_fn.empty()) gd.add_spec_dim_fn(v_spec_dim_fn);
  gd.add_ex_seed(v_ex_seed);
  gd.add_ex_in_spec(v_ex_in_spec);
  gd.add_ex_ok(v_ex_ok);
  gd.add_ex_error(v_ex_error);
  gd.add_ex_error_kind(v_ex_error_kind);
  gd.add_ex_error_node(v_ex_error_node);
  gd.add_ex_has_values(v_ex_has_values);
  gd.add_ex_inputs(v_ex_inputs);
  gd.add_ex_sizes(v_ex_sizes);
  gd.add_ex_golden(v_ex_golden);
  gd.add_value_kind(v_value_kind);
  gd.add_value_payload(v_value_payload);
  gd.add_value_ints(v_value_ints);
  gd.add_value_refs(v_value_refs);
  return gd.Finish();
}

}  // namespace

bool write_graph_fb(const Graph& g, flatbuffers::DetachedBuffer& out, std::string& error) {
  if (g.num_subgraphs() != 0) {
    error = "graph has subgraphs, which the FlatBuffers format cannot carry";
    return false;
  }
  if (graph_bytes(g.store()) > kMaxColumnBytes) {
    error = "graph too large for a FlatBuffers file (2 GiB limit)";
    return false;
  }
  FlatBufferBuilder b(1 << 16);
  Tables t;
  auto data = write_graph_data(b, g, t);
  auto strings = t.write(b, t.strings);
  auto ops = t.write(b, t.ops);
  auto keys = t.write(b, t.keys);
  fb::FinishGraphFileBuffer(b, fb::CreateGraphFile(b, container_version(std::span<const Graph>(&g, 1)), strings, ops, keys, data));
  out = b.Release();
  return true;
}

bool write_corpus_fb(std::span<const Graph> graphs, flatbuffers::DetachedBuffer& out, std::string& error) {
  uint64_t total = 0;
  for (const Graph& g : graphs) {
    if (g.num_subgraphs() != 0) {
      error = fmt::format("graph '{}' has subgraphs, which the FlatBuffers format cannot carry", g.name());
      return false;
    }
    total += graph_bytes(g.store());
  }
  if (total > kMaxColumnBytes) {
    error = "corpus too large for one FlatBuffers file (2 GiB limit); split it";
    return false;
  }
  FlatBufferBuilder b(1 << 20);
  Tables t;
  std::vector<Offset<fb::GraphData>> datas;
  datas.reserve(graphs.size());
  for (const Graph& g : graphs) datas.push_back(write_graph_data(b, g, t));
  auto v_graphs = b.CreateVector(datas);
  auto strings = t.write(b, t.strings);
  auto ops = t.write(b, t.ops);
  auto keys = t.write(b, t.keys);
  fb::FinishCorpusFileBuffer(b, fb::CreateCorpusFile(b, container_version(graphs), strings, ops, keys, v_graphs));
  out = b.Release();
  return true;
}

bool write_bytes_file(const std::string& path, const uint8_t* data, size_t size, std::string& error) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    error = "cannot open for writing";
    return false;
  }
  bool ok = std::fwrite(data, 1, size, f) == size;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) error = "write failed";
  return ok;
}

}  // namespace symshape
