// The vectorised guard evaluator equals the scalar reference (engine/expr evaluate()) on
// seeded random clause sets and examples, at every instruction set this CPU has and at
// 1, 2 and 4 threads: negative values, int64 overflow, zero and negative register divisors,
// int_oo (through the scalar fallback) and unbound symbols included.
#include <fmt/format.h>
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

struct ClauseGen {
  ExprArena& a;
  std::mt19937_64& rng;
  std::vector<ExprId> syms;
  int64_t pick(int64_t lo, int64_t hi) { return lo + int64_t(rng() % uint64_t(hi - lo + 1)); }

  ExprId constant() {
    switch (pick(0, 5)) {
      case 0: return a.integer(pick(INT64_MAX / 4, INT64_MAX));  // overflow bait
      case 1: return a.integer(-pick(0, 1000));
      default: return a.integer(pick(0, 64));
    }
  }
  ExprId leaf() { return pick(0, 3) ? syms[size_t(pick(0, int64_t(syms.size()) - 1))] : constant(); }
  ExprId value(int depth) {
    if (depth == 0) return leaf();
    const ExprId x = value(depth - 1), y = value(depth - 1);
    switch (pick(0, 9)) {
      case 0: return a.add(x, y);
      case 1: return a.sub(x, y);
      case 2: return a.mul(x, y);
      case 3: return a.mul(a.integer(pick(-3, 1000000)), x);
      case 4: return a.floordiv(x, a.integer(pick(1, 40)));
      case 5: return a.mod(x, a.integer(pick(1, 40)));
      case 6: return a.min(x, y);
      case 7: return a.max(x, y);
      case 8: {  // a register divisor (a symbol or a derived value): zero and negative divisors included
        try {
          const ExprId d = pick(0, 1) ? syms[size_t(pick(0, int64_t(syms.size()) - 1))] : y;
          return pick(0, 1) ? a.floordiv(x, d) : a.mod(x, d);
        } catch (const Error&) {
          return x;
        }
      }
      default: return a.neg(x);
    }
  }
  ExprId relation(int depth) {
    const ExprId x = value(depth), y = value(depth);
    switch (pick(0, 8)) {
      case 0: return a.eq(x, y);
      case 1: return a.ne(x, y);
      case 2: return a.lt(x, y);
      case 3: return a.le(x, y);
      case 4: return a.gt(x, y);
      case 5: return a.ge(x, y);
      case 6: return a.logical_and(a.le(x, y), a.ge(x, a.integer(pick(-2, 5))));
      case 7: return a.logical_or(a.lt(x, y), a.eq(y, a.integer(pick(0, 3))));
      default: return a.logical_not(a.eq(x, y));
    }
  }
  // 1 to 6 random relations
  std::vector<ExprId> clause_set() {
    std::vector<ExprId> out;
    for (int c = int(pick(1, 6)); c > 0; --c) {
      try {
        out.push_back(relation(int(pick(0, 3))));
      } catch (const Error&) {  // the builders fold constants: an overflowing fold is no clause
        out.push_back(a.le(syms[0], syms[1]));
      }
    }
    return out;
  }
};

std::vector<ExprId> three_symbols(ExprArena& a) {
  std::vector<ExprId> syms;
  for (int s = 0; s < 3; ++s) syms.push_back(a.symbol(std::string(1, char('a' + s)), SymbolKind::Backed, kFactInteger));
  return syms;
}

// First failing clause per example by evaluate_bool (an error fails the clause).
std::vector<int32_t> reference(const ExprArena& a, const std::vector<ExprId>& clauses, const std::vector<ExprId>& syms,
                               const std::vector<std::vector<int64_t>>& cols, size_t n) {
  std::vector<int32_t> out(n, kPass);
  for (size_t e = 0; e < n; ++e) {
    Bindings b;
    for (size_t s = 0; s < syms.size(); ++s) b.set(a.symbol_id(syms[s]), cols[s][e]);
    for (size_t c = 0; c < clauses.size(); ++c) {
      bool holds = false;
      try {
        holds = evaluate_bool(a, clauses[c], b);
      } catch (const Error&) {
        holds = false;
      }
      if (!holds) {
        out[e] = int32_t(c);
        break;
      }
    }
  }
  return out;
}

