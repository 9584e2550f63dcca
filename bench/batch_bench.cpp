// Guard evaluation throughput. Every visible corpus graph is traced once with its first
// example as hints; its guards are compiled and evaluated over 1,048,576 examples that all
// pass (the hints' sizes, so every clause of every example is checked: no early exit).
// The `Varied` benchmark runs traffic whose sizes vary instead: every dim that differs
// across the graph's own examples is drawn uniformly from the range they span (fixed
// seed), and of those draws the ones the specialisation accepts are kept (traffic it
// serves, in random order), so blocks mix sizes but every clause is still checked.
// Counters: clauses_per_s (one relation for one example), examples_per_s. Arguments:
// ISA (0 scalar, 1 sse2, 2 avx2, 3 avx512; unavailable ones are skipped) and threads.
// `symshape eval` prints the same figures for a stream of real examples.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "batch/guard_eval.h"
#include "batch/guard_program.h"
#include "conform/specialization.h"
#include "graph/example_view.h"
#include "graph/json_loader.h"

namespace {

using namespace symshape;

constexpr size_t kExamples = size_t(1) << 20;

struct GuardSet {
  std::string name;
  GuardProgram program;
  ExampleColumns examples;  // the hints' sizes in every row
  ExampleColumns varied;    // the dynamic dims drawn across the graph's examples' range
};

struct Sets {
  OpTable ops;
  RuleTable rules;
  std::vector<std::unique_ptr<Graph>> graphs;
  std::vector<GuardSet> sets;
  size_t clauses = 0;  // per example, over all sets
};

// Rows of `drawn` that `program` accepts, sampled with replacement into kExamples rows;
// `fallback` when it accepts none.
std::vector<std::vector<int64_t>> accepted_rows(const GuardProgram& program, const std::vector<uint32_t>& ranks,
                                                const std::vector<std::vector<int64_t>>& drawn,
                                                const std::vector<std::vector<int64_t>>& fallback, std::mt19937_64& rng) {
  const ExampleColumns candidates = ExampleColumns::from_columns(ranks, drawn);
  std::vector<int32_t> verdict(kExamples);
  std::vector<GuardFailure> why(kExamples);
  evaluate_guards(program, candidates, 0, kExamples, verdict.data(), why.data());
  std::vector<size_t> pass;
  for (size_t r = 0; r < kExamples; ++r)
    if (verdict[r] == kPass) pass.push_back(r);
  if (pass.empty()) return fallback;
  std::vector<std::vector<int64_t>> cols(drawn.size(), std::vector<int64_t>(kExamples));
  for (size_t r = 0; r < kExamples; ++r) {
    const size_t from = pass[rng() % pass.size()];
    for (size_t c = 0; c < cols.size(); ++c) cols[c][r] = drawn[c][from];
  }
  return cols;
}

Sets& sets() {
  static std::unique_ptr<Sets> s = [] {
    auto out = std::make_unique<Sets>();
    const std::string dir = std::string(SYMSHAPE_SHARED_DIR) + "/corpus/visible";
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec))
      if (e.path().string().ends_with(".graph.json")) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
      auto g = std::make_unique<Graph>(out->ops);
      Diagnostics d;
      JsonGraphLoader loader;
      if (!loader.load_file(f, out->ops, *g, d) || g->num_examples() == 0) continue;
      out->rules.resolve(out->ops);
      SpecializationCache cache(*g, out->rules);
      const ExampleView ex = g->example(0);
      std::vector<std::span<const int64_t>> sizes;
      for (uint32_t p = 0; p < g->num_placeholders(); ++p) sizes.push_back(ex.input_sizes(PlaceholderId(p)));
      PropStatus st;
      if (!cache.add(sizes, 0, st)) continue;
      GuardSet set;
      set.name = std::string(g->name());
      set.program = compile_guards(*g, cache.at(0));
      std::vector<uint32_t> ranks;
      std::vector<std::vector<int64_t>> cols, varied;
      std::mt19937_64 rng(1234);
      for (uint32_t p = 0; p < g->num_placeholders(); ++p) {
        ranks.push_back(g->placeholder_rank(PlaceholderId(p)));
        for (size_t d = 0; d < sizes[p].size(); ++d) {
          cols.emplace_back(kExamples, sizes[p][d]);
          int64_t lo = sizes[p][d], hi = lo;
          for (uint32_t e = 1; e < g->num_examples(); ++e) {
            const auto other = g->example(e).input_sizes(PlaceholderId(p));
            if (other.size() != sizes[p].size()) continue;
            lo = std::min(lo, other[d]);
            hi = std::max(hi, other[d]);
          }
          std::vector<int64_t> col(kExamples, lo);
          if (hi > lo)
            for (int64_t& v : col) v = lo + int64_t(rng() % uint64_t(hi - lo + 1));
          varied.push_back(std::move(col));
        }
      }
      set.varied = ExampleColumns::from_columns(ranks, accepted_rows(set.program, ranks, varied, cols, rng));
      set.examples = ExampleColumns::from_columns(ranks, std::move(cols));
      out->clauses += set.program.num_clauses();
      out->sets.push_back(std::move(set));
      out->graphs.push_back(std::move(g));
    }
    return out;
  }();
  return *s;
}

