// The guard programs of real specialisations (stride guards, floor divisions, Max/Min from
// the visible corpus) give the scalar reference's verdicts at every instruction set, on
// random examples around the traced sizes: perturbed dims, zeros, negatives, and sizes near
// 2**62 whose contiguous strides overflow int64. Several full blocks per run, so the kernels'
// column aliasing and vector paths run, and a partial last block.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "batch/guard_eval.h"
#include "batch/guard_program.h"
#include "conform/specialization.h"
#include "graph/example_view.h"
#include "graph/json_loader.h"
#include "evaluate_at_isa.h"

namespace symshape {
namespace {

TEST(GuardEvalCorpus, RealGuardSetsEqualTheScalarReferenceAtEveryIsa) {
  const std::filesystem::path dir = std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no ../shared corpus";
  std::mt19937_64 rng(4242);
  size_t graphs = 0, passing = 0, overflowed = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    if (!f.path().string().ends_with(".graph.json")) continue;
    OpTable ops;
    Graph g(ops);
    Diagnostics d;
    JsonGraphLoader loader;
    ASSERT_TRUE(loader.load_file(f.path().string(), ops, g, d)) << f.path();
    RuleTable rules;
    rules.resolve(ops);
    SpecializationCache cache(g, rules);
    const ExampleView first = g.example(0);
    std::vector<std::span<const int64_t>> hint;
    std::vector<uint32_t> ranks;
    for (uint32_t p = 0; p < g.num_placeholders(); ++p) {
      hint.push_back(first.input_sizes(PlaceholderId(p)));
      ranks.push_back(g.placeholder_rank(PlaceholderId(p)));
    }
    PropStatus st;
    if (!cache.add(hint, 0, st)) continue;
    const size_t n = 512 * 3 + 77;
    std::vector<std::vector<int64_t>> cols;
    for (uint32_t p = 0; p < g.num_placeholders(); ++p)
      for (int64_t h : hint[p]) {
        std::vector<int64_t> col(n);
        for (int64_t& v : col) {
          switch (rng() % 12) {
            case 0: v = int64_t(rng() % 3); break;                                    // 0, 1, 2
            case 1: v = -int64_t(rng() % 5); break;                                   // negative
            case 2: v = (int64_t(1) << 40) + int64_t(rng() % 1000); break;            // strides overflow
            case 3: v = h + int64_t(rng() % 9) - 4; break;                            // near the trace
            default: v = h; break;                                                    // the trace
          }
        }
        cols.push_back(std::move(col));
      }
    const ExampleColumns ex = ExampleColumns::from_columns(ranks, std::move(cols));
    std::vector<int32_t> want(n);
    evaluate_guards_reference(g, cache.at(0), ex, want.data());
    const GuardProgram prog = compile_guards(g, cache.at(0));
    for (Isa isa : kEveryIsa) {
      if (!isa_available(isa)) continue;
      const IsaRun run = evaluate_at(prog, ex, isa, 2);
      const std::vector<int32_t>& got = run.verdict;
      const std::vector<GuardFailure>& why = run.why;
      for (size_t e = 0; e < n; ++e) {
        ASSERT_EQ(got[e], want[e]) << g.name() << " isa " << isa_name(isa) << " example " << e << " clause "
                                   << (want[e] >= 0 ? prog.clause_text[size_t(want[e])] : std::string("-"));
        if (isa == Isa::Scalar) {
          passing += got[e] == kPass;
          overflowed += why[e] == GuardFailure::Overflow;
        }
      }
    }
    ++graphs;
  }
  EXPECT_EQ(graphs, 25u);
  EXPECT_GT(passing, 100u);    // the traced sizes pass
  EXPECT_GT(overflowed, 10u);  // and the huge ones overflow a stride product
}

}  // namespace
}  // namespace symshape
