// `symshape expr ...`: the expression layer from the command line.
//   simplify EXPR     canonical `str` form (--guard: the Python guard form)
//   bound EXPR        value range, e.g. [2, int_oo]
//   equal A B         true when provably equal for every integer value within the ranges
//   demo              conv output-size chains: canonical forms and build times
// Symbols are integer symbols; `--range NAME=LO:HI` bounds one (LO/HI integers, -oo, oo)
// and gives it the facts the range implies (LO >= 1 positive, LO >= 0 non-negative), so
// canonicalisation such as Max(1, s) -> s or Mod vs PythonMod sees them.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/error.h"
#include "expr/bound.h"
#include "expr/canonical.h"
#include "expr/equality.h"
#include "expr/expr.h"
#include "expr/parser.h"
#include "expr/printer.h"

namespace symshape::cli {

namespace {

struct ExprOptions {
  std::vector<std::string> ranges;
};

ExtNum parse_bound(const std::string& text, const std::string& spec) {
  if (text == "oo" || text == "int_oo" || text == "+oo") return ExtNum::int_oo(1);
  if (text == "-oo" || text == "-int_oo") return ExtNum::int_oo(-1);
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used == text.size()) return ExtNum::of(v);
  } catch (const std::exception&) {
  }
  throw_error(ErrorKind::BadInput, fmt::format("bad bound '{}' in --range {} (an integer, -oo or oo)", text, spec));
}

// The CLI's symbol table: names -> ranges from --range, facts derived from them.
class Symbols {
 public:
  Symbols(ExprArena& arena, const std::vector<std::string>& specs) : arena_(arena) {
    for (const std::string& spec : specs) {
      const size_t eq = spec.find('='), colon = spec.rfind(':');
      if (eq == std::string::npos || colon == std::string::npos || colon < eq)
        throw_error(ErrorKind::BadInput, fmt::format("--range expects NAME=LO:HI, got '{}'", spec));
      const std::string name = spec.substr(0, eq);
      const ExtNum lo = parse_bound(spec.substr(eq + 1, colon - eq - 1), spec);
      const ExtNum hi = parse_bound(spec.substr(colon + 1), spec);
      ranges_[name] = ValueRange(lo, hi);  // throws "Invalid ranges [lo:hi]"
    }
  }

  ExprId resolve(std::string_view name) {
    if (ExprId e = arena_.find_symbol(name)) return e;
    uint8_t facts = kFactInteger;
    if (auto it = ranges_.find(std::string(name)); it != ranges_.end()) {
      if (it->second.lo >= ExtNum::of(1)) facts |= kFactPositive | kFactNonNegative;
      else if (it->second.lo >= ExtNum::of(0)) facts |= kFactNonNegative;
    }
    // the prefix still says what kind of symbol it is (A.2); the facts come from --range
    SymbolKind kind = SymbolKind::Free;
    if (name.size() > 1 && name[0] == 's') kind = SymbolKind::Backed;
    if (name.size() > 1 && name[0] == 'u') kind = SymbolKind::Unbacked;
    return arena_.symbol(name, kind, facts);
  }

  // Ranges indexed by SymbolId (unknown integers where none was given).
  std::vector<ValueRange> ranges() const {
    std::vector<ValueRange> out(arena_.symbol_count(), ValueRange::unknown_int());
    for (uint32_t s = 0; s < arena_.symbol_count(); ++s) {
      const auto it = ranges_.find(std::string(arena_.symbol_info(SymbolId(s)).name));
      if (it != ranges_.end()) out[s] = it->second;
    }
    return out;
  }

  ParseOptions parse_options() {
    ParseOptions o;
    o.resolve_symbol = [this](std::string_view name) { return resolve(name); };
    return o;
  }

 private:
  ExprArena& arena_;
  std::map<std::string, ValueRange, std::less<>> ranges_;
};

void add_range_option(CLI::App* cmd, ExprOptions& opts) {
  cmd->add_option("--range", opts.ranges, "Range of a symbol: NAME=LO:HI (integers, -oo, oo); repeatable");
}

// conv output size: (x + 2p - d*(k-1) - 1) // s + 1
ExprId conv_out(ExprArena& a, ExprId x, int64_t k, int64_t s, int64_t p, int64_t d) {
  return a.add(a.floordiv(a.add(x, a.integer(2 * p - d * (k - 1) - 1)), a.integer(s)), a.one());
}