// symbol syms[s] reads column s
std::vector<uint32_t> symbol_columns(const ExprArena& a, const std::vector<ExprId>& syms) {
  std::vector<uint32_t> out(a.symbol_count(), UINT32_MAX);
  for (size_t s = 0; s < syms.size(); ++s) out[a.symbol_id(syms[s]).index()] = uint32_t(s);
  return out;
}

// `got` equals the reference's `want`; the first difference names where it ran, the
// example's three sizes and the clause the reference fails.
::testing::AssertionResult same_verdicts(const std::vector<int32_t>& got, const std::vector<int32_t>& want,
                                         const ExprArena& a, const std::vector<ExprId>& clauses,
                                         const std::vector<std::vector<int64_t>>& cols, const std::string& where) {
  for (size_t e = 0; e < want.size(); ++e)
    if (got[e] != want[e])
      return ::testing::AssertionFailure()
             << where << " example " << e << ": got " << got[e] << ", want " << want[e] << " a=" << cols[0][e]
             << " b=" << cols[1][e] << " c=" << cols[2][e] << " clause "
             << (want[e] >= 0 ? to_str(a, clauses[size_t(want[e])]) : std::string("-"));
  return ::testing::AssertionSuccess();
}

TEST(GuardEvalProperty, VectorisedEqualsScalarReferenceAtEveryIsaAndThreadCount) {
  std::mt19937_64 rng(9001);
  size_t checked = 0, passing = 0;
  for (int round = 0; round < 200; ++round) {
    ExprArena a;
    const std::vector<ExprId> syms = three_symbols(a);
    ClauseGen g{a, rng, syms};
    std::vector<ExprId> clauses = g.clause_set();
    for (ExprId& r : clauses)
      if (g.pick(0, 15) == 0) r = a.le(syms[1], a.int_infinity());  // int_oo: scalar fallback
    // an unbound fourth symbol in a few clause sets: such a clause never holds
    const std::vector<uint32_t> symbol_column = symbol_columns(a, syms);
    const size_t n = size_t(g.pick(1, 3000));
    std::vector<std::vector<int64_t>> cols(3, std::vector<int64_t>(n));
    for (auto& col : cols)
      for (int64_t& v : col) {
        switch (g.pick(0, 9)) {
          case 0: v = -g.pick(0, 100); break;
          case 1: v = g.pick(INT64_MAX / 2, INT64_MAX); break;
          case 2: v = 0; break;
          default: v = g.pick(1, 70); break;
        }
      }
    const std::vector<int32_t> want = reference(a, clauses, syms, cols, n);
    const GuardProgram p = compile_clauses(a, clauses, symbol_column, {3});
    const ExampleColumns ex = ExampleColumns::from_columns({3}, cols);
    for (Isa isa : kEveryIsa) {
      if (!isa_available(isa)) continue;
      for (unsigned threads : {1u, 2u, 4u}) {
        ASSERT_TRUE(same_verdicts(evaluate_at(p, ex, isa, threads).verdict, want, a, clauses, cols,
                                  fmt::format("isa {} threads {}", isa_name(isa), threads)));
        checked += n;
        passing += size_t(std::count(want.begin(), want.end(), kPass));
      }
    }
  }
  EXPECT_GT(checked, 100000u);
  EXPECT_GT(passing, 1000u);  // the sets are not all trivially failing
}

