// The guard programs of real specialisations (stride guards, floor divisions, Max/Min from
// the visible corpus) give the scalar reference's verdicts at every instruction set, on
// random examples around the traced sizes: perturbed dims, zeros, negatives, and sizes near
// 2**62 whose contiguous strides overflow int64. Several full blocks per run, so the kernels'
// column aliasing and vector paths run, and a partial last block. Positive narrow blocks
// (every size at least 1), which skip the stride guards, get a test of their own, and so
// do guards that run through the scalar fallback (differential graphs).
#include <gtest/gtest.h>

#include <algorithm>
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

// A graph file's first specialisation (traced at its first example): `fn(graph, spec,
// hint sizes, ranks)`. Returns false when the trace fails.
template <class Fn>
bool with_first_specialisation(const std::filesystem::path& file, Fn&& fn) {
  OpTable ops;
  Graph g(ops);
  Diagnostics d;
  JsonGraphLoader loader;
  EXPECT_TRUE(loader.load_file(file.string(), ops, g, d)) << file;
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
  if (!cache.add(hint, 0, st)) return false;
  fn(g, cache.at(0), hint, ranks);
  return true;
}

// Every visible graph's first specialisation. Returns how many graphs were visited.
template <class Fn>
size_t for_each_visible_specialisation(Fn&& fn) {
  const std::filesystem::path dir = std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible";
  size_t graphs = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir))
    if (f.path().string().ends_with(".graph.json") && with_first_specialisation(f.path(), fn)) ++graphs;
  return graphs;
}

// The scalar reference's verdicts for `ex`, checked against every ISA's (2 threads);
// returns the scalar run.
IsaRun expect_reference_verdicts(const Graph& g, const Specialization& spec, const GuardProgram& prog,
                                 const ExampleColumns& ex) {
  const size_t n = ex.num_examples();
  std::vector<int32_t> want(n);
  evaluate_guards_reference(g, spec, ex, want.data());
  IsaRun scalar;
  for (Isa isa : kEveryIsa) {
    if (!isa_available(isa)) continue;
    IsaRun run = evaluate_at(prog, ex, isa, 2);
    for (size_t e = 0; e < n; ++e)
      EXPECT_EQ(run.verdict[e], want[e]) << g.name() << " isa " << isa_name(isa) << " example " << e << " clause "
                                         << (want[e] >= 0 ? prog.clause_text[size_t(want[e])] : std::string("-"));
    if (isa == Isa::Scalar) scalar = std::move(run);
  }
  return scalar;
}

// One column of n sizes per traced dim, each size draw(traced size).
template <class Draw>
std::vector<std::vector<int64_t>> columns_around(const std::vector<std::span<const int64_t>>& hint, size_t n, Draw&& draw) {
  std::vector<std::vector<int64_t>> cols;
  for (const auto& sizes : hint)
    for (int64_t h : sizes) {
      std::vector<int64_t> col(n);
      for (int64_t& v : col) v = draw(h);
      cols.push_back(std::move(col));
    }
  return cols;
}

