#include "batch/stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

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
  std::vector<std::vector<int32_t>> clause_of;  // per specialisation, rows [first_example, n)
  std::vector<GuardFailure> failure;
  std::vector<std::vector<int64_t>> sizes;
  std::vector<std::span<const int64_t>> spans;
  const bool compile = options.policy == RecompilePolicy::Compile;
  // torch.export traces with the backend flags off (export/_trace.py _ignore_backend_decomps,
  // the cache's default); torch.compile keeps them
  if (compile) cache.set_reference_host(kFakeTensorModeHost);
  std::vector<std::vector<int64_t>> first_frame;  // compile: the sizes of the first compile
  std::vector<std::vector<uint8_t>> dynamic;      // compile: dims made dynamic so far
  size_t next = 0;
  while (true) {
    while (next < n && res.verdict[next] != kUnassigned) ++next;
    if (next == n) break;
    const size_t e = next++;
    if (compile && programs.size() >= options.recompile_limit) {
      for (size_t r = e; r < n; ++r)  // the cache is full: everything not served runs eagerly
        if (res.verdict[r] == kUnassigned) {
          res.verdict[r] = kUncompiled;
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
    const std::optional<uint32_t> k = cache.add(spans, uint32_t(e), st);
    if (!k) {
      res.trace_seconds += seconds_since(t0);
      res.verdict[e] = kRejected;
      res.rejections.push_back({ex.source_index(e),
                                st.node.valid() && st.node.index() < g.num_nodes() ? std::string(g.node_name(st.node)) : "",
                                st.message});
      continue;
    }
    const Specialization& s = cache.at(*k);
    programs.push_back(compile_guards(g, s, options.size_nodes));
    res.trace_seconds += seconds_since(t0);
    const GuardProgram& p = programs.back();
    StreamSpecialization out;
    out.first_example = ex.source_index(e);
    out.hints = sizes;
    out.guards = s.guards.text;
    out.clauses = p.num_clauses();
    out.dynamic_dims = std::move(dynamic_dims);
    out.instructions = p.num_instructions();
    out.program = program_listing(p);
    for (size_t j = programs.size() - 1; j-- > 0;) {  // newest entry first, as the recompile log
      const int32_t c = clause_of[j][e - cache.at(uint32_t(j)).first_example];
      if (c >= 0) out.triggered_by.push_back(programs[j].clause_text[size_t(c)]);
      else if (c == kRankFail) out.triggered_by.push_back("input rank differs from the traced one");
    }
    // this program over every later example not yet served
    clause_of.emplace_back(n - e);
    failure.resize(n - e);
    // this program's outputs, by name (a later specialisation may have other dims)
    std::vector<size_t> output_slot(p.output_name.size());
    for (size_t k = 0; k < p.output_name.size(); ++k) {
      auto it = std::find(res.output_names.begin(), res.output_names.end(), p.output_name[k]);
      if (it == res.output_names.end()) {
        res.output_names.push_back(p.output_name[k]);
        res.outputs.emplace_back(n, kNoOutputValue);
        it = res.output_names.end() - 1;
      }
      output_slot[k] = size_t(it - res.output_names.begin());
    }
    std::vector<std::vector<int64_t>> out_cols(p.output_name.size(), std::vector<int64_t>(n - e));
    std::vector<int64_t*> out_ptrs;
    for (auto& c : out_cols) out_ptrs.push_back(c.data());
    const Clock::time_point t1 = Clock::now();
    GuardEvalStats stats;
    evaluate_guards(p, ex, e, n, clause_of.back().data(), failure.data(), options.eval, &stats, out_ptrs);
    res.guard_seconds += seconds_since(t1);
    res.clauses += stats.clauses;
    res.verdict[e] = int32_t(*k);  // the hints' own example, whatever its guards say
    for (size_t r = e + 1; r < n; ++r)
      if (res.verdict[r] == kUnassigned && clause_of.back()[r - e] == kPass) res.verdict[r] = int32_t(*k);
    for (size_t r = e; r < n; ++r)
      if (res.verdict[r] == int32_t(*k))
        for (size_t k2 = 0; k2 < out_cols.size(); ++k2) res.outputs[output_slot[k2]][r] = out_cols[k2][r - e];
    res.specializations.push_back(std::move(out));
  }
  for (int32_t v : res.verdict)
    if (v >= 0) ++res.specializations[size_t(v)].accepted;
  return res;
}

}  // namespace symshape