// Narrow blocks (every size in [0, 2**20): guard_narrow_pass.cpp) run other instruction
// variants: 32-bit multiplies, multiply-shift divisions, no poison where intervals exclude
// overflow. Random clause sets over sizes mostly in that range, with some blocks holding
// one size outside it (negative, 2**20 itself, 2**40), must give the scalar verdicts, and
// both kinds of block must occur.
TEST(GuardEvalProperty, NarrowBlocksEqualTheScalarReference) {
  std::mt19937_64 rng(4242);
  uint64_t narrow = 0, exact = 0;
  size_t passing = 0, narrow_divisions = 0, narrow_multiplies = 0, narrow_register_divisions = 0;
  for (int round = 0; round < 120; ++round) {
    ExprArena a;
    const std::vector<ExprId> syms = three_symbols(a);
    ClauseGen g{a, rng, syms};
    const std::vector<ExprId> clauses = g.clause_set();
    const std::vector<uint32_t> symbol_column = symbol_columns(a, syms);
    const size_t n = guard_kernels::kBlock * size_t(g.pick(2, 5)) + size_t(g.pick(0, 3)) * 4;
    std::vector<std::vector<int64_t>> cols(3, std::vector<int64_t>(n));
    for (auto& col : cols)
      for (int64_t& v : col) {
        switch (g.pick(0, 5)) {
          case 0: v = g.pick(0, 2); break;
          case 1: v = g.pick((int64_t(1) << 20) - 64, (int64_t(1) << 20) - 1); break;
          case 2: v = g.pick(0, (int64_t(1) << 20) - 1); break;
          default: v = g.pick(1, 70); break;
        }
      }
    for (size_t blk = 0; blk * guard_kernels::kBlock < n; ++blk)  // one size out of range in some blocks
      if (g.pick(0, 2) == 0) {
        const int64_t outliers[] = {-1, -int64_t(g.pick(2, 1000)), int64_t(1) << 20, int64_t(1) << 40, INT64_MAX};
        const size_t e = std::min(n - 1, blk * guard_kernels::kBlock + size_t(g.pick(0, 511)));
        cols[size_t(g.pick(0, 2))][e] = outliers[g.pick(0, 4)];
      }
    const std::vector<int32_t> want = reference(a, clauses, syms, cols, n);
    const GuardProgram p = compile_clauses(a, clauses, symbol_column, {3});
    for (size_t i = 0; i < p.narrow.flags.size(); ++i) {
      const uint8_t f = p.narrow.flags[i];
      narrow_divisions += (f & guard_flag::kNarrowDiv) != 0;
      narrow_multiplies += (f & guard_flag::kNarrowMul32) != 0;
      narrow_register_divisions += (f & guard_flag::kNarrowDiv) && (p.op[i] == GuardOp::FloorDiv || p.op[i] == GuardOp::Mod);
    }
    const ExampleColumns ex = ExampleColumns::from_columns({3}, cols);
    for (Isa isa : kEveryIsa) {
      if (!isa_available(isa)) continue;
      const IsaRun run = evaluate_at(p, ex, isa);
      narrow += run.stats.narrow_blocks;
      exact += run.stats.blocks - run.stats.narrow_blocks;
      ASSERT_TRUE(same_verdicts(run.verdict, want, a, clauses, cols, fmt::format("isa {}", isa_name(isa))));
    }
    passing += size_t(std::count(want.begin(), want.end(), kPass));
  }
  EXPECT_GT(narrow, 100u);
  EXPECT_GT(exact, 100u);
  EXPECT_GT(narrow_divisions, 20u);  // the narrow variants are exercised
  EXPECT_GT(narrow_multiplies, 20u);
  EXPECT_GT(narrow_register_divisions, 5u);  // // and % by a register, in doubles
  EXPECT_GT(passing, 10000u);
}

