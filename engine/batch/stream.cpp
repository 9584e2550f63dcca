#include "batch/stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>

#include "conform/specialization.h"

namespace symshape {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

constexpr int32_t kUnassigned = -3;

}  // namespace

std::string recompile_reason(const StreamSpecialization& s) {
  if (s.triggered_by.empty()) return {};
  std::string out = "triggered by the following guard failure(s):";
  for (const std::string& g : s.triggered_by) out += "\n    - " + g;
  return out;
}

namespace {

// A call no specialisation serves and whose trace failed: PyTorch's error at its sizes.
void record_rejection(StreamResult& res, const Graph& g, const ExampleColumns& ex, size_t e, const PropStatus& st) {
  res.verdict[e] = kRejected;
  res.rejections.push_back({e, ex.line_of(e),
                            st.node.valid() && st.node.index() < g.num_nodes() ? std::string(g.node_name(st.node)) : "",
                            st.message});
}

// A new cache entry as eval reports it: traced at example e's sizes, program p.
StreamSpecialization describe_entry(const Specialization& s, const GuardProgram& p, const ExampleColumns& ex,
                                    size_t e, const std::vector<std::vector<int64_t>>& sizes) {
  StreamSpecialization out;
  out.first_example = e;
  out.first_line = ex.line_of(e);
  out.hints = sizes;
  out.guards = s.guards.text;
  out.clauses = p.num_clauses();
  out.instructions = p.num_instructions();
  out.program = program_listing(p);
  return out;
}

// ---- the compile policy: Dynamo's cache, call by call (docs/batch.md § --policy compile) ----

// One input of one entry, as its TENSOR_MATCH guard checks it: the traced rank, then the
// static sizes in dim order, then the static strides (torch/csrc/dynamo/guards.cpp TensorCheck).
struct TensorMatch {
  uint32_t rank = 0;
  std::vector<std::pair<uint32_t, int64_t>> sizes, strides;  // (dim, value)
};

struct CompileEntry {
  uint32_t ranks_key = 0;         // index into the rank variants
  uint64_t first = 0;             // stream position it was created at
  std::vector<int32_t> clause;    // per position from `first`: kPass, kRankFail or the first failing clause
  std::vector<std::vector<int64_t>> out_cols;
  std::vector<size_t> output_slot;
  std::vector<TensorMatch> match;  // per input
  std::vector<uint32_t> accessors;  // its guard manager's input order (Dynamo reorders it by fail counts)
  std::vector<uint32_t> fail_count;
};

// The graph as traced at other input ranks: a copy whose placeholders declare those ranks
// (the propagation, the guard program's column layout and its rank check read them).
struct RankVariant {
  std::vector<uint32_t> ranks;
  std::unique_ptr<Graph> graph;  // null: the graph itself
  std::unique_ptr<SpecializationCache> cache;
};

bool tensor_match_fails(const TensorMatch& m, std::span<const int64_t> sizes) {
  if (sizes.size() != m.rank) return true;
  for (auto [d, v] : m.sizes)
    if (sizes[d] != v) return true;
  for (auto [d, v] : m.strides) {  // contiguous strides: the product of the sizes to the right (at least 1)
    int64_t stride = 1;
    for (size_t k = d + 1; k < sizes.size(); ++k)
      if (__builtin_mul_overflow(stride, std::max<int64_t>(sizes[k], 1), &stride)) return true;
    if (stride != v) return true;
  }
  return false;
}

// Dynamo's recompile reason for one entry (torch/_dynamo/guards.py get_guard_fail_reason_helper:
// the first failure of check_verbose): its inputs' TENSOR_MATCH guards in the guard
// manager's current accessor order (rank, static sizes by dim, static strides by dim), then
// the symbolic shape guards, an epilogue of the root manager, in produce_guards order.
std::string dynamo_fail_reason(const Graph& g, SpecializationCache& cache, uint32_t k, const GuardProgram& p,
                               const CompileEntry& entry, std::span<const std::span<const int64_t>> sizes) {
  Specialization& s = cache.at(k);
  const ShapeEnv::ProducedGuards& pg = s.guards;
  const size_t neq = pg.source_equalities.size();
  auto is_tensor_match = [&](size_t j, uint32_t& ph) {
    const SourceId src = pg.source_equalities[j].first;
    for (const InputSource& in : s.prop->input_sources())
      if (in.source == src) {
        ph = in.placeholder;
        return (in.kind == SourceKind::Size || in.kind == SourceKind::Stride) &&
               s.env->arena().kind(pg.source_equalities[j].second) == ExprKind::Integer;
      }
    return false;
  };
  for (uint32_t ph : entry.accessors) {
    const TensorMatch& m = entry.match[ph];
    const std::span<const int64_t> sz = sizes[ph];
    const std::string name(g.node_name(g.placeholder_node(PlaceholderId(ph))));
    if (sz.size() != m.rank) return fmt::format("tensor '{}' rank mismatch. expected {}, actual {}", name, m.rank, sz.size());
    if (!tensor_match_fails(m, sz)) continue;
    // the failing static size or stride: its source equality's text
    for (int pass = 0; pass < 2; ++pass)
      for (auto [d, v] : pass == 0 ? m.sizes : m.strides)
        for (size_t j = 0; j < neq && j < p.num_clauses(); ++j) {
          uint32_t q = 0;
          if (!is_tensor_match(j, q) || q != ph) continue;
          const SourceId src = pg.source_equalities[j].first;
          for (const InputSource& in : s.prop->input_sources())
            if (in.source == src && in.dim == d && in.kind == (pass == 0 ? SourceKind::Size : SourceKind::Stride)) {
              const std::optional<int64_t> have = input_source_value(in, sizes);
              if (!have || *have != v) return p.clause_text[j];
            }
        }
  }
  // every TENSOR_MATCH holds: the first failing symbolic guard, in produce_guards' line order
  Bindings b;
  if (!cache.bind(s, sizes, b)) return "input rank differs from the traced one";
  const ExprArena& ar = s.env->arena();
  std::vector<std::pair<uint32_t, size_t>> rest;  // (text line, clause)
  for (size_t c = 0; c < p.num_clauses(); ++c) {
    uint32_t q = 0;
    if (c < neq && is_tensor_match(c, q)) continue;
    rest.push_back({p.clause_line[c], c});
  }
  std::stable_sort(rest.begin(), rest.end());
  for (auto [line, c] : rest) {
    bool holds = false;
    try {
      if (c < neq) {
        const auto& [src, expr] = pg.source_equalities[c];
        std::optional<int64_t> v;
        for (const InputSource& in : s.prop->input_sources())
          if (in.source == src) v = input_source_value(in, sizes);
        holds = v && evaluate_int(ar, expr, b) == *v;
      } else if (line < pg.exprs.size() && pg.exprs[line].valid()) {
        holds = evaluate_bool(ar, pg.exprs[line], b);
      } else {
        holds = true;
      }
    } catch (const Error&) {
      holds = false;
    }
    if (!holds) return p.clause_text[c];
  }
  return {};
}

StreamResult run_stream_compile(const Graph& g, const RuleTable& rules, const ExampleColumns& ex,
                                const StreamOptions& options) {
  StreamResult res;
  const size_t n = ex.num_examples();
  res.verdict.assign(n, kUnassigned);
  const uint32_t np = g.num_placeholders();
  std::vector<uint32_t> declared(np);
  for (uint32_t p = 0; p < np; ++p) declared[p] = g.placeholder_rank(PlaceholderId(p));
  std::vector<RankVariant> variants;
  auto variant_for = [&](const std::vector<uint32_t>& ranks) -> uint32_t {
    for (uint32_t i = 0; i < variants.size(); ++i)
      if (variants[i].ranks == ranks) return i;
    RankVariant v;
    v.ranks = ranks;
    if (ranks != declared) {
      v.graph = std::make_unique<Graph>(g);
      for (uint32_t p = 0; p < np; ++p) v.graph->mutable_store().ph_rank[p] = ranks[p];
    }
    v.cache = std::make_unique<SpecializationCache>(v.graph ? *v.graph : g, rules);
    // torch.compile traces with the backend flags as they are (torch.export turns them off)
    v.cache->set_reference_host(kFakeTensorModeHost);
    variants.push_back(std::move(v));
    return uint32_t(variants.size() - 1);
  };
  std::vector<GuardProgram> programs;
  std::vector<uint32_t> spec_index;  // per entry: its index in its variant's cache
  std::vector<CompileEntry> entries;
  std::vector<uint32_t> order;       // the frame's cache entry list: most recently used first
  // frame state (torch/_dynamo/pgo.py FrameStateSizeEntry): the first frame's sizes, the dims
  // that changed since, and the inputs whose rank changed (their whole size auto_dynamic)
  std::vector<std::vector<int64_t>> first_frame;
  std::vector<std::vector<uint8_t>> dynamic;
  std::vector<uint8_t> all_dynamic(np, 0);
  std::vector<std::vector<int64_t>> sizes;
  std::vector<std::span<const int64_t>> spans;
  std::vector<GuardFailure> failure;
  // the input order of a new entry's guard manager: guards are installed sorted by
  // Guard.sort_key (torch/_guards.py: source, len(name), name), each input's accessor made
  // at its first guard
  std::vector<uint32_t> accessor_order(np);
  for (uint32_t p = 0; p < np; ++p) accessor_order[p] = p;
  std::stable_sort(accessor_order.begin(), accessor_order.end(), [&](uint32_t a, uint32_t b) {
    const std::string_view na = g.node_name(g.placeholder_node(PlaceholderId(a)));
    const std::string_view nb = g.node_name(g.placeholder_node(PlaceholderId(b)));
    return na.size() != nb.size() ? na.size() < nb.size() : na < nb;
  });

  for (size_t e = 0; e < n; ++e) {
    // lookup (torch/csrc/dynamo/extra_state.cpp lookup): the entries in list order, the first
    // whose guards pass serves the call and moves to the front (use_lru)
    int32_t served = -1;
    bool have_sizes = false;
    for (size_t i = 0; i < order.size(); ++i) {
      CompileEntry& en = entries[order[i]];
      const int32_t c = en.clause[e - en.first];
      if (c == kPass) {
        served = int32_t(order[i]);
        order.erase(order.begin() + ptrdiff_t(i));
        order.insert(order.begin(), uint32_t(served));
        break;
      }
      // the guard manager counts the failure on the input accessor that failed first and,
      // when that was not its first accessor, sorts them by fail count (guards.cpp
      // GuardManager::check_nopybind; a stable insertion sort for so few accessors)
      if (np > 1 && c != kPass) {
        if (!have_sizes) {
          ex.sizes_of(e, sizes);
          have_sizes = true;
        }
        for (size_t a = 0; a < en.accessors.size(); ++a) {
          const uint32_t ph = en.accessors[a];
          if (!tensor_match_fails(en.match[ph], sizes[ph])) continue;
          ++en.fail_count[ph];
          if (a != 0)
            std::stable_sort(en.accessors.begin(), en.accessors.end(),
                             [&](uint32_t x, uint32_t y) { return en.fail_count[x] > en.fail_count[y]; });
          break;
        }
      }
    }
    if (served >= 0) {
      res.verdict[e] = served;
      continue;
    }
    if (programs.size() >= options.recompile_limit) {  // the cache is full: the call runs eagerly
      res.verdict[e] = kUncompiled;
      ++res.uncompiled;
      continue;
    }
    if (!have_sizes) ex.sizes_of(e, sizes);
    spans.assign(sizes.begin(), sizes.end());
    std::vector<uint32_t> ranks(np);
    for (uint32_t p = 0; p < np; ++p) ranks[p] = uint32_t(sizes[p].size());
    // automatic dynamic: a dim whose size differs from the first frame's becomes (and stays)
    // dynamic; an input whose rank changed is dynamic in every dim from then on
    if (first_frame.empty()) {
      first_frame = sizes;
      dynamic.assign(np, {});
      for (uint32_t p = 0; p < np; ++p) dynamic[p].assign(sizes[p].size(), 0);
    } else {
      for (uint32_t p = 0; p < np; ++p) {
        if (sizes[p].size() != first_frame[p].size()) all_dynamic[p] = 1;
        if (all_dynamic[p]) continue;
        for (size_t d = 0; d < sizes[p].size(); ++d)
          if (sizes[p][d] != first_frame[p][d]) dynamic[p][d] = 1;
      }
    }
    std::vector<std::vector<uint8_t>> mask(np);
    std::vector<std::string> dynamic_dims;
    for (uint32_t p = 0; p < np; ++p) {
      mask[p].assign(sizes[p].size(), 0);
      for (size_t d = 0; d < sizes[p].size(); ++d) {
        mask[p][d] = all_dynamic[p] || dynamic[p][d];
        if (mask[p][d])
          dynamic_dims.push_back(fmt::format("{}.size()[{}]", g.node_name(g.placeholder_node(PlaceholderId(p))), d));
      }
    }
    const uint32_t vi = variant_for(ranks);
    RankVariant& var = variants[vi];
    const Graph& vg = var.graph ? *var.graph : g;
    var.cache->set_input_policy(InputPolicy::Automatic, mask);
    const Clock::time_point t0 = Clock::now();
    PropStatus st;
    const std::optional<uint32_t> k = var.cache->add(spans, uint32_t(e), st);
    if (!k) {
      res.trace_seconds += seconds_since(t0);
      record_rejection(res, g, ex, e, st);
      continue;
    }
    const Specialization& s = var.cache->at(*k);
    programs.push_back(compile_guards(vg, s, options.size_nodes));
    res.trace_seconds += seconds_since(t0);
    const GuardProgram& p = programs.back();
    StreamSpecialization out = describe_entry(s, p, ex, e, sizes);
    out.dynamic_dims = std::move(dynamic_dims);
    // the recompile log: every entry of the list, in list order, with its failure reason
    for (uint32_t j : order) {
      const RankVariant& vj = variants[entries[j].ranks_key];
      out.triggered_by.push_back(
          dynamo_fail_reason(vj.graph ? *vj.graph : g, *vj.cache, spec_index[j], programs[j], entries[j], spans));
      out.triggered_entries.push_back(j);
    }
    CompileEntry en;
    en.ranks_key = vi;
    en.first = e;
    en.match.resize(np);
    for (uint32_t q = 0; q < np; ++q) en.match[q].rank = ranks[q];
    for (const auto& [src, expr] : s.guards.source_equalities) {
      if (s.env->arena().kind(expr) != ExprKind::Integer) continue;
      for (const InputSource& in : s.prop->input_sources())
        if (in.source == src) {
          if (in.kind == SourceKind::Size) en.match[in.placeholder].sizes.push_back({in.dim, s.env->arena().int_value(expr)});
          if (in.kind == SourceKind::Stride) en.match[in.placeholder].strides.push_back({in.dim, s.env->arena().int_value(expr)});
        }
    }
    for (TensorMatch& m : en.match) {
      std::sort(m.sizes.begin(), m.sizes.end());
      std::sort(m.strides.begin(), m.strides.end());
    }
    en.accessors = accessor_order;
    en.fail_count.assign(np, 0);
    // its program over the rest of the stream (every later call may be looked up in it)
    const size_t len = n - e;
    en.clause.assign(len, kRankFail);
    en.output_slot.resize(p.output_name.size());
    for (size_t o = 0; o < p.output_name.size(); ++o) {
      auto it = std::find(res.output_names.begin(), res.output_names.end(), p.output_name[o]);
      if (it == res.output_names.end()) {
        res.output_names.push_back(p.output_name[o]);
        res.outputs.emplace_back(n, kNoOutputValue);
        it = res.output_names.end() - 1;
      }
      en.output_slot[o] = size_t(it - res.output_names.begin());
    }
    en.out_cols.assign(p.output_name.size(), std::vector<int64_t>(len, kNoOutputValue));
    const Clock::time_point t1 = Clock::now();
    GuardEvalStats stats;
    if (ranks == declared) {
      failure.resize(len);
      std::vector<int64_t*> out_ptrs;
      for (auto& c : en.out_cols) out_ptrs.push_back(c.data());
      evaluate_guards(p, ex, e, n, en.clause.data(), failure.data(), options.eval, &stats, out_ptrs);
    } else {
      // the calls of this entry's ranks, gathered into columns of that layout
      std::vector<uint32_t> pos;
      for (size_t i = e; i < n; ++i) {
        bool same = true;
        for (uint32_t q = 0; q < np && same; ++q) same = ex.given_rank(q, i) == ranks[q];
        if (same) pos.push_back(uint32_t(i));
      }
      uint32_t ncols = 0;
      for (uint32_t r : ranks) ncols += r;
      std::vector<std::vector<int64_t>> cols(ncols, std::vector<int64_t>(pos.size()));
      std::vector<std::vector<int64_t>> row;
      for (size_t i = 0; i < pos.size(); ++i) {
        ex.sizes_of(pos[i], row);
        uint32_t c = 0;
        for (uint32_t q = 0; q < np; ++q)
          for (int64_t v : row[q]) cols[c++][i] = v;
      }
      const ExampleColumns sub = ExampleColumns::from_columns(ranks, std::move(cols));
      std::vector<int32_t> clause(pos.size());
      failure.resize(pos.size());
      std::vector<std::vector<int64_t>> sub_out(p.output_name.size(), std::vector<int64_t>(pos.size()));
      std::vector<int64_t*> out_ptrs;
      for (auto& c : sub_out) out_ptrs.push_back(c.data());
      evaluate_guards(p, sub, 0, pos.size(), clause.data(), failure.data(), options.eval, &stats, out_ptrs);
      for (size_t i = 0; i < pos.size(); ++i) {
        en.clause[pos[i] - e] = clause[i];
        for (size_t o = 0; o < sub_out.size(); ++o) en.out_cols[o][pos[i] - e] = sub_out[o][i];
      }
    }
    res.guard_seconds += seconds_since(t1);
    res.clauses += stats.clauses;
    // the call that compiled runs the new entry, whatever its guards say of its own sizes
    en.clause[0] = kPass;
    entries.push_back(std::move(en));
    spec_index.push_back(*k);
    order.insert(order.begin(), uint32_t(entries.size() - 1));
    res.verdict[e] = int32_t(entries.size() - 1);
    res.specializations.push_back(std::move(out));
  }
  for (size_t e = 0; e < n; ++e) {
    const int32_t v = res.verdict[e];
    if (v < 0) continue;
    ++res.specializations[size_t(v)].accepted;
    const CompileEntry& en = entries[size_t(v)];
    for (size_t o = 0; o < en.out_cols.size(); ++o) res.outputs[en.output_slot[o]][e] = en.out_cols[o][e - en.first];
  }
  return res;
}

}  // namespace

