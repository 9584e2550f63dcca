// Ported peer test suites (TVM's arith simplifier and bound tests, JAX's symbolic-dimension
// tests, PyTorch's sympy and indexing tests): the expressions those suites decide, as data
// in peer_cases.inc, each checked against brute-force evaluation over a box of symbol
// values. A claimed equality or range that brute force refutes fails the test (unsound);
// a case the engine leaves undecided is counted, not failed.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "expr/equality.h"
#include "expr/evaluate.h"
#include "expr/parser.h"
#include "expr/printer.h"

namespace symshape::test {
namespace {

enum class CaseKind {
  Equal,     // the peer suite proves a == b
  NotEqual,  // the peer suite keeps a and b apart (a non-identity the engine must not claim)
  Bound,     // the peer suite bounds a within b = "lo:hi" ("-oo"/"oo" for unbounded)
  Source,    // not a case: a = the peer file and test the following cases come from
};

struct PeerCase {
  const char* suite;
  CaseKind kind;
  const char* a;
  const char* b;
  const char* ranges;  // "x=0:100 y=2:100"; unlisted symbols are unbounded integers
};

constexpr PeerCase kCases[] = {
#define EQ(suite, a, b, ranges) {suite, CaseKind::Equal, a, b, ranges},
#define NE(suite, a, b, ranges) {suite, CaseKind::NotEqual, a, b, ranges},
#define BOUND(suite, a, b, ranges) {suite, CaseKind::Bound, a, b, ranges},
#define SOURCE(where) {"", CaseKind::Source, where, "", ""},
#include "peer_cases.inc"
#undef SOURCE
#undef EQ
#undef NE
#undef BOUND
};

ExtNum parse_end(const std::string& s) {
  if (s == "oo") return ExtNum::int_oo(1);
  if (s == "-oo") return ExtNum::int_oo(-1);
  return ExtNum::of(std::stoll(s));
}

ValueRange parse_range(const std::string& text) {
  const size_t colon = text.rfind(':');
  return ValueRange(parse_end(text.substr(0, colon)), parse_end(text.substr(colon + 1)));
}

// The symbols of one case: ranges and the facts they imply, as `symshape expr` does.
struct CaseSymbols {
  ExprArena& arena;
  std::map<std::string, ValueRange> declared;
  std::vector<ExprId> symbols;

  CaseSymbols(ExprArena& a, const char* spec) : arena(a) {
    std::istringstream in(spec);
    std::string item;
    while (in >> item) {
      const size_t eq = item.find('=');
      declared.emplace(item.substr(0, eq), parse_range(item.substr(eq + 1)));
    }
  }
  ExprId resolve(std::string_view name) {
    if (ExprId e = arena.find_symbol(name)) return e;
    uint8_t facts = kFactInteger;
    if (auto it = declared.find(std::string(name)); it != declared.end()) {
      if (it->second.lo >= ExtNum::of(1)) facts |= kFactPositive | kFactNonNegative;
      else if (it->second.lo >= ExtNum::of(0)) facts |= kFactNonNegative;
    }
    const ExprId e = arena.symbol(name, SymbolKind::Free, facts);
    symbols.push_back(e);
    return e;
  }
  ExprId parse(const char* text) {
    ParseOptions o;
    o.resolve_symbol = [this](std::string_view n) { return resolve(n); };
    return parse_expr(arena, text, o);
  }
  ValueRange range_of(ExprId sym) const {
    const auto it = declared.find(std::string(arena.symbol_info(arena.symbol_id(sym)).name));
    return it == declared.end() ? ValueRange::unknown_int() : it->second;
  }
  std::vector<ValueRange> ranges() const {
    std::vector<ValueRange> out(arena.symbol_count(), ValueRange::unknown_int());
    for (ExprId s : symbols) out[arena.symbol_id(s).index()] = range_of(s);
    return out;
  }
};

// The brute-force box: every symbol's range clipped to a window small enough that the
// whole box has at most ~40,000 points (the lower end when finite, else around 0).
struct Box {
  std::vector<int64_t> lo, hi;
};

Box box_for(const CaseSymbols& syms) {
  const size_t n = syms.symbols.size();
  const int64_t width = n == 0 ? 1 : std::min<int64_t>(400, static_cast<int64_t>(std::pow(40000.0, 1.0 / n)));
  Box box;
  for (ExprId s : syms.symbols) {
    const ValueRange r = syms.range_of(s);
    int64_t lo, hi;
    if (r.lo.kind == ExtNum::Kind::Int) {
      lo = r.lo.i;
      hi = r.hi.kind == ExtNum::Kind::Int ? std::min(r.hi.i, lo + width - 1) : lo + width - 1;
    } else if (r.hi.kind == ExtNum::Kind::Int) {
      hi = r.hi.i;
      lo = hi - width + 1;
    } else {
      lo = -(width / 2);
      hi = lo + width - 1;
    }
    box.lo.push_back(lo);
    box.hi.push_back(hi);
  }
  return box;
}

// Calls `visit` with bindings for every point of the box.
template <class Visit>
void for_each_point(const CaseSymbols& syms, const Box& box, Visit&& visit) {
  Bindings b;
  std::vector<int64_t> at = box.lo;
  const size_t n = at.size();
  while (true) {
    for (size_t i = 0; i < n; ++i) b.set(syms.arena.symbol_id(syms.symbols[i]), at[i]);
    visit(b);
    size_t i = 0;
    while (i < n && at[i] == box.hi[i]) at[i] = box.lo[i], ++i;
    if (i == n) return;
    ++at[i];
  }
}

// Calls `visit` with `count` seeded random points of the symbols' ranges, each symbol
// drawn from up to 2^20 values from its lower end (or around 0): values the box's
// small window does not reach (e.g. x = 1024 for a modulus of 1024).
template <class Visit>
void for_each_far_point(const CaseSymbols& syms, int count, Visit&& visit) {
  std::mt19937_64 rng(0x5eed);
  Bindings b;
  for (int k = 0; k < count; ++k) {
    for (ExprId s : syms.symbols) {
      const ValueRange r = syms.range_of(s);
      const int64_t span = int64_t{1} << (1 + rng() % 20);
      int64_t lo, hi;
      if (r.lo.kind == ExtNum::Kind::Int) {
        lo = r.lo.i;
        hi = r.hi.kind == ExtNum::Kind::Int ? std::min(r.hi.i, lo + span) : lo + span;
      } else if (r.hi.kind == ExtNum::Kind::Int) {
        hi = r.hi.i;
        lo = hi - span;
      } else {
        lo = -span;
        hi = span;
      }
      b.set(syms.arena.symbol_id(s), lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1)));
    }
    visit(b);
  }
}

