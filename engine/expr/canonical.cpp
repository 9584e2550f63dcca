// Boolean canonical form (semantics.md A.8, PyTorch's canonicalize_bool_expr) and
// isolation of a symbol in a relation (B.5, try_solve).
#include "expr/canonical.h"
#include "expr/inline_vec.h"

#include <vector>

#include "core/checked_math.h"

namespace symshape {

namespace {

// ---- CNF ------------------------------------------------------------------------------

// Negation normal form: Not pushed through And/Or into the relations (De Morgan).
ExprId nnf(ExprArena& a, ExprId e, bool negate) {
  const ExprKind k = a.kind(e);
  if (k == ExprKind::Not) return nnf(a, a.operand(e, 0), !negate);
  if (k == ExprKind::And || k == ExprKind::Or) {
    InlineVec<ExprId, 8> args;
    for (ExprId x : a.operands(e)) args.push_back(nnf(a, x, negate));
    const bool conj = (k == ExprKind::And) != negate;
    return conj ? a.logical_and(args) : a.logical_or(args);
  }
  return negate ? a.logical_not(e) : e;
}

// Conjunctive normal form by distributing Or over And. A distribution that would exceed
// kMaxClauses clauses is not performed (the Or stays as it is).
constexpr size_t kMaxClauses = 4096;

ExprId cnf(ExprArena& a, ExprId e) {
  const ExprKind k = a.kind(e);
  if (k == ExprKind::And) {
    std::vector<ExprId> args;
    for (ExprId x : a.operands(e)) args.push_back(cnf(a, x));
    return a.logical_and(args);
  }
  if (k != ExprKind::Or) return e;
  // clauses: each a list of disjuncts; start with one empty clause
  std::vector<std::vector<ExprId>> clauses{{}};
  for (ExprId x : a.operands(e)) {
    const ExprId c = cnf(a, x);
    std::vector<ExprId> conjuncts;
    if (a.kind(c) == ExprKind::And) conjuncts.assign(a.operands(c).begin(), a.operands(c).end());
    else conjuncts.push_back(c);
    if (clauses.size() * conjuncts.size() > kMaxClauses) return e;
    std::vector<std::vector<ExprId>> next;
    for (const auto& cl : clauses)
      for (ExprId cj : conjuncts) {
        next.push_back(cl);
        next.back().push_back(cj);
      }
    clauses.swap(next);
  }
  std::vector<ExprId> ands;
  for (const auto& cl : clauses) ands.push_back(a.logical_or(cl));
  return a.logical_and(ands);
}

// ---- one relation -----------------------------------------------------------------------

std::span<const ExprId> summands(const ExprArena& a, const ExprId& e) {
  if (a.kind(e) == ExprKind::Add) return a.operands(e);
  return {&e, 1};
}

// |integer coefficient| of a term (1 when it has none).
int64_t integer_coefficient(const ExprArena& a, ExprId t) {
  if (a.kind(t) == ExprKind::Integer) return a.payload(t) < 0 ? -a.payload(t) : a.payload(t);
  if (a.kind(t) == ExprKind::Mul && a.kind(a.operand(t, 0)) == ExprKind::Integer) {
    const int64_t c = a.payload(a.operand(t, 0));
    return c < 0 ? -c : c;
  }
  return 1;
}

ExprId div_by_factor(ExprArena& a, ExprId t, int64_t k) {
  if (k == 1) return t;
  if (a.kind(t) == ExprKind::Integer) return a.integer(a.payload(t) / k);
  auto [c, rest] = a.split_coefficient(t);
  return a.mul(a.integer(c / k), rest);
}

// Divides out the gcd of the integer coefficients of all summands (a lone integer becomes 1).
ExprId reduce_to_lowest_terms(ExprArena& a, ExprId e) {
  if (a.kind(e) == ExprKind::Integer) return a.one();
  if (a.kind(e) == ExprKind::Mul) return div_by_factor(a, e, integer_coefficient(a, e));
  if (a.kind(e) != ExprKind::Add) return e;
  int64_t g = 0;
  for (ExprId t : a.operands(e)) g = gcd64(g, integer_coefficient(a, t));
  if (g <= 1) return e;
  InlineVec<ExprId, 8> terms;
  for (ExprId t : a.operands(e)) terms.push_back(div_by_factor(a, t, g));
  return a.add(terms);
}

bool is_negative_term(const ExprArena& a, ExprId t) {
  if (a.is_number(t)) return a.float_value(t) < 0;
  return a.kind(t) == ExprKind::Mul && a.is_number(a.operand(t, 0)) && a.float_value(a.operand(t, 0)) < 0;
}

ExprId canonicalize_relation(ExprArena& a, ExprId e) {
  ExprKind k = a.kind(e);
  const ExprId l = a.operand(e, 0), r = a.operand(e, 1);
  if (a.is_boolean(l) || a.is_boolean(r)) return e;
  const auto [moved_from, moved_to] = canonical_relation_operands(k, l, r);
  const RelationSides sides = canonical_relation_sides(a, a.sub(moved_to, moved_from));
  // rebuilt without re-evaluation: `5 < s0` must stay a relation
  const ExprId ops[2] = {sides.lhs, sides.rhs};
  return a.make_raw(canonical_relation_kind(k), ops);
}

ExprId canonicalize(ExprArena& a, ExprId e) {
  const ExprKind k = a.kind(e);
  if (k == ExprKind::And || k == ExprKind::Or) {
    InlineVec<ExprId, 8> args;
    for (ExprId x : a.operands(e)) args.push_back(canonicalize(a, x));
    return k == ExprKind::And ? a.logical_and(args) : a.logical_or(args);
  }
  if (a.is_relation(e)) return canonicalize_relation(a, e);
  return e;
}

// ---- try_solve ------------------------------------------------------------------------------

bool is_inequality(ExprKind k) { return k == ExprKind::Lt || k == ExprKind::Le || k == ExprKind::Gt || k == ExprKind::Ge; }

// Sign of an expression from its facts: +1, -1, or 0 when unknown (or possibly zero).
int known_sign(const ExprArena& a, ExprId e) {
  if (a.is_number(e)) {
    const double v = a.float_value(e);
    return v > 0 ? 1 : v < 0 ? -1 : 0;
  }
  if (a.is_positive(e)) return 1;
  if (a.kind(e) == ExprKind::Mul && a.is_number(a.operand(e, 0))) {
    bool rest_positive = true;
    auto ops = a.operands(e);
    for (size_t i = 1; i < ops.size(); ++i) rest_positive = rest_positive && a.is_positive(ops[i]);
    if (rest_positive) return a.float_value(ops[0]) > 0 ? 1 : -1;
  }
  return 0;
}

// Factors of a product as (base, exponent).
void factor_list(const ExprArena& a, ExprId e, std::vector<std::pair<ExprId, int64_t>>& out) {
  out.clear();
  auto take = [&](ExprId f) {
    if (a.kind(f) == ExprKind::Pow && a.kind(a.operand(f, 1)) == ExprKind::Integer)
      out.emplace_back(a.operand(f, 0), a.payload(a.operand(f, 1)));
    else
      out.emplace_back(f, 1);
  };
  if (a.kind(e) == ExprKind::Mul) {
    for (ExprId f : a.operands(e)) take(f);
  } else {
    take(e);
  }
}

// rhs / divisor when the quotient is an integer expression summand by summand (integer
// coefficients divisible, symbolic factors present); nullopt otherwise. PyTorch would get
// a non-integer right-hand side here, which all its callers reject.
std::optional<ExprId> exact_divide(ExprArena& a, ExprId rhs, ExprId divisor) {
  auto [dc, drest] = a.split_coefficient(divisor);
  if (dc == 0) return std::nullopt;
  std::vector<std::pair<ExprId, int64_t>> dfactors, tfactors;
  if (drest != a.one()) factor_list(a, drest, dfactors);
  std::vector<ExprId> terms;
  for (ExprId t : summands(a, rhs)) {
    if (!a.is_integer(t)) return std::nullopt;
    auto [c, rest] = a.split_coefficient(t);
    if (c % dc != 0) return std::nullopt;
    std::vector<ExprId> kept;
    if (rest != a.one()) factor_list(a, rest, tfactors);
    else tfactors.clear();
    for (auto [base, exp] : dfactors) {
      bool found = false;
      for (auto& tf : tfactors)
        if (tf.first == base && tf.second >= exp) {
          tf.second -= exp;
          found = true;
          break;
        }
      if (!found) return std::nullopt;
    }
    std::vector<ExprId> fs{a.integer(c / dc)};
    for (auto [base, exp] : tfactors) fs.push_back(a.pow(base, exp));
    terms.push_back(a.mul(fs));
  }
  return a.add(terms);
}

// One round of _try_isolate_lhs. Returns an invalid id when the isolation has to give up.
ExprId isolate_once(ExprArena& a, ExprId e, ExprId t, bool floordiv_inequality) {
  if (!a.is_relation(e)) return e;
  // move the summands without t to the right
  {
    const ExprId l = a.operand(e, 0), r = a.operand(e, 1);
    InlineVec<ExprId, 8> others;
    if (a.kind(l) == ExprKind::Add)
      for (ExprId x : a.operands(l))
        if (!a.contains(x, t)) others.push_back(x);
    // rebuilt through the builder even with nothing to move: a raw relation (a canonical
    // form) comes out in the builder's form
    if (others.empty()) {
      e = a.relation(a.kind(e), l, r);
    } else {
      const ExprId c = a.add(std::span<const ExprId>(others));
      e = a.relation(a.kind(e), a.sub(l, c), a.sub(r, c));
    }
    if (!a.is_relation(e)) return e;
  }
  // divide both sides by the factors without t
  if (a.kind(a.operand(e, 0)) == ExprKind::Mul) {
    ExprKind op = a.kind(e);
    const ExprId l = a.operand(e, 0), r = a.operand(e, 1);
    InlineVec<ExprId, 8> with, without;
    for (ExprId f : a.operands(l)) (a.contains(f, t) ? with : without).push_back(f);
    const ExprId other = a.mul(std::span<const ExprId>(without));
    const int sign = known_sign(a, other);
    // PyTorch gives up on an inequality only when `other.is_negative` is unknown: a factor
    // known non-negative (a floor division of a size by a constant) divides both sides
    // unmirrored, so `w//8 < (h//8)*(w//8)` solves to `h//8 > 1`, then `h >= 16`
    const bool skip = is_inequality(op) ? sign == 0 && !a.is_nonnegative(other) : r == a.zero();
    if (!skip && other != a.one()) {
      const auto q = exact_divide(a, r, other);
      if (!q) return ExprId{};
      if (is_inequality(op) && sign < 0) op = mirror(op);
      e = a.relation(op, a.mul(std::span<const ExprId>(with)), *q);
      if (!a.is_relation(e)) return e;
    }
  }
  // a // b op c with b > 0 and c an integer
  const ExprId l = a.operand(e, 0), r = a.operand(e, 1);
  if (floordiv_inequality && a.kind(l) == ExprKind::FloorDiv && a.is_positive(a.operand(l, 1)) && a.is_integer(r)) {
    const ExprId num = a.operand(l, 0), den = a.operand(l, 1);
    const ExprId lo = a.mul(r, den), hi = a.mul(a.add(r, a.one()), den);
    switch (a.kind(e)) {
      case ExprKind::Eq: return a.logical_and(a.ge(num, lo), a.lt(num, hi));
      case ExprKind::Ne: return a.logical_or(a.lt(num, lo), a.ge(num, hi));
      case ExprKind::Gt: return a.ge(num, hi);
      case ExprKind::Ge: return a.ge(num, lo);
      case ExprKind::Lt: return a.lt(num, lo);
      case ExprKind::Le: return a.lt(num, hi);
      default: break;
    }
  }
  return e;
}

}  // namespace

RelationSides canonical_relation_sides(ExprArena& a, ExprId difference) {
  ExprId lhs = a.zero();
  ExprId rhs = reduce_to_lowest_terms(a, difference);
  if (a.kind(rhs) == ExprKind::Add) {
    InlineVec<ExprId, 8> pos, neg;
    for (ExprId t : a.operands(rhs)) {
      if (is_negative_term(a, t)) neg.push_back(a.neg(t));
      else pos.push_back(t);
    }
    rhs = a.add(pos);
    lhs = a.add(neg);
  } else if (is_negative_term(a, rhs)) {
    lhs = a.neg(rhs);
    rhs = a.zero();
  }
  return {lhs, rhs};
}

ExprId canonicalize_bool(ExprArena& arena, ExprId e) {
  const ExprKind k = arena.kind(e);
  if (!arena.is_relation(e) && k != ExprKind::And && k != ExprKind::Or && k != ExprKind::Not) return e;
  if (k == ExprKind::And || k == ExprKind::Or || k == ExprKind::Not) e = cnf(arena, nnf(arena, e, false));
  return canonicalize(arena, e);
}

std::optional<Solution> try_solve(ExprArena& arena, ExprId rel, ExprId target, bool floordiv_inequality) {
  if (!arena.is_relation(rel)) return std::nullopt;
  const ExprId l = arena.operand(rel, 0), r = arena.operand(rel, 1);
  const bool in_l = arena.contains(l, target), in_r = arena.contains(r, target);
  if (in_l && in_r) return std::nullopt;
  ExprId candidates[2];
  int n = 0;
  if (in_l) candidates[n++] = rel;
  if (in_r) candidates[n++] = arena.relation(mirror(arena.kind(rel)), r, l);
  for (int i = 0; i < n; ++i) {
    ExprId e = candidates[i];
    for (int trial = 0; trial < 5; ++trial) {
      const ExprId next = isolate_once(arena, e, target, floordiv_inequality);
      if (!next.valid()) {
        e = ExprId{};
        break;
      }
      if (next == e) break;
      e = next;
    }
    if (e.valid() && arena.is_relation(e) && arena.operand(e, 0) == target)
      return Solution{arena.kind(e), arena.operand(e, 1)};
  }
  return std::nullopt;
}

}  // namespace symshape