// Best of 20 rounds of the mean over `repeats` calls (a loaded machine only adds noise).
template <class Fn>
double time_us(Fn fn, int repeats) {
  double best = 1e300;
  for (int round = 0; round < 20; ++round) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < repeats; ++i) fn();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count() / repeats);
  }
  return best;
}

int run_demo() {
  ExprArena a;
  const uint8_t size_facts = kFactInteger | kFactPositive | kFactNonNegative;
  ExprId deep, five;
  // cold: a fresh arena each time (the first chain of a graph)
  const double deep_us = time_us(
      [&] {
        a.clear();
        ExprId x = a.symbol("s0", SymbolKind::Backed, size_facts);
        for (int i = 0; i < 50; ++i) x = conv_out(a, x, 3, 1, 1, 2);
        deep = x;
      },
      20);
  const size_t deep_nodes = a.size();
  const double five_us = time_us(
      [&] {
        a.clear();
        ExprId x = a.symbol("s0", SymbolKind::Backed, size_facts);
        for (int i = 0; i < 5; ++i) x = conv_out(a, x, 3, 2, 1, 1);
        five = x;
      },
      20);
  fmt::print("depth-50 conv chain (k=3, s=1, p=1, d=2):   {}\n", to_str(a, deep));
  fmt::print("  build: {:.2f} us cold ({} arena nodes)\n", deep_us, deep_nodes);
  fmt::print("five stride-2 3x3 pad-1 convs:              {}\n", to_str(a, five));
  fmt::print("  guard form: {}\n", to_guard_str(a, five, [](ExprId) { return std::string("L['x'].size()[2]"); }));
  fmt::print("  build: {:.2f} us cold\n", five_us);
  // warm: the same chain again in the same arena (hash-consed, memoised builders)
  ExprId s0 = a.symbol("s0", SymbolKind::Backed, size_facts);
  const double warm_us = time_us(
      [&] {
        ExprId x = s0;
        for (int i = 0; i < 50; ++i) x = conv_out(a, x, 3, 2, 1, 1);
        deep = x;
      },
      200);
  fmt::print("depth-50 stride-2 chain:                    {}\n", to_str(a, deep));
  fmt::print("  build: {:.2f} us warm\n", warm_us);
  return 0;
}

}  // namespace

void register_expr(CLI::App& app) {
  CLI::App* expr = app.add_subcommand("expr", "Symbolic expression tools");
  expr->require_subcommand(1);

  static ExprOptions simplify_opts, bound_opts, equal_opts;
  static std::string simplify_text, bound_text, equal_a, equal_b;
  static bool guard = false;

  CLI::App* simplify = expr->add_subcommand("simplify", "Print the canonical str form of EXPR");
  simplify->add_option("EXPR", simplify_text, "Expression (str or Python guard syntax)")->required();
  simplify->add_flag("--guard", guard, "Print the Python guard form instead");
  add_range_option(simplify, simplify_opts);
  simplify->callback([] {
    ExprArena a;
    Symbols syms(a, simplify_opts.ranges);
    const ExprId e = parse_expr(a, simplify_text, syms.parse_options());
    fmt::print("{}\n", guard ? to_guard_str(a, e) : to_str(a, e));
    exit_code() = 0;
  });

  CLI::App* bnd = expr->add_subcommand("bound", "Print the value range of EXPR");
  bnd->add_option("EXPR", bound_text, "Expression")->required();
  add_range_option(bnd, bound_opts);
  bnd->callback([] {
    ExprArena a;
    Symbols syms(a, bound_opts.ranges);
    const ExprId e = parse_expr(a, bound_text, syms.parse_options());
    fmt::print("{}\n", tight_bound(a, e, syms.ranges()).str());
    exit_code() = 0;
  });

  CLI::App* equal = expr->add_subcommand("equal", "Print true when A and B are provably equal, else false");
  equal->add_option("A", equal_a, "First expression")->required();
  equal->add_option("B", equal_b, "Second expression")->required();
  add_range_option(equal, equal_opts);
  equal->callback([] {
    ExprArena a;
    Symbols syms(a, equal_opts.ranges);
    const ParseOptions o = syms.parse_options();
    const ExprId x = parse_expr(a, equal_a, o), y = parse_expr(a, equal_b, o);
    fmt::print("{}\n", provably_equal(a, x, y, syms.ranges()) ? "true" : "false");
    exit_code() = 0;
  });

  CLI::App* demo = expr->add_subcommand("demo", "Build conv output-size chains; print forms and build times");
  demo->callback([] { exit_code() = run_demo(); });
}

}  // namespace symshape::cli
