#pragma once
// DimConstraints (semantics.md F.8): the small solver export feeds with every input
// equality, undecided guard and finite range bound of the dimension symbols. Facts with
// one free symbol are kept per symbol after `x % d` and `x // d` are rewritten with the
// symbol's example value (each rewrite adds a congruence `(base - k) % d == 0`); facts with
// several symbols are parked until equalities fix some of their symbols. solve() turns
// them into PyTorch's result strings over sources:
//   static   "L['x'].size()[0] == 8"
//   dynamic  "3 <= L['x'].size()[0]", "L['x'].size()[0] <= 16",
//            "L['x'].size()[0] == 2*_dx + 1" (a congruence), "L['y'].size()[0] == L['x'].size()[0] + 1"
// Linear facts are solved exactly over rationals; a fact that is not linear in its symbol
// after the rewrite (a power, Max, ...) is left out of the range reduction (sympy's
// reduce_inequalities would solve the polynomial; none of the spec-check paths produce one).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "expr/expr.h"

namespace symshape::spec {

// A rational number num/den (den > 0, reduced); arithmetic throws Error(Overflow).
struct Rational {
  int64_t num = 0;
  int64_t den = 1;
  static Rational of(int64_t n, int64_t d = 1);
  bool is_integer() const { return den == 1; }
  bool operator==(const Rational&) const = default;
};
Rational operator+(Rational a, Rational b);
Rational operator-(Rational a, Rational b);
Rational operator*(Rational a, Rational b);
Rational operator/(Rational a, Rational b);

// a*s + b over the one free symbol of a univariate fact.
struct Linear {
  Rational a, b;
};

// A symbol the solver knows: its example value, its first source, whether the spec marked it
// dynamic (a named Dim or Dim.DYNAMIC: a solved value is then a forced specialisation).
struct DimSymbol {
  ExprId symbol;
  int64_t hint = 0;
  std::string source;      // "L['x'].size()[0]"
  std::string debug_name;  // the Dim name, empty when none
  bool marked_dynamic = false;
};

// `(s + offset) % modulus == 0` with 0 <= offset < modulus: s = modulus*k - offset.
struct ReducedCongruence {
  ExprId symbol;
  int64_t offset = 0;
  int64_t modulus = 1;
};

class DimConstraints {
 public:
  DimConstraints(ExprArena& arena, std::vector<DimSymbol> symbols);

  // Beyond PyTorch: also solve a fact with a function export's solver drops (a CleanDiv is
  // solved as the FloorDiv it is). Off by default: the results are export's.
  void solve_facts_export_drops(bool on) { solve_dropped_functions_ = on; }

  // Adds a boolean fact; returns whether it is trivial (true, or true after the rewrite
  // without new congruences).
  bool add(ExprId fact);
  // `source == expr` from an input whose size is not its own symbol.
  void add_equality(std::string source, ExprId expr);
  // A congruence `base % divisor == 0` directly (tests of the reduction).
  void add_congruence(ExprId symbol, Linear base, int64_t divisor);

  // Per symbol, the congruences combined by CRT (moduli need not be coprime). Those the
  // combination cannot express stay as they are (`unreduced`).
  std::vector<ReducedCongruence> reduce_congruences() const;
  // Throws SpecError(ValueError) "The following inconsistencies were found:\n..." when a fact
  // is false at the example values.
  void solve();

  const std::vector<std::string>& static_results() const { return static_results_; }
  const std::vector<std::string>& dynamic_results() const { return dynamic_results_; }
  // "dx = L['x'].size()[0]" (or the source alone without a Dim name) -> value, for the
  // marked-dynamic symbols that solve() fixed.
  std::vector<std::pair<std::string, int64_t>> forced_specializations() const;

 private:
  enum class Rel : uint8_t { Eq, Le, Lt, Ge, Gt };
  struct Fact {
    Rel rel;
    Linear lhs;  // lhs rel 0
  };
  struct Congruence {
    Linear base;
    int64_t divisor;
    bool operator==(const Congruence& o) const {
      return base.a == o.base.a && base.b == o.base.b && divisor == o.divisor;
    }
  };
  struct PerSymbol {
    std::vector<Fact> facts;
    std::vector<Congruence> congruences;
    bool has_equality = false;
    bool solved = false;
    bool has_facts = false;
    int64_t value = 0;  // when solved
  };
  int index_of(ExprId symbol) const;
  void collect_symbols(ExprId e, std::vector<ExprId>& out) const;
  // The expression as a*s + b after the % and // rewrite; nullopt when not linear.
  std::optional<Linear> linearize(ExprId e, int s);
  std::optional<Linear> by_symbolic_divisor(Linear base, Linear div, int s, bool is_mod);
  void add_congruence_for(int s, Linear base, int64_t divisor);
  std::optional<bool> evaluate_at_hints(ExprId fact) const;
  ExprId substitute(ExprId e, ExprId symbol, int64_t value);
  std::string print(ExprId e) const;  // symbols as their sources
  void add_result(std::vector<std::string>& to, std::string s);
  void raise_inconsistencies();

  ExprArena& arena_;
  bool solve_dropped_functions_ = false;
  std::vector<DimSymbol> symbols_;
  std::vector<PerSymbol> per_;
  std::vector<ExprId> multivariate_;
  std::vector<std::pair<std::string, ExprId>> equivalences_;
  std::vector<std::string> static_results_, dynamic_results_, inconsistencies_;
};

}  // namespace symshape::spec