std::optional<int64_t> value_at(const ExprArena& a, ExprId e, const Bindings& b) {
  try {
    const Scalar s = evaluate(a, e, b);
    if (s.kind == Scalar::Kind::Float) return std::nullopt;
    return s.i;
  } catch (const Error&) {  // division by zero, overflow: no value at this point
    return std::nullopt;
  }
}

// Decided count when the table was ported; a rule that stops deciding fails the test.
constexpr int kMinimumDecided = 419;

struct Tally {
  int cases = 0, decided = 0, unsound = 0;
};

TEST(PeerSuites, EveryPortedCaseIsSoundAndMostAreDecided) {
  std::map<std::string, Tally> per_suite;
  Tally total;
  const char* source = "";
  for (const PeerCase& c : kCases) {
    if (c.kind == CaseKind::Source) {
      source = c.a;
      continue;
    }
    ExprArena a;
    CaseSymbols syms(a, c.ranges);
    const ExprId x = syms.parse(c.a);
    const ExprId y = c.kind == CaseKind::Bound ? ExprId() : syms.parse(c.b);
    const std::vector<ValueRange> ranges = syms.ranges();
    const Box box = box_for(syms);
    const std::string what = std::string(c.suite) + ": " + c.a + (c.kind == CaseKind::Bound ? " in " : " vs ") + c.b +
                             " [" + c.ranges + "] (" + source + ")";
    Tally& t = per_suite[c.suite];
    ++t.cases;
    bool decided = false, unsound = false;
    if (c.kind == CaseKind::Bound) {
      const ValueRange claimed = tight_bound(a, x, ranges), expected = parse_range(c.b);
      const auto check = [&](const Bindings& b) {
        const auto v = value_at(a, x, b);
        if (!v) return;
        if (!claimed.contains(*v)) {
          unsound = true;
          ADD_FAILURE() << "UNSOUND range " << claimed.str() << " misses " << *v << ": " << what;
        }
        EXPECT_TRUE(expected.contains(*v)) << "bad case data: " << *v << " outside " << what;
      };
      for_each_point(syms, box, check);
      for_each_far_point(syms, 2000, check);
      decided = claimed.lo >= expected.lo && claimed.hi <= expected.hi;
      if (!decided) std::printf("  undecided: %s (engine %s)\n", what.c_str(), claimed.str().c_str());
    } else {
      const bool claimed = provably_equal(a, x, y, ranges) && provably_equal(a, y, x, ranges);
      bool counterexample = false;
      const auto compare = [&](const Bindings& b) {
        const auto vx = value_at(a, x, b), vy = value_at(a, y, b);
        if (vx && vy && *vx != *vy) counterexample = true;
      };
      for_each_point(syms, box, compare);
      for_each_far_point(syms, 2000, compare);
      if (claimed && counterexample) {
        unsound = true;
        ADD_FAILURE() << "UNSOUND equality: " << what;
      }
      if (c.kind == CaseKind::Equal) {
        EXPECT_FALSE(counterexample) << "bad case data (not an identity): " << what;
        decided = claimed;
      } else {
        EXPECT_TRUE(counterexample) << "bad case data (no counterexample to the non-identity): " << what;
        decided = !claimed;
      }
      if (!decided) std::printf("  undecided: %s\n", what.c_str());
    }
    t.decided += decided;
    t.unsound += unsound;
  }
  for (const auto& [suite, t] : per_suite) {
    std::printf("%-22s cases=%3d decided=%3d unsound=%d\n", suite.c_str(), t.cases, t.decided, t.unsound);
    total.cases += t.cases;
    total.decided += t.decided;
    total.unsound += t.unsound;
  }
  std::printf("%-22s cases=%3d decided=%3d unsound=%d\n", "total", total.cases, total.decided, total.unsound);
  EXPECT_EQ(total.unsound, 0);
  EXPECT_GE(total.decided, kMinimumDecided) << "a rule stopped deciding ported cases";
}

}  // namespace
}  // namespace symshape::test