// Positive narrow blocks (every size in [1, 2**20)) skip the clauses that the ones before
// them imply there (kPositiveByFacts, positive_block_facts.h). Random clause sets mix
// facts about a sub-expression t (`t != k`, `k <= t`, `t == k`, ...) with relations that
// share terms with them (`x < x + t*y + t`, ...), which the facts sometimes imply and
// sometimes do not (t may be 0 or negative, y may be large); most blocks are positive,
// some hold a 0 or an outlier. The verdicts must be the scalar reference's, and skipping
// must actually happen.
TEST(GuardEvalProperty, PositiveBlocksSkipOnlyImpliedClauses) {
  std::mt19937_64 rng(31337);
  uint64_t positive = 0, other = 0;
  size_t implied = 0, passing = 0, failing_before_implied = 0;
  for (int round = 0; round < 400; ++round) {
    ExprArena a;
    const std::vector<ExprId> syms = three_symbols(a);
    ClauseGen g{a, rng, syms};
    // t: a small sub-expression of one or two sizes, kept for a few clauses so that facts
    // about it and relations using it meet (its values cross the constants' boundaries)
    auto fresh_t = [&] {
      const ExprId s0 = syms[size_t(g.pick(0, 2))], s1 = syms[size_t(g.pick(0, 2))];
      switch (g.pick(0, 6)) {
        case 0: return s0;
        case 6: return a.neg(s0);  // its range ends at -1 from above
        case 1: return a.sub(s0, a.integer(g.pick(1, 3)));
        case 2: return a.floordiv(a.sub(s0, a.integer(1)), a.integer(g.pick(2, 4)));
        case 3: return a.floordiv(s0, a.integer(g.pick(2, 4)));
        case 4: return a.mod(s0, a.integer(g.pick(2, 4)));
        default: return a.mul(s0, s1);
      }
    };
    auto relate = [&](ExprId x, ExprId y) {
      switch (g.pick(0, 5)) {
        case 0: return a.eq(x, y);
        case 1: return a.ne(x, y);
        case 2: return a.lt(x, y);
        case 3: return a.le(x, y);
        case 4: return a.gt(x, y);
        default: return a.ge(x, y);
      }
    };
    std::vector<ExprId> clauses;
    ExprId t = fresh_t();
    for (int c = int(g.pick(2, 7)); c > 0; --c) {
      try {
        if (g.pick(0, 2) == 0) t = fresh_t();
        const ExprId k = a.integer(g.pick(-2, 3));  // around the ends of t's range
        switch (g.pick(0, 7)) {
          case 0: case 1: clauses.push_back(g.pick(0, 1) ? relate(t, k) : relate(k, t)); break;
          case 2: clauses.push_back(relate(a.add(a.mul(a.integer(g.pick(-3, 3)), t), a.integer(g.pick(-2, 2))), k)); break;
          case 3: {  // ceil-mode pooling's form: 1 + x < 1 + t*y + t + x
            const ExprId x = fresh_t(), y = fresh_t();
            clauses.push_back(relate(a.add(a.integer(1), x), a.add(a.add(a.add(a.integer(1), a.mul(t, y)), t), x)));
            break;
          }
          case 4: {
            const ExprId x = fresh_t();
            clauses.push_back(relate(a.add(x, k), a.add(x, t)));
            break;
          }
          case 5: clauses.push_back(relate(a.mul(t, fresh_t()), k)); break;
          default: clauses.push_back(g.relation(int(g.pick(0, 2)))); break;
        }
      } catch (const Error&) {  // an overflowing constant fold
        clauses.push_back(a.le(syms[0], syms[1]));
      }
    }
    const std::vector<uint32_t> symbol_column = symbol_columns(a, syms);
    const size_t n = guard_kernels::kBlock * size_t(g.pick(3, 6)) + size_t(g.pick(0, 3)) * 5;
    std::vector<std::vector<int64_t>> cols(3, std::vector<int64_t>(n));
    for (auto& col : cols)
      for (int64_t& v : col) v = g.pick(0, 3) ? g.pick(1, 12) : g.pick(1, (int64_t(1) << 20) - 1);
    for (size_t blk = 1; blk * guard_kernels::kBlock < n; blk += 2) {  // not positive: a 0, a negative or 2**20
      const int64_t outliers[] = {0, -int64_t(g.pick(1, 9)), int64_t(1) << 20};
      cols[size_t(g.pick(0, 2))][std::min(n - 1, blk * guard_kernels::kBlock + size_t(g.pick(0, 511)))] = outliers[g.pick(0, 2)];
    }
    const std::vector<int32_t> want = reference(a, clauses, syms, cols, n);
    const GuardProgram p = compile_clauses(a, clauses, symbol_column, {3});
    for (size_t c = 0; c < clauses.size(); ++c) {
      if (p.clause_positive[c] != kPositiveByFacts) continue;
      ++implied;
      for (size_t e = 0; e < n; ++e) failing_before_implied += want[e] >= 0 && size_t(want[e]) < c;
    }
    const ExampleColumns ex = ExampleColumns::from_columns({3}, cols);
    for (Isa isa : kEveryIsa) {
      if (!isa_available(isa)) continue;
      const IsaRun run = evaluate_at(p, ex, isa, 2);
      positive += run.stats.positive_blocks;
      other += run.stats.blocks - run.stats.positive_blocks;
      ASSERT_TRUE(same_verdicts(run.verdict, want, a, clauses, cols, fmt::format("isa {}", isa_name(isa))));
    }
    passing += size_t(std::count(want.begin(), want.end(), kPass));
  }
  EXPECT_GT(implied, 60u);                  // the facts prove clauses
  EXPECT_GT(failing_before_implied, 1000u);  // and lanes fail the clauses those proofs rest on
  EXPECT_GT(positive, 200u);
  EXPECT_GT(other, 200u);
  EXPECT_GT(passing, 1000u);
}

