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

StreamResult run_stream(const Graph& g, const RuleTable& rules, const ExampleColumns& ex, const StreamOptions& options) {
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
  const bool compile = options.policy == RecompilePolicy::Compile;
  // torch.export traces with the backend flags off (export/_trace.py _ignore_backend_decomps,
  // the cache's default); torch.compile keeps them
  if (compile) cache.set_reference_host(kFakeTensorModeHost);
  std::vector<std::vector<int64_t>> first_frame;  // compile: the sizes of the first compile
  std::vector<std::vector<uint8_t>> dynamic;      // compile: dims made dynamic so far
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
    if (compile && programs.size() >= options.recompile_limit) {
      for (size_t i = first; i < rows.size(); ++i)  // the cache is full: everything not served runs eagerly
        if (res.verdict[rows[i]] == kUnassigned) {
          res.verdict[rows[i]] = kUncompiled;
          ++res.uncompiled;
        }
      break;
    }
    ex.sizes_of(e, sizes);
    spans.assign(sizes.begin(), sizes.end());
    std::vector<std::string> dynamic_dims;
    if (compile) {
      if (first_frame.empty()) {
        first_frame = sizes;
        dynamic.assign(sizes.size(), {});
        for (size_t p = 0; p < sizes.size(); ++p) dynamic[p].assign(sizes[p].size(), 0);
      } else {
        // automatic dynamic: a dim whose size differs from the first frame's becomes (and
        // stays) dynamic; a changed rank makes every dim of that input dynamic
        for (size_t p = 0; p < sizes.size(); ++p) {
          if (dynamic[p].size() < sizes[p].size()) dynamic[p].resize(sizes[p].size(), 1);
          for (size_t d = 0; d < sizes[p].size(); ++d)
            if (sizes[p].size() != first_frame[p].size() || sizes[p][d] != first_frame[p][d]) dynamic[p][d] = 1;
        }
      }
      for (size_t p = 0; p < dynamic.size(); ++p)
        for (size_t d = 0; d < dynamic[p].size(); ++d)
          if (dynamic[p][d])
            dynamic_dims.push_back(fmt::format("{}.size()[{}]", g.node_name(g.placeholder_node(PlaceholderId(uint32_t(p)))), d));
      cache.set_input_policy(InputPolicy::Automatic, dynamic);
    }
    const Clock::time_point t0 = Clock::now();
    PropStatus st;
    const std::optional<uint32_t> k = cache.add(spans, e, st);
    if (!k) {
      res.trace_seconds += seconds_since(t0);
      res.verdict[e] = kRejected;
      res.rejections.push_back({e, ex.line_of(e),
                                st.node.valid() && st.node.index() < g.num_nodes() ? std::string(g.node_name(st.node)) : "",
                                st.message});
      continue;
    }
    const Specialization& s = cache.at(*k);
    programs.push_back(compile_guards(g, s, options.size_nodes));
    res.trace_seconds += seconds_since(t0);
    const GuardProgram& p = programs.back();
    StreamSpecialization out;
    out.first_example = e;
    out.first_line = ex.line_of(e);
    out.hints = sizes;
    out.guards = s.guards.text;
    out.clauses = p.num_clauses();
    out.dynamic_dims = std::move(dynamic_dims);
    out.instructions = p.num_instructions();
    out.program = program_listing(p);
    for (size_t j = programs.size() - 1; j-- > 0;) {  // newest entry first, as the recompile log
      const std::optional<int32_t> c = clause_at(evaluated[j], e);
      if (!c) continue;
      if (*c >= 0) out.triggered_by.push_back(programs[j].clause_text[size_t(*c)]);
      else if (*c == kRankFail) out.triggered_by.push_back("input rank differs from the traced one");
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