StreamResult run_stream(const Graph& g, const RuleTable& rules, const ExampleColumns& ex, const StreamOptions& options) {
  if (options.policy == RecompilePolicy::Compile) return run_stream_compile(g, rules, ex, options);
  StreamResult res;
  const size_t n = ex.num_examples();
  res.verdict.assign(n, kUnassigned);
  SpecializationCache cache(g, rules);
  std::vector<GuardProgram> programs;
  // What each specialisation's program said of the examples it ran over: the stream
  // positions still unserved when it was made (ascending), and per position the first
  // failing clause or kPass. A later specialisation's recompile reasons are read there.
  struct Evaluated {
    std::vector<uint32_t> rows;
    std::vector<int32_t> clause;
  };
  std::vector<Evaluated> evaluated;
  auto clause_at = [&](const Evaluated& ev, uint32_t row) -> std::optional<int32_t> {
    auto it = std::lower_bound(ev.rows.begin(), ev.rows.end(), row);
    if (it == ev.rows.end() || *it != row) return std::nullopt;
    return ev.clause[size_t(it - ev.rows.begin())];
  };
  std::vector<GuardFailure> failure;
  std::vector<std::vector<int64_t>> sizes;
  std::vector<std::span<const int64_t>> spans;
  // The examples not yet served, in stream order: position i of `*pending` is stream
  // position rows[i]. A new program runs over these only (the examples an earlier
  // specialisation serves never reach it, as in a cache lookup), so after a specialisation
  // that serves most of the stream the later ones cost little.
  std::vector<uint32_t> rows(n);
  for (size_t i = 0; i < n; ++i) rows[i] = uint32_t(i);
  ExampleColumns gathered;
  const ExampleColumns* pending = &ex;
  size_t next = 0;
  while (true) {
    while (next < rows.size() && res.verdict[rows[next]] != kUnassigned) ++next;
    if (next == rows.size()) break;
    const size_t first = next++;
    const uint32_t e = rows[first];
    ex.sizes_of(e, sizes);
    spans.assign(sizes.begin(), sizes.end());
    const Clock::time_point t0 = Clock::now();
    PropStatus st;
    const std::optional<uint32_t> k = cache.add(spans, e, st);
    if (!k) {
      res.trace_seconds += seconds_since(t0);
      record_rejection(res, g, ex, e, st);
      continue;
    }
    const Specialization& s = cache.at(*k);
    programs.push_back(compile_guards(g, s, options.size_nodes));
    res.trace_seconds += seconds_since(t0);
    const GuardProgram& p = programs.back();
    StreamSpecialization out = describe_entry(s, p, ex, e, sizes);
    for (size_t j = programs.size() - 1; j-- > 0;) {  // newest first
      const std::optional<int32_t> c = clause_at(evaluated[j], e);
      if (!c) continue;
      if (*c >= 0) out.triggered_by.push_back(programs[j].clause_text[size_t(*c)]);
      else if (*c == kRankFail) out.triggered_by.push_back("input rank differs from the traced one");
      else continue;
      out.triggered_entries.push_back(uint32_t(j));
    }
    // this program over every later example not yet served
    const size_t end = rows.size();
    Evaluated ev;
    ev.rows.assign(rows.begin() + ptrdiff_t(first), rows.end());
    ev.clause.resize(end - first);
    failure.resize(end - first);
    // this program's outputs, by name (a later specialisation may have other dims)
    std::vector<size_t> output_slot(p.output_name.size());
    for (size_t o = 0; o < p.output_name.size(); ++o) {
      auto it = std::find(res.output_names.begin(), res.output_names.end(), p.output_name[o]);
      if (it == res.output_names.end()) {
        res.output_names.push_back(p.output_name[o]);
        res.outputs.emplace_back(n, kNoOutputValue);
        it = res.output_names.end() - 1;
      }
      output_slot[o] = size_t(it - res.output_names.begin());
    }
    std::vector<std::vector<int64_t>> out_cols(p.output_name.size(), std::vector<int64_t>(end - first));
    std::vector<int64_t*> out_ptrs;
    for (auto& c : out_cols) out_ptrs.push_back(c.data());
    const Clock::time_point t1 = Clock::now();
    GuardEvalStats stats;
    evaluate_guards(p, *pending, first, end, ev.clause.data(), failure.data(), options.eval, &stats, out_ptrs);
    res.verdict[e] = int32_t(*k);  // the hints' own example, whatever its guards say
    // the examples it serves get their verdict; the rest stay unserved, gathered for the
    // next program (every position after `first` is unserved here: `pending` holds no other)
    std::vector<uint32_t> keep_positions, keep_rows;
    for (size_t i = first + 1; i < end; ++i) {
      if (res.verdict[rows[i]] != kUnassigned) continue;
      if (ev.clause[i - first] == kPass) {
        res.verdict[rows[i]] = int32_t(*k);
      } else {
        keep_positions.push_back(uint32_t(i));
        keep_rows.push_back(rows[i]);
      }
    }
    if (!out_cols.empty())
      for (size_t i = first; i < end; ++i)
        if (res.verdict[rows[i]] == int32_t(*k))
          for (size_t o = 0; o < out_cols.size(); ++o) res.outputs[output_slot[o]][rows[i]] = out_cols[o][i - first];
    ExampleColumns rest = pending->gather(keep_positions);
    gathered = std::move(rest);
    pending = &gathered;
    rows = std::move(keep_rows);
    next = 0;
    res.guard_seconds += seconds_since(t1);
    res.clauses += stats.clauses;
    evaluated.push_back(std::move(ev));
    res.specializations.push_back(std::move(out));
  }
  for (int32_t v : res.verdict)
    if (v >= 0) ++res.specializations[size_t(v)].accepted;
  return res;
}

}  // namespace symshape