// The timed loop over every set's program and its `which` examples: counters
// clauses_per_s (clauses checked) and examples_per_s.
void time_every_set(benchmark::State& state, const Sets& s, ExampleColumns GuardSet::*which, const GuardEvalOptions& o,
                    std::vector<int32_t>& verdict, std::vector<GuardFailure>& why) {
  uint64_t clauses = 0;
  for (auto _ : state) {
    for (const GuardSet& g : s.sets) {
      GuardEvalStats st;
      evaluate_guards(g.program, g.*which, 0, kExamples, verdict.data(), why.data(), o, &st);
      clauses += st.clauses;
    }
    benchmark::DoNotOptimize(verdict.data());
  }
  state.counters["clauses_per_s"] = benchmark::Counter(double(clauses), benchmark::Counter::kIsRate);
  state.counters["examples_per_s"] =
      benchmark::Counter(double(state.iterations()) * double(kExamples) * double(s.sets.size()), benchmark::Counter::kIsRate);
}

void BM_GuardEvalCorpus(benchmark::State& state) {
  const Isa isa = Isa(state.range(0));
  if (!isa_available(isa)) {
    state.SkipWithError("ISA not available on this CPU");
    return;
  }
  Sets& s = sets();
  GuardEvalOptions o;
  o.isa = isa;
  o.threads = unsigned(state.range(1));
  std::vector<int32_t> verdict(kExamples);
  std::vector<GuardFailure> why(kExamples);
  time_every_set(state, s, &GuardSet::examples, o, verdict, why);
  state.SetLabel(std::string(isa_name(isa)) + ", " + std::to_string(s.sets.size()) + " guard sets, " +
                 std::to_string(s.clauses) + " clauses per example");
}
BENCHMARK(BM_GuardEvalCorpus)
    ->ArgsProduct({{0, 1, 2, 3}, {1, 2}})
    ->ArgNames({"isa", "threads"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// Varied traffic (see the top): clauses checked per second, examples per second, and the
// fraction of examples that passed (1 unless something is wrong).
void BM_GuardEvalCorpusVaried(benchmark::State& state) {
  Sets& s = sets();
  GuardEvalOptions o;
  o.isa = isa_available(Isa::Avx2) ? Isa::Avx2 : default_isa();
  o.threads = unsigned(state.range(0));
  std::vector<int32_t> verdict(kExamples);
  std::vector<GuardFailure> why(kExamples);
  time_every_set(state, s, &GuardSet::varied, o, verdict, why);
  size_t passed = 0;  // untimed
  for (const GuardSet& g : s.sets) {
    evaluate_guards(g.program, g.varied, 0, kExamples, verdict.data(), why.data(), o);
    passed += size_t(std::count(verdict.begin(), verdict.end(), kPass));
  }
  state.counters["passed"] = double(passed) / (double(kExamples) * double(s.sets.size()));
  state.SetLabel(std::string(isa_name(o.isa)));
}
BENCHMARK(BM_GuardEvalCorpusVaried)->DenseRange(1, 2)->ArgName("threads")->UseRealTime()->Unit(benchmark::kMillisecond);

// One graph's guard set at a time (AVX2 when the CPU has it, else the best ISA), one thread:
// which programs cost the most. Label: graph, clauses, instructions by kind.
void BM_GuardEvalGraph(benchmark::State& state) {
  Sets& s = sets();
  const size_t k = size_t(state.range(0));
  if (k >= s.sets.size()) {
    state.SkipWithError("no such guard set");
    return;
  }
  const GuardSet& g = s.sets[k];
  GuardEvalOptions o;
  o.isa = isa_available(Isa::Avx2) ? Isa::Avx2 : default_isa();
  o.threads = 1;
  std::vector<int32_t> verdict(kExamples);
  std::vector<GuardFailure> why(kExamples);
  uint64_t clauses = 0;
  for (auto _ : state) {
    GuardEvalStats st;
    evaluate_guards(g.program, g.examples, 0, kExamples, verdict.data(), why.data(), o, &st);
    clauses += st.clauses;
    benchmark::DoNotOptimize(verdict.data());
  }
  state.counters["clauses_per_s"] = benchmark::Counter(double(clauses), benchmark::Counter::kIsRate);
  state.SetLabel(fmt::format("{} {}: {} clauses, {} instructions", isa_name(o.isa), g.name, g.program.num_clauses(),
                             g.program.num_instructions()));
}
BENCHMARK(BM_GuardEvalGraph)->DenseRange(0, 24)->ArgName("graph")->UseRealTime()->Unit(benchmark::kMillisecond);

// Fixed cost of one call: a short stream (two tasks' worth) through the whole corpus.
void BM_GuardEvalShort(benchmark::State& state) {
  Sets& s = sets();
  GuardEvalOptions o;
  o.isa = isa_available(Isa::Avx2) ? Isa::Avx2 : default_isa();
  o.threads = unsigned(state.range(1));
  const size_t n = size_t(state.range(0));
  std::vector<int32_t> verdict(n);
  std::vector<GuardFailure> why(n);
  for (auto _ : state) {
    for (const GuardSet& g : s.sets) {
      GuardEvalStats st;
      evaluate_guards(g.program, g.examples, 0, n, verdict.data(), why.data(), o, &st);
    }
    benchmark::DoNotOptimize(verdict.data());
  }
  state.counters["calls_per_s"] = benchmark::Counter(double(state.iterations()) * double(s.sets.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GuardEvalShort)->ArgsProduct({{512, 16384, 131072}, {1, 2}})->ArgNames({"examples", "threads"})->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