// Block bounds: a fused range check or comparison of a size with a constant is decided for
// a whole block by the least and greatest size of that column in it. Each block here draws
// its sizes from a narrow window (0 to 3 wide, anywhere from -3 to 40, or at an end of
// int64), so many blocks lie wholly on one side of a clause's constants and many straddle
// them; clause sets mix
// comparisons with constants near those windows, monotone chains (which become range
// checks) and random relations. The verdicts must be the scalar reference's, and bounds
// must decide clauses.
TEST(GuardEvalProperty, BlockBoundsDecideOnlyWholeBlocks) {
  std::mt19937_64 rng(2718);
  uint64_t decided = 0, narrow = 0;
  size_t failing = 0;
  for (int round = 0; round < 200; ++round) {
    ExprArena a;
    const std::vector<ExprId> syms = three_symbols(a);
    ClauseGen g{a, rng, syms};
    std::vector<ExprId> clauses;
    for (int c = int(g.pick(1, 6)); c > 0; --c) {
      const ExprId s = syms[size_t(g.pick(0, 2))];
      const ExprId k = a.integer(g.pick(-2, 42));
      try {
        switch (g.pick(0, 7)) {
          case 0: clauses.push_back(a.eq(s, k)); break;
          case 1: clauses.push_back(a.ne(s, k)); break;
          case 2: clauses.push_back(g.pick(0, 1) ? a.lt(s, k) : a.le(s, k)); break;
          case 3: clauses.push_back(g.pick(0, 1) ? a.gt(s, k) : a.ge(s, k)); break;
          case 4: clauses.push_back(a.ne(a.add(a.integer(1), a.floordiv(a.sub(s, a.integer(1)), a.integer(g.pick(2, 8)))), a.integer(1))); break;
          case 5: clauses.push_back(a.le(a.floordiv(s, a.integer(g.pick(2, 5))), a.integer(g.pick(0, 9)))); break;
          default: clauses.push_back(g.relation(int(g.pick(0, 2)))); break;
        }
      } catch (const Error&) {
        clauses.push_back(a.le(syms[0], syms[1]));
      }
    }
    const std::vector<uint32_t> symbol_column = symbol_columns(a, syms);
    const size_t n = guard_kernels::kBlock * size_t(g.pick(4, 8)) + size_t(g.pick(0, 3)) * 4;
    std::vector<std::vector<int64_t>> cols(3, std::vector<int64_t>(n));
    for (auto& col : cols)
      for (size_t blk = 0; blk * guard_kernels::kBlock < n; ++blk) {
        // now and then at an end of int64, where the chains' steps overflow
        const int64_t spread = g.pick(0, 3);
        const int64_t base = g.pick(0, 9) ? g.pick(-3, 40) : g.pick(0, 1) ? INT64_MIN : INT64_MAX - 3;
        for (size_t e = blk * guard_kernels::kBlock; e < std::min(n, (blk + 1) * guard_kernels::kBlock); ++e)
          col[e] = base + g.pick(0, spread);
      }
    const std::vector<int32_t> want = reference(a, clauses, syms, cols, n);
    const GuardProgram p = compile_clauses(a, clauses, symbol_column, {3});
    const ExampleColumns ex = ExampleColumns::from_columns({3}, cols);
    for (Isa isa : kEveryIsa) {
      if (!isa_available(isa)) continue;
      const IsaRun run = evaluate_at(p, ex, isa, 2);
      decided += run.stats.bound_decided;
      narrow += run.stats.narrow_blocks;
      ASSERT_TRUE(same_verdicts(run.verdict, want, a, clauses, cols, fmt::format("isa {}", isa_name(isa))));
    }
    failing += size_t(std::count_if(want.begin(), want.end(), [](int32_t v) { return v >= 0; }));
  }
  EXPECT_GT(decided, 1000u);
  EXPECT_GT(narrow, 500u);
  EXPECT_GT(failing, 10000u);
}