TEST(GuardEvalCorpus, RealGuardSetsEqualTheScalarReferenceAtEveryIsa) {
  if (!std::filesystem::exists(std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible"))
    GTEST_SKIP() << "no ../shared corpus";
  std::mt19937_64 rng(4242);
  size_t passing = 0, overflowed = 0;
  const size_t graphs = for_each_visible_specialisation([&](const Graph& g, const Specialization& spec,
                                                            const std::vector<std::span<const int64_t>>& hint,
                                                            const std::vector<uint32_t>& ranks) {
    const size_t n = 512 * 3 + 77;
    std::vector<std::vector<int64_t>> cols = columns_around(hint, n, [&](int64_t h) {
      switch (rng() % 12) {
        case 0: return int64_t(rng() % 3);                          // 0, 1, 2
        case 1: return -int64_t(rng() % 5);                         // negative
        case 2: return (int64_t(1) << 40) + int64_t(rng() % 1000);  // strides overflow
        case 3: return h + int64_t(rng() % 9) - 4;                  // near the trace
        default: return h;                                          // the trace
      }
    });
    const ExampleColumns ex = ExampleColumns::from_columns(ranks, std::move(cols));
    const IsaRun run = expect_reference_verdicts(g, spec, compile_guards(g, spec), ex);
    for (size_t e = 0; e < n; ++e) {
      passing += run.verdict[e] == kPass;
      overflowed += run.why[e] == GuardFailure::Overflow;
    }
  });
  EXPECT_EQ(graphs, 25u);
  EXPECT_GT(passing, 100u);    // the traced sizes pass
  EXPECT_GT(overflowed, 10u);  // and the huge ones overflow a stride product
}

// Positive narrow blocks (every size in [1, 2**20)) skip the stride guards of contiguous
// inputs and the clauses the ones before them imply (clause_positive), and what only they
// need. Sizes around the trace, all at least 1,
// with pinned dims (size()[1] == 3) sometimes off so lanes fail before the skipped clauses,
// and a zero in every third block (a narrow block that is not positive): the verdicts stay
// the scalar reference's, and positive blocks do occur.
TEST(GuardEvalCorpus, PositiveBlocksSkipOnlyWhatHoldsThere) {
  if (!std::filesystem::exists(std::filesystem::path(SYMSHAPE_SHARED_DIR) / "corpus" / "visible"))
    GTEST_SKIP() << "no ../shared corpus";
  std::mt19937_64 rng(777);
  size_t positive_clauses = 0, implied_clauses = 0, failing = 0, passing = 0;
  uint64_t positive_blocks = 0, other_blocks = 0;
  const size_t graphs = for_each_visible_specialisation([&](const Graph& g, const Specialization& spec,
                                                            const std::vector<std::span<const int64_t>>& hint,
                                                            const std::vector<uint32_t>& ranks) {
    const size_t n = 512 * 6 + 77;
    std::vector<std::vector<int64_t>> cols = columns_around(hint, n, [&](int64_t h) {
      switch (rng() % 10) {
        case 0: return std::max<int64_t>(1, h + int64_t(rng() % 9) - 4);  // near the trace
        case 1: return 1 + int64_t(rng() % 64);                            // small
        default: return h;                                                 // the trace
      }
    });
    for (size_t blk = 2; blk * 512 < n; blk += 3) cols[rng() % cols.size()][blk * 512 + rng() % 512] = 0;
    const ExampleColumns ex = ExampleColumns::from_columns(ranks, std::move(cols));
    const GuardProgram prog = compile_guards(g, spec);
    positive_clauses += size_t(std::count(prog.clause_positive.begin(), prog.clause_positive.end(), kPositiveStride));
    implied_clauses += size_t(std::count(prog.clause_positive.begin(), prog.clause_positive.end(), kPositiveByFacts));
    const IsaRun run = expect_reference_verdicts(g, spec, prog, ex);
    positive_blocks += run.stats.positive_blocks;
    other_blocks += run.stats.blocks - run.stats.positive_blocks;
    for (size_t e = 0; e < n; ++e) {
      passing += run.verdict[e] == kPass;
      failing += run.verdict[e] >= 0;
    }
  });
  EXPECT_EQ(graphs, 25u);
  EXPECT_GT(positive_clauses, 40u);  // stride guards of the CNNs' inputs
  EXPECT_GE(implied_clauses, 12u);   // ceil-mode pooling's two-size guards after their `!= 1`
  EXPECT_GT(positive_blocks, 50u);
  EXPECT_GT(other_blocks, 30u);  // the zeros and the partial last blocks
  EXPECT_GT(passing, 1000u);
  EXPECT_GT(failing, 1000u);
}

// Guards the vector kernels cannot lower run through the Fallback instruction: expr's
// scalar BatchProgram over the symbols' registers. Upsampling by a float scale factor
// guards `L['x'].size()[2] <= math.trunc(1.5*torch.sym_float(...))` (TruncToInt of float
// arithmetic); those programs have Fallback instructions, and their verdicts are the
// scalar reference's at every instruction set, overflowing and zero sizes included.
TEST(GuardEvalCorpus, FallbackClausesEqualTheScalarReference) {
  std::mt19937_64 rng(515);
  size_t fallbacks = 0, passing = 0, failing = 0;
  for (const char* file : {"data/differential/conv_pool_matmul/diff_upsample_more.graph.json",
                           "data/differential/conv_pool_matmul/diff_upsample.graph.json"}) {
    const bool traced = with_first_specialisation(
        std::filesystem::path(SYMSHAPE_SOURCE_DIR) / file,
        [&](const Graph& g, const Specialization& spec, const std::vector<std::span<const int64_t>>& hint,
            const std::vector<uint32_t>& ranks) {
          const GuardProgram prog = compile_guards(g, spec);
          const size_t in_program = size_t(std::count(prog.op.begin(), prog.op.end(), GuardOp::Fallback));
          EXPECT_GT(in_program, 0u) << g.name();
          EXPECT_GE(prog.fallbacks.size(), in_program) << g.name();
          fallbacks += in_program;
          const size_t n = 512 * 2 + 33;
          std::vector<std::vector<int64_t>> cols = columns_around(hint, n, [&](int64_t h) {
            switch (rng() % 8) {
              case 0: return int64_t(rng() % 3);                          // 0, 1, 2
              case 1: return (int64_t(1) << 61) + int64_t(rng() % 1000);  // 2.0 * size overflows
              case 2: return h + int64_t(rng() % 9) - 4;                  // near the trace
              case 3: return 1 + int64_t(rng() % 64);                     // small
              default: return h;                                          // the trace
            }
          });
          const ExampleColumns ex = ExampleColumns::from_columns(ranks, std::move(cols));
          const IsaRun run = expect_reference_verdicts(g, spec, prog, ex);
          for (size_t e = 0; e < n; ++e) {
            passing += run.verdict[e] == kPass;
            failing += run.verdict[e] >= 0;
          }
        });
    EXPECT_TRUE(traced) << file;
  }
  // the fractional scale factors' sizes (an integral scale gives an exact integer size, as
  // PyTorch 2.x's upsample_compute_output_size computes it): 4 over the two graphs
  EXPECT_EQ(fallbacks, 4u);
  EXPECT_GT(passing, 40u);  // diff_upsample's three inputs rarely all pass together
  EXPECT_GT(failing, 100u);
}

}  // namespace
}  // namespace symshape
