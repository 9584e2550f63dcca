// range_monotone_relations (engine/batch/guard_range_pass.cpp): a relation between a
// monotone chain of constant steps over one size and a constant is evaluated as a range
// check on the size. The verdicts and failure reasons (false / overflow) must equal the
// scalar evaluator's at every size, in particular at the interval ends and where the chain
// overflows; and the all-lanes-pass shortcut of the kernels must find a lone failing lane
// anywhere in a block.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "batch/guard_eval.h"
#include "batch/guard_kernels.h"
#include "batch/guard_program.h"
#include "core/error.h"
#include "expr/evaluate.h"
#include "expr/printer.h"
#include "evaluate_at_isa.h"

namespace symshape {
namespace {

constexpr int64_t kMin = INT64_MIN, kMax = INT64_MAX;

size_t count_ops(const GuardProgram& p, GuardOp op) { return size_t(std::count(p.op.begin(), p.op.end(), op)); }

// verdict and reason of one clause for one value, by the scalar evaluator
struct Expected {
  int32_t verdict;
  GuardFailure why;
};
Expected reference(const ExprArena& a, ExprId clause, ExprId sym, int64_t v) {
  Bindings b;
  b.set(a.symbol_id(sym), v);
  try {
    return evaluate_bool(a, clause, b) ? Expected{kPass, GuardFailure::None} : Expected{0, GuardFailure::False};
  } catch (const Error&) {
    return Expected{0, GuardFailure::Overflow};
  }
}

// Values that probe a clause: the extremes, small sizes, and both sides of every point in a
// scan where the reference verdict or reason changes (the interval ends the pass computed).
std::vector<int64_t> probe_values(const ExprArena& a, ExprId clause, ExprId sym, std::mt19937_64& rng) {
  std::vector<int64_t> v = {kMin, kMin + 1, kMin + 2, kMax, kMax - 1, kMax - 2, -1, 0, 1, 2, 3};
  for (int64_t x = -300; x <= 300; ++x) v.push_back(x);
  // change points over a geometric scan of both signs, refined by bisection
  std::vector<int64_t> scan;
  for (int k = 0; k < 63; ++k) {
    scan.push_back(int64_t(1) << k);
    scan.push_back(-(int64_t(1) << k));
  }
  scan.push_back(kMin);
  scan.push_back(kMax);
  std::sort(scan.begin(), scan.end());
  auto key = [&](int64_t x) {
    const Expected e = reference(a, clause, sym, x);
    return int(e.verdict) * 4 + int(e.why);
  };
  for (size_t i = 0; i + 1 < scan.size(); ++i) {
    int64_t lo = scan[i], hi = scan[i + 1];
    if (key(lo) == key(hi)) continue;
    while (uint64_t(hi) - uint64_t(lo) > 1) {
      const int64_t m = int64_t(uint64_t(lo) + (uint64_t(hi) - uint64_t(lo)) / 2);
      (key(m) == key(lo) ? lo : hi) = m;
    }
    for (int64_t d = -2; d <= 2; ++d) {
      v.push_back(int64_t(uint64_t(lo) + uint64_t(d)));
      v.push_back(int64_t(uint64_t(hi) + uint64_t(d)));
    }
  }
  for (int k = 0; k < 200; ++k) v.push_back(int64_t(rng()));
  return v;
}

void expect_matches_reference(const ExprArena& a, ExprId clause, ExprId sym, const std::vector<int64_t>& values) {
  const uint32_t col[] = {0};
  const GuardProgram p = compile_clauses(a, std::span<const ExprId>(&clause, 1), col, {1});
  const ExampleColumns ex = ExampleColumns::from_columns({1}, {values});
  for (Isa isa : kEveryIsa) {
    if (!isa_available(isa)) continue;
    const IsaRun run = evaluate_at(p, ex, isa);
    const std::vector<int32_t>& got = run.verdict;
    const std::vector<GuardFailure>& why = run.why;
    for (size_t e = 0; e < values.size(); ++e) {
      const Expected want = reference(a, clause, sym, values[e]);
      ASSERT_EQ(got[e], want.verdict) << isa_name(isa) << " " << to_str(a, clause) << " at " << values[e];
      ASSERT_EQ(int(why[e]), int(want.why)) << isa_name(isa) << " " << to_str(a, clause) << " at " << values[e];
    }
  }
}

TEST(GuardRangePass, ConvolutionGuardBecomesOneRangeCheck) {
  ExprArena a;
  const ExprId w = a.symbol("W", SymbolKind::Backed, kFactInteger);
  // the output width of a stride-4 convolution must not be 1
  const ExprId out = a.add(a.integer(1), a.floordiv(a.add(w, a.integer(-1)), a.integer(4)));
  const ExprId clause = a.ne(out, a.integer(1));
  const uint32_t col[] = {0};
  const GuardProgram p = compile_clauses(a, std::span<const ExprId>(&clause, 1), col, {1});
  EXPECT_EQ(count_ops(p, GuardOp::InRange), 1u);
  EXPECT_EQ(count_ops(p, GuardOp::FloorDivConst), 0u);
  EXPECT_EQ(count_ops(p, GuardOp::Add), 0u);
  ASSERT_EQ(p.ranges.size(), 1u);
  // 1 + (W - 1)//4 == 1 exactly for W in [1, 4]; W - 1 overflows only at INT64_MIN
  EXPECT_EQ(p.ranges[0].pass_lo, 1);
  EXPECT_EQ(p.ranges[0].pass_hi, 4);
  EXPECT_TRUE(p.ranges[0].negate);
  EXPECT_EQ(p.ranges[0].safe_lo, kMin + 1);
  EXPECT_EQ(p.ranges[0].safe_hi, kMax);
  std::mt19937_64 rng(5);
  expect_matches_reference(a, clause, w, probe_values(a, clause, w, rng));
}

// A dim's spec range `2 <= s and s <= 64` is one range check; so is an And of a size
// comparison and an overflow-free chain's check (intersected), and nested Ands. A check
// whose chain can overflow keeps its And: its poison must still fail the clause.
TEST(GuardRangePass, AndOfTwoChecksOfOneSizeBecomesOneRangeCheck) {
  ExprArena a;
  const ExprId s = a.symbol("s", SymbolKind::Backed, kFactInteger);
  const ExprId t = a.symbol("t", SymbolKind::Backed, kFactInteger);
  auto compiled = [&](ExprId clause) {
    const uint32_t col[] = {0, 1};
    return compile_clauses(a, std::span<const ExprId>(&clause, 1), col, {2});
  };
  const ExprId spec = a.logical_and(a.le(a.integer(2), s), a.le(s, a.integer(64)));
  GuardProgram p = compiled(spec);
  EXPECT_EQ(count_ops(p, GuardOp::And), 0u);
  ASSERT_EQ(count_ops(p, GuardOp::InRange), 1u);
  EXPECT_EQ(p.ranges.back().pass_lo, 2);
  EXPECT_EQ(p.ranges.back().pass_hi, 64);
  EXPECT_FALSE(p.ranges.back().negate);
  std::mt19937_64 rng(11);
  expect_matches_reference(a, spec, s, probe_values(a, spec, s, rng));
  // a strict bound, a chain (s//3 <= 20: s <= 62) and a third conjunct
  const ExprId nested = a.logical_and(a.logical_and(a.lt(a.integer(4), s), a.le(a.floordiv(s, a.integer(3)), a.integer(20))),
                                      a.lt(s, a.integer(60)));
  p = compiled(nested);
  EXPECT_EQ(count_ops(p, GuardOp::And), 0u);
  ASSERT_EQ(count_ops(p, GuardOp::InRange), 1u);
  EXPECT_EQ(p.ranges.back().pass_lo, 5);
  EXPECT_EQ(p.ranges.back().pass_hi, 59);
  expect_matches_reference(a, nested, s, probe_values(a, nested, s, rng));
  // two sizes, a != and an overflowing chain stay Ands
  EXPECT_EQ(count_ops(compiled(a.logical_and(a.le(a.integer(2), s), a.le(t, a.integer(64)))), GuardOp::And), 1u);
  EXPECT_EQ(count_ops(compiled(a.logical_and(a.ne(s, a.integer(2)), a.le(s, a.integer(64)))), GuardOp::And), 1u);
  const ExprId overflowing = a.logical_and(a.le(a.mul(a.integer(int64_t(1) << 40), s), a.integer(100)), a.le(a.integer(-9), s));
  EXPECT_EQ(count_ops(compiled(overflowing), GuardOp::And), 1u);
  expect_matches_reference(a, overflowing, s, probe_values(a, overflowing, s, rng));
}

TEST(GuardRangePass, SharedChainStaysForItsOtherReaders) {
  // the chain also feeds an output size: it must survive the rewrite
  ExprArena a;
  const ExprId w = a.symbol("W", SymbolKind::Backed, kFactInteger);
  const ExprId h = a.symbol("H", SymbolKind::Backed, kFactInteger);
  const ExprId out = a.floordiv(a.add(w, a.integer(-3)), a.integer(2));
  const ExprId clauses[] = {a.ge(out, a.integer(2)), a.eq(a.add(out, h), a.integer(9))};
  const uint32_t cols[] = {0, 1};
  const GuardProgram p = compile_clauses(a, clauses, cols, {2});
  EXPECT_EQ(count_ops(p, GuardOp::InRange), 1u);
  EXPECT_EQ(count_ops(p, GuardOp::FloorDivConst), 1u);
  const ExampleColumns ex = ExampleColumns::from_columns({2}, {{7, 6, 8, kMin, 9}, {7, 7, 7, 7, 5}});
  std::vector<int32_t> got(5);
  std::vector<GuardFailure> why(5);
  evaluate_guards(p, ex, 0, 5, got.data(), why.data());
  // (7-3)//2 = 2: >= 2 and 2 + 7 == 9; (6-3)//2 = 1 fails the first; 8: 2 + 7 == 9;
  // kMin - 3 overflows; (9-3)//2 = 3 and 3 + 5 != 9
  EXPECT_EQ(got, (std::vector<int32_t>{kPass, 0, kPass, 0, 1}));
  EXPECT_EQ(why[3], GuardFailure::Overflow);
  EXPECT_EQ(why[1], GuardFailure::False);
}

// Random monotone chains: Add/Sub of constants (some near the int64 ends), constant
// multipliers of both signs, negation, floor division and Min/Max with constants, under
// each relation with a constant.
TEST(GuardRangePass, RandomMonotoneChainsEqualTheScalarEvaluator) {
  std::mt19937_64 rng(77);
  auto pick = [&](int64_t lo, int64_t hi) { return lo + int64_t(rng() % uint64_t(hi - lo + 1)); };
  size_t rewritten = 0;
  for (int round = 0; round < 150; ++round) {
    ExprArena a;
    const ExprId w = a.symbol("W", SymbolKind::Backed, kFactInteger);
    ExprId x = w;
    try {
      for (int64_t k = pick(1, 4); k > 0; --k) {
        switch (pick(0, 6)) {
          case 0: x = a.add(x, a.integer(pick(-50, 50))); break;
          case 1: x = a.add(x, a.integer(pick(0, 1) ? kMax / 2 + pick(0, 100) : kMin / 2 - pick(0, 100))); break;
          case 2: x = a.mul(a.integer(pick(2, 1000000)), x); break;
          case 3: x = a.mul(a.integer(-pick(1, 7)), x); break;
          case 4: x = a.floordiv(x, a.integer(pick(1, 33))); break;
          case 5: x = a.min(x, a.integer(pick(-100, 100))); break;
          default: x = a.max(x, a.integer(pick(-100, 100))); break;
        }
      }
    } catch (const Error&) {  // a constant fold overflowed: keep what was built
    }
    const ExprId c = a.integer(pick(-70, 70));
    ExprId clause;
    switch (pick(0, 5)) {
      case 0: clause = a.eq(x, c); break;
      case 1: clause = a.ne(x, c); break;
      case 2: clause = a.lt(x, c); break;
      case 3: clause = a.le(x, c); break;
      case 4: clause = a.gt(x, c); break;
      default: clause = a.ge(x, c); break;
    }
    const uint32_t col[] = {0};
    const GuardProgram p = compile_clauses(a, std::span<const ExprId>(&clause, 1), col, {1});
    rewritten += count_ops(p, GuardOp::InRange);
    expect_matches_reference(a, clause, w, probe_values(a, clause, w, rng));
  }
  EXPECT_GT(rewritten, 75u);  // most random chains are monotone single-size chains
}

// Ceil-mode pooling's guard compares two chains over the same size; both are periodic-affine
// (no Min/Max), and this one holds for every size where nothing overflows.
TEST(GuardRangePass, PoolingGuardOverOneSizeBecomesOneRangeCheck) {
  ExprArena a;
  const ExprId h = a.symbol("H", SymbolKind::Backed, kFactInteger);
  const ExprId m1 = a.integer(-1), two = a.integer(2);
  const ExprId x = a.floordiv(a.add(h, m1), two);  // (-1 + H)//2
  const ExprId lhs = a.mul(two, a.floordiv(a.add(x, m1), two));
  const ExprId clause = a.lt(lhs, a.add(a.integer(1), x));
  const uint32_t col[] = {0};
  const GuardProgram p = compile_clauses(a, std::span<const ExprId>(&clause, 1), col, {1});
  EXPECT_EQ(count_ops(p, GuardOp::InRange), 1u);
  EXPECT_EQ(count_ops(p, GuardOp::FloorDivConst), 0u);
  ASSERT_EQ(p.ranges.size(), 1u);
  // -1 + H overflows only at INT64_MIN; 2*((x-1)//2) <= x - 1 < x + 1 everywhere else
  EXPECT_EQ(p.ranges[0].safe_lo, kMin + 1);
  EXPECT_EQ(p.ranges[0].pass_lo, kMin + 1);
  EXPECT_EQ(p.ranges[0].pass_hi, kMax);
  EXPECT_FALSE(p.ranges[0].negate);
  std::mt19937_64 rng(9);
  expect_matches_reference(a, clause, h, probe_values(a, clause, h, rng));
}

// Random pairs of chains over one size (Add/Sub, constant multipliers of both signs,
// negation, floor division) under every relation: rewritten or not, the verdicts equal the
// scalar evaluator's, densely around zero and at the change points of the reference.
TEST(GuardRangePass, RandomTwoChainRelationsEqualTheScalarEvaluator) {
  std::mt19937_64 rng(1234);
  auto pick = [&](int64_t lo, int64_t hi) { return lo + int64_t(rng() % uint64_t(hi - lo + 1)); };
  size_t rewritten = 0, relations = 0;
  for (int round = 0; round < 200; ++round) {
    ExprArena a;
    const ExprId w = a.symbol("W", SymbolKind::Backed, kFactInteger);
    auto chain = [&](ExprId x) {
      try {
        for (int64_t k = pick(0, 4); k > 0; --k) {
          switch (pick(0, 5)) {
            case 0: x = a.add(x, a.integer(pick(-9, 9))); break;
            case 1: x = a.add(x, a.integer(pick(0, 1) ? kMax / 2 + pick(0, 100) : kMin / 2 - pick(0, 100))); break;
            case 2: x = a.mul(a.integer(pick(2, 5)), x); break;
            case 3: x = a.mul(a.integer(-pick(1, 3)), x); break;
            default: x = a.floordiv(x, a.integer(pick(2, 8))); break;
          }
        }
      } catch (const Error&) {  // a constant fold overflowed: keep what was built
      }
      return x;
    };
    // a shared prefix, as traced pooling guards have
    const ExprId base = pick(0, 1) ? chain(w) : w;
    const ExprId f = chain(base), g = chain(base);
    ExprId clause;
    switch (pick(0, 5)) {
      case 0: clause = a.eq(f, g); break;
      case 1: clause = a.ne(f, g); break;
      case 2: clause = a.lt(f, g); break;
      case 3: clause = a.le(f, g); break;
      case 4: clause = a.gt(f, g); break;
      default: clause = a.ge(f, g); break;
    }
    if (a.is_constant(clause)) continue;
    ++relations;
    const uint32_t col[] = {0};
    const GuardProgram p = compile_clauses(a, std::span<const ExprId>(&clause, 1), col, {1});
    rewritten += count_ops(p, GuardOp::InRange);
    std::vector<int64_t> values = probe_values(a, clause, w, rng);
    for (int64_t x = -3000; x <= 3000; ++x) values.push_back(x);
    expect_matches_reference(a, clause, w, values);
  }
  EXPECT_GT(relations, 150u);
  EXPECT_GT(rewritten, relations / 3);  // most pairs give one interval (or none)
}

// The kernels skip storing lane states while every lane of a block passes; a single lane
// that fails a later clause, at any position of a full block, must still get its verdict.
TEST(GuardRangePass, LoneFailingLaneIsFoundAtEveryPositionOfABlock) {
  ExprArena a;
  const ExprId w = a.symbol("W", SymbolKind::Backed, kFactInteger);
  const ExprId h = a.symbol("H", SymbolKind::Backed, kFactInteger);
  const ExprId clauses[] = {a.ge(w, a.integer(2)), a.ne(a.floordiv(a.add(h, a.integer(-1)), a.integer(4)), a.integer(0)),
                            a.eq(a.mul(w, h), a.integer(64))};
  const uint32_t cols[] = {0, 1};
  const GuardProgram p = compile_clauses(a, clauses, cols, {2});
  const size_t n = 2 * guard_kernels::kBlock + 8;
  for (size_t bad : {size_t(0), size_t(3), guard_kernels::kBlock - 1, guard_kernels::kBlock + 17, n - 1}) {
    for (int which = 1; which <= 2; ++which) {
      std::vector<int64_t> wc(n, 8), hc(n, 8);
      if (which == 1) hc[bad] = 4;  // (4 - 1)//4 == 0: fails clause 1
      else wc[bad] = 9;             // 9 * 8 != 64: fails clause 2
      const ExampleColumns ex = ExampleColumns::from_columns({2}, {wc, hc});
      for (Isa isa : kEveryIsa) {
        if (!isa_available(isa)) continue;
        const IsaRun run = evaluate_at(p, ex, isa);
        for (size_t e = 0; e < n; ++e)
          ASSERT_EQ(run.verdict[e], e == bad ? which : kPass) << isa_name(isa) << " lane " << e << " bad " << bad;
        EXPECT_EQ(run.stats.clauses, (n - 1) * 3 + size_t(which) + 1) << isa_name(isa);
      }
    }
  }
}

}  // namespace
}  // namespace symshape