TEST(GuardEval, OverflowFailsTheClauseWithAReason) {
  ExprArena a;
  const ExprId s0 = a.symbol("s0", SymbolKind::Backed, kFactInteger);
  const ExprId clause = a.gt(a.mul(a.integer(4), s0), a.integer(0));  // 4*s0 > 0 overflows for huge s0
  const uint32_t col[] = {0};
  const GuardProgram p = compile_clauses(a, std::span<const ExprId>(&clause, 1), col, {1});
  const ExampleColumns ex = ExampleColumns::from_columns({1}, {{5, INT64_MAX / 2, -5}});
  int32_t v[3];
  GuardFailure why[3];
  evaluate_guards(p, ex, 0, 3, v, why);
  EXPECT_EQ(v[0], kPass);
  EXPECT_EQ(v[1], 0);
  EXPECT_EQ(why[1], GuardFailure::Overflow);
  EXPECT_EQ(v[2], 0);
  EXPECT_EQ(why[2], GuardFailure::False);
}

// A clause that is a true constant (storage_offset() == 0 and the last dim's stride() == 1
// for examples given as sizes) is decided when compiled: no lane work, but it keeps its
// place in the clause numbering and counts as checked. Its constant is not even written
// (kUnread) unless something else reads it.
TEST(GuardEval, DecidedClausesKeepTheirNumbersAndCount) {
  ExprArena a;
  const ExprId x = a.symbol("x", SymbolKind::Backed, kFactInteger);
  const ExprId clauses[] = {a.ge(x, a.integer(2)), a.eq(a.integer(0), a.integer(0)), a.le(x, a.integer(10))};
  const uint32_t col[] = {0};
  const GuardProgram p = compile_clauses(a, clauses, col, {1});
  EXPECT_EQ(p.clause_decided, (std::vector<uint8_t>{0, 1, 0}));
  size_t unread = 0;
  for (size_t i = 0; i < p.op.size(); ++i)
    if (p.flags[i] & guard_flag::kUnread) {
      EXPECT_EQ(p.op[i], GuardOp::Const);
      EXPECT_EQ(p.dst[i], p.clause_reg[1]);
      ++unread;
    }
  EXPECT_EQ(unread, 1u);
  const ExampleColumns ex = ExampleColumns::from_columns({1}, {{5, 11, 1}});
  int32_t v[3];
  GuardFailure why[3];
  GuardEvalStats stats;
  evaluate_guards(p, ex, 0, 3, v, why, {}, &stats);
  EXPECT_EQ(v[0], kPass);
  EXPECT_EQ(v[1], 2);
  EXPECT_EQ(v[2], 0);
  EXPECT_EQ(stats.clauses, 3u + 3u + 1u);
}

TEST(GuardEval, ForcedIsaNamesAreKnown) {
  EXPECT_TRUE(isa_available(Isa::Scalar));
  EXPECT_STREQ(isa_name(default_isa()), isa_name(default_isa()));
  for (Isa isa : {Isa::Scalar, Isa::Sse2, Isa::Avx2, Isa::Avx512}) EXPECT_NE(std::string(isa_name(isa)), "?");
}

}  // namespace
}  // namespace symshape
