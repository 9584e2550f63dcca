// SymPy's printing orders (see sympy_order.h). A sort key is
//   (class_key, (len(args), arg keys), exponent key, coefficient)
// where a product's numeric coefficient and a power's exponent are peeled off first, so
// 2*s0 and s0**2 sort right next to s0.
#include "expr/sympy_order.h"

#include <algorithm>
#include <string_view>

namespace symshape {

namespace {

struct ClassKey {
  int major, minor;
  std::string_view name;
};

std::string_view opaque_name(int64_t fn) {
  static constexpr std::string_view names[] = {
      "OpaqueUnaryFn_sqrt", "OpaqueUnaryFn_log2", "OpaqueUnaryFn_exp",  "OpaqueUnaryFn_log",  "OpaqueUnaryFn_sin",
      "OpaqueUnaryFn_cos",  "OpaqueUnaryFn_tan",  "OpaqueUnaryFn_sinh", "OpaqueUnaryFn_cosh", "OpaqueUnaryFn_tanh",
      "OpaqueUnaryFn_asin", "OpaqueUnaryFn_acos", "OpaqueUnaryFn_atan"};
  return fn >= 0 && fn < 13 ? names[fn] : "OpaqueUnaryFn";
}

// Function classes with a fixed argument count get 10000, variadic ones 0 (SymPy's
// Function.class_key); Max/Min, relations and logic are plain Basic (5, 0, name).
ClassKey class_key(const ExprArena& a, ExprId e) {
  switch (a.kind(e)) {
    case ExprKind::Integer:
    case ExprKind::Float:
    case ExprKind::IntInfinity: return {1, 0, "Number"};
    case ExprKind::Symbol: return {2, 0, "Symbol"};
    case ExprKind::True: return {2, 0, "BooleanTrue"};
    case ExprKind::False: return {2, 0, "BooleanFalse"};
    case ExprKind::Mul: return {3, 0, "Mul"};
    case ExprKind::Add: return {3, 1, "Add"};
    case ExprKind::Pow: return {3, 2, "Pow"};
    case ExprKind::PowByNatural: return {4, 10000, "PowByNatural"};
    case ExprKind::FloorDiv: return {4, 10000, "FloorDiv"};
    case ExprKind::CleanDiv: return {4, 10000, "CleanDiv"};
    case ExprKind::Mod: return {4, 10000, "Mod"};
    case ExprKind::PythonMod: return {4, 10000, "PythonMod"};
    case ExprKind::ModularIndexing: return {4, 10000, "ModularIndexing"};
    case ExprKind::Piecewise: return {4, 0, "Piecewise"};
    case ExprKind::BitwiseAnd: return {4, 10000, "BitwiseFn_bitwise_and"};
    case ExprKind::BitwiseOr: return {4, 10000, "BitwiseFn_bitwise_or"};
    case ExprKind::IsNonOverlappingAndDenseIndicator: return {4, 0, "IsNonOverlappingAndDenseIndicator"};
    case ExprKind::ToFloat: return {4, 10000, "ToFloat"};
    case ExprKind::IntTrueDiv: return {4, 10000, "IntTrueDiv"};
    case ExprKind::FloatTrueDiv: return {4, 10000, "FloatTrueDiv"};
    case ExprKind::FloatPow: return {4, 10000, "FloatPow"};
    case ExprKind::TruncToInt: return {4, 10000, "TruncToInt"};
    case ExprKind::FloorToInt: return {4, 10000, "FloorToInt"};
    case ExprKind::CeilToInt: return {4, 10000, "CeilToInt"};
    case ExprKind::RoundToInt: return {4, 10000, "RoundToInt"};
    case ExprKind::OpaqueUnary: return {4, 10000, opaque_name(a.payload(e))};
    case ExprKind::Max: return {5, 0, "Max"};
    case ExprKind::Min: return {5, 0, "Min"};
    case ExprKind::Eq: return {5, 0, "Equality"};
    case ExprKind::Ne: return {5, 0, "Unequality"};
    case ExprKind::Lt: return {5, 0, "StrictLessThan"};
    case ExprKind::Le: return {5, 0, "LessThan"};
    case ExprKind::Gt: return {5, 0, "StrictGreaterThan"};
    case ExprKind::Ge: return {5, 0, "GreaterThan"};
    case ExprKind::And: return {5, 0, "And"};
    case ExprKind::Or: return {5, 0, "Or"};
    case ExprKind::Not: return {5, 0, "Not"};
  }
  return {5, 0, ""};
}

int cmp_class(const ClassKey& x, const ClassKey& y) {
  if (x.major != y.major) return x.major < y.major ? -1 : 1;
  if (x.minor != y.minor) return x.minor < y.minor ? -1 : 1;
  if (x.name != y.name) return x.name < y.name ? -1 : 1;
  return 0;
}

int cmp_num(double x, double y) { return x < y ? -1 : x > y ? 1 : 0; }

// The sort-key view of a node: numeric coefficient and exponent peeled off.
struct Parts {
  bool number = false;
  ExprId expr;
  bool virtual_mul = false;  // `expr` is a Mul whose first operand (the coefficient) is skipped
  double exp = 1;
  double coeff = 1;
};

Parts parts(const ExprArena& a, ExprId e) {
  Parts p;
  p.expr = e;
  if (a.is_number(e)) {
    p.number = true;
    p.coeff = a.float_value(e);
    return p;
  }
  if (a.kind(e) == ExprKind::Mul && a.is_number(a.operand(e, 0))) {
    p.coeff = a.float_value(a.operand(e, 0));
    if (a.operands(e).size() == 2) p.expr = a.operand(e, 1);
    else p.virtual_mul = true;
  }
  if (!p.virtual_mul && a.kind(p.expr) == ExprKind::Pow && a.kind(a.operand(p.expr, 1)) == ExprKind::Integer) {
    p.exp = static_cast<double>(a.payload(a.operand(p.expr, 1)));
    p.expr = a.operand(p.expr, 0);
  }
  return p;
}

bool is_atom(const ExprArena& a, ExprId e) {
  const ExprKind k = a.kind(e);
  return k == ExprKind::Symbol || k == ExprKind::True || k == ExprKind::False;
}

int cmp_lists(const ExprArena& a, std::span<const ExprId> x, std::span<const ExprId> y) {
  if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
  for (size_t i = 0; i < x.size(); ++i)
    if (int c = sort_key_compare(a, x[i], y[i])) return c;
  return 0;
}

// The printing order of an Add's terms / a Mul's factors by node, kept per thread for one
// arena (ExprArena::identity): a comparison of two large relations orders the same sums and
// products at every level of its recursion, and nodes never change. Entries are (offset into
// `pool`) + 1, 0 when not computed; the list has the node's operand count.
struct OrderCache {
  uint64_t arena = 0;
  std::vector<uint32_t> start;
  std::vector<ExprId> pool;
};
thread_local OrderCache order_cache;

// e's terms (as_add) or factors in printing order, as a view into the cache's pool: an Add
// (a Mul) has its operands there, any other node is the one-element list [e].
struct OrderedList {
  uint32_t offset = 0;
  size_t size = 1;
  ExprId single;  // valid for the one-element list
  ExprId operator[](size_t i) const { return single.valid() ? single : order_cache.pool[offset + i]; }
};

OrderedList ordered_list(const ExprArena& a, ExprId e, bool terms) {
  if (a.kind(e) != (terms ? ExprKind::Add : ExprKind::Mul)) return OrderedList{0, 1, e};
  OrderCache& cache = order_cache;
  if (cache.arena != a.identity()) {
    cache.arena = a.identity();
    cache.start.clear();
    cache.pool.clear();
  }
  const size_t n = a.operands(e).size();
  if (e.index() < cache.start.size() && cache.start[e.index()]) return OrderedList{cache.start[e.index()] - 1, n, {}};
  std::vector<ExprId> order;  // computing may fill other entries (and grow the pool)
  if (terms) ordered_terms(a, e, order);
  else ordered_factors(a, e, order);
  if (cache.start.size() <= e.index()) cache.start.resize(a.size() + a.size() / 2 + 64, 0);
  const uint32_t offset = static_cast<uint32_t>(cache.pool.size());
  cache.pool.insert(cache.pool.end(), order.begin(), order.end());
  cache.start[e.index()] = offset + 1;
  return OrderedList{offset, n, {}};
}

// Compares two ordered lists, the first `skip_x` / `skip_y` entries left out (a product's
// numeric coefficient); elements are read by index, since the recursion may grow the pool.
int cmp_ordered(const ExprArena& a, const OrderedList& x, size_t skip_x, const OrderedList& y, size_t skip_y) {
  const size_t nx = x.size - skip_x, ny = y.size - skip_y;
  if (nx != ny) return nx < ny ? -1 : 1;
  for (size_t i = 0; i < nx; ++i)
    if (int c = sort_key_compare(a, x[skip_x + i], y[skip_y + i])) return c;
  return 0;
}

}  // namespace

int sort_key_compare(const ExprArena& a, ExprId x, ExprId y) {
  if (x == y) return 0;
  const Parts p = parts(a, x), q = parts(a, y);
  if (p.number || q.number) {
    if (p.number != q.number) return p.number ? -1 : 1;
    return cmp_num(p.coeff, q.coeff);
  }
  const ClassKey cp = p.virtual_mul ? ClassKey{3, 0, "Mul"} : class_key(a, p.expr);
  const ClassKey cq = q.virtual_mul ? ClassKey{3, 0, "Mul"} : class_key(a, q.expr);
  if (int c = cmp_class(cp, cq)) return c;
  int c = 0;
  if (p.virtual_mul || q.virtual_mul || a.kind(p.expr) == ExprKind::Mul) {
    // the coefficient sorts first and is left out
    c = cmp_ordered(a, ordered_list(a, p.expr, false), p.virtual_mul ? 1 : 0, ordered_list(a, q.expr, false),
                    q.virtual_mul ? 1 : 0);
  } else if (is_atom(a, p.expr)) {
    const std::string_view nx = a.kind(p.expr) == ExprKind::Symbol ? a.symbol_name(p.expr) : "";
    const std::string_view ny = a.kind(q.expr) == ExprKind::Symbol ? a.symbol_name(q.expr) : "";
    c = nx < ny ? -1 : nx > ny ? 1 : 0;
  } else if (a.kind(p.expr) == ExprKind::Add) {
    c = cmp_ordered(a, ordered_list(a, p.expr, true), 0, ordered_list(a, q.expr, true), 0);
  } else if (a.kind(p.expr) == ExprKind::Piecewise) {
    // (expr, cond) pairs: one argument each
    auto ox = a.operands(p.expr), oy = a.operands(q.expr);
    if (ox.size() != oy.size()) return ox.size() < oy.size() ? -1 : 1;
    for (size_t i = 0; i < ox.size() && !c; ++i) c = sort_key_compare(a, ox[i], oy[i]);
  } else {
    c = cmp_lists(a, a.operands(p.expr), a.operands(q.expr));
  }
  if (c) return c;
  if (int e = cmp_num(p.exp, q.exp)) return e;
  return cmp_num(p.coeff, q.coeff);
}

int ordered_compare(const ExprArena& a, ExprId x, ExprId y) {
  if (x == y) return 0;
  const uint32_t nx = a.tree_size_halves(x), ny = a.tree_size_halves(y);
  if (nx != ny) return nx < ny ? -1 : 1;
  if (int c = sort_key_compare(a, x, y)) return c;
  return a.compare(x, y);
}

void ordered_factors(const ExprArena& a, ExprId e, std::vector<ExprId>& out) {
  out.clear();
  if (a.kind(e) != ExprKind::Mul) {
    out.push_back(e);
    return;
  }
  out.assign(a.operands(e).begin(), a.operands(e).end());
  std::stable_sort(out.begin(), out.end(), [&](ExprId x, ExprId y) { return sort_key_compare(a, x, y) < 0; });
}

void ordered_terms(const ExprArena& a, ExprId e, std::vector<ExprId>& out) {
  out.clear();
  if (a.kind(e) != ExprKind::Add) {
    out.push_back(e);
    return;
  }
  const auto terms = a.operands(e);
  // Add(positive number, -k*x) keeps the number first: `1 - s0`
  if (terms.size() == 2) {
    ExprId num = terms[0], other = terms[1];
    if (!a.is_number(num) && a.is_number(other)) std::swap(num, other);
    if (a.is_number(num) && a.kind(other) == ExprKind::Mul && a.operands(other).size() == 2 &&
        a.is_number(a.operand(other, 0)) && a.float_value(num) > 0 && a.float_value(a.operand(other, 0)) < 0) {
      out = {num, other};
      return;
    }
  }
  // monomials over the generators (powers decomposed), generators by default_sort_key
  struct Term {
    ExprId term;
    double coeff;
    std::vector<std::pair<ExprId, int64_t>> powers;
  };
  std::vector<Term> ts;
  std::vector<ExprId> gens;
  for (ExprId t : terms) {
    Term tt{t, 1.0, {}};
    auto take = [&](ExprId f) {
      if (a.is_number(f)) {
        tt.coeff *= a.float_value(f);
        return;
      }
      if (a.kind(f) == ExprKind::Pow && a.kind(a.operand(f, 1)) == ExprKind::Integer)
        tt.powers.emplace_back(a.operand(f, 0), a.payload(a.operand(f, 1)));
      else
        tt.powers.emplace_back(f, 1);
    };
    if (a.kind(t) == ExprKind::Mul) {
      for (ExprId f : a.operands(t)) take(f);
    } else {
      take(t);
    }
    for (auto& [base, k] : tt.powers)
      if (std::find(gens.begin(), gens.end(), base) == gens.end()) gens.push_back(base);
    ts.push_back(std::move(tt));
  }
  std::stable_sort(gens.begin(), gens.end(), [&](ExprId x, ExprId y) { return sort_key_compare(a, x, y) < 0; });
  const size_t k = gens.size();
  std::vector<int64_t> monoms(ts.size() * k, 0);
  for (size_t i = 0; i < ts.size(); ++i)
    for (auto& [base, exp] : ts[i].powers) {
      const size_t g = static_cast<size_t>(std::find(gens.begin(), gens.end(), base) - gens.begin());
      monoms[i * k + g] += exp;
    }
  std::vector<size_t> idx(ts.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  // lex order on the negated monomials (higher powers of earlier generators first), then
  // the coefficient
  std::stable_sort(idx.begin(), idx.end(), [&](size_t x, size_t y) {
    for (size_t g = 0; g < k; ++g) {
      const int64_t mx = monoms[x * k + g], my = monoms[y * k + g];
      if (mx != my) return mx > my;
    }
    return ts[x].coeff < ts[y].coeff;
  });
  for (size_t i : idx) out.push_back(ts[i].term);
}

}  // namespace symshape
