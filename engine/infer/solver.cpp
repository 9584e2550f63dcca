#include "infer/solver.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace symshape::infer {

const char* predicate_kind_name(PredicateKind k) {
  switch (k) {
    case PredicateKind::Eq: return "Eq";
    case PredicateKind::Divides: return "Divides";
    case PredicateKind::Le: return "Le";
    case PredicateKind::SumEq: return "SumEq";
    case PredicateKind::Other: return "Other";
  }
  return "Other";
}

namespace {

__extension__ typedef __int128 i128;  // GCC extension: exact products of int64

int64_t floor_mod(i128 a, int64_t m) {
  i128 r = a % m;
  if (r < 0) r += m;
  return static_cast<int64_t>(r);
}

// Inverse of a modulo m (gcd(a, m) == 1, m >= 1).
int64_t inverse(int64_t a, int64_t m) {
  i128 old_r = floor_mod(a, m), r = m, old_s = 1, s = 0;
  while (r != 0) {
    const i128 q = old_r / r;
    std::tie(old_r, r) = std::make_pair(r, old_r - q * r);
    std::tie(old_s, s) = std::make_pair(s, old_s - q * s);
  }
  return m == 1 ? 0 : floor_mod(old_s, m);
}

struct UnionFind {
  std::vector<uint32_t> parent;
  explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
  uint32_t find(uint32_t u) {
    while (parent[u] != u) u = parent[u] = parent[parent[u]];
    return u;
  }
  void unite(uint32_t a, uint32_t b) {  // the lower-ordered unknown stays the root
    a = find(a), b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// Solving the predicates of one class (root `x`), every other unknown fixed in `values`.
class OneUnknown {
 public:
  OneUnknown(std::span<const SolverPredicate> preds, std::vector<int64_t>& values, const std::vector<uint32_t>& members,
             const SolverOptions& o)
      : preds_(preds), values_(values), members_(members), o_(o) {}

  std::optional<int64_t> solve(std::span<const uint32_t> set, int64_t near) {
    // equalities linear in x fix it; divisibility linear in x narrows it to a congruence
    std::optional<int64_t> exact;
    Congruence lattice;
    for (uint32_t i : set) {
      const SolverPredicate& p = preds_[i];
      if (p.difference) {
        const auto line = affine(p.difference);
        if (line && line->first != 0) {
          const i128 num = -static_cast<i128>(line->second);
          if (num % line->first != 0) return std::nullopt;  // no integer solution
          const int64_t x = static_cast<int64_t>(num / line->first);
          if (exact && *exact != x) return std::nullopt;
          exact = x;
        } else if (line && line->second != 0) {
          return std::nullopt;  // a nonzero constant difference never vanishes
        }
      }
      if (p.dividend && p.divisor) {
        const auto line = affine(p.dividend), k = affine(p.divisor);
        if (line && k && k->first == 0 && k->second > 0) {
          const auto c = linear_congruence(line->first, line->second, k->second);
          if (!c) return std::nullopt;
          const auto both = combine(lattice, *c);
          if (!both) return std::nullopt;
          lattice = *both;
        }
      }
    }
    if (exact) return all_hold(set, *exact) ? exact : std::nullopt;
    // the lattice point nearest `near` where everything holds: alternate up and down
    const int64_t m = lattice.modulus;
    int64_t up = near + floor_mod(static_cast<i128>(lattice.residue) - near, m);
    int64_t down = up - m;
    if (up == near) down = near - m;
    for (uint32_t tries = 0; tries < o_.max_candidates; ++tries) {
      const bool up_ok = up <= o_.max_value, down_ok = down >= o_.min_value;
      if (!up_ok && !down_ok) break;
      // the nearer first; ties go up (E.6: the smallest value >= the example)
      const bool take_up = up_ok && (!down_ok || up - near <= near - down);
      const int64_t x = take_up ? up : down;
      if (x >= o_.min_value && all_hold(set, x)) return x;
      if (take_up) up += m;
      else down -= m;
    }
    return std::nullopt;
  }

 private:
  void assign(int64_t x) {
    for (uint32_t u : members_) values_[u] = x;
  }
  // f(x) = a*x + b, checked at four points; nullopt when f is not affine there or undefined.
  std::optional<std::pair<int64_t, int64_t>> affine(const UnknownFn& f) {
    const int64_t xs[] = {1, 2, 3, 1001};
    int64_t ys[4];
    for (int i = 0; i < 4; ++i) {
      assign(xs[i]);
      const auto y = f(values_);
      if (!y) return std::nullopt;
      ys[i] = *y;
    }
    const int64_t a = ys[1] - ys[0];
    if (ys[2] - ys[1] != a || static_cast<i128>(ys[3]) - ys[0] != static_cast<i128>(a) * 1000) return std::nullopt;
    return std::make_pair(a, ys[0] - a);
  }
  bool all_hold(std::span<const uint32_t> set, int64_t x) {
    assign(x);
    for (uint32_t i : set) {
      const auto h = preds_[i].holds(values_);
      if (!h || *h == 0) return false;
    }
    return true;
  }

  std::span<const SolverPredicate> preds_;
  std::vector<int64_t>& values_;
  const std::vector<uint32_t>& members_;
  const SolverOptions& o_;
};

}  // namespace

std::optional<Congruence> combine(Congruence a, Congruence b) {
  const int64_t g = std::gcd(a.modulus, b.modulus);
  const i128 diff = static_cast<i128>(b.residue) - a.residue;
  if (diff % g != 0) return std::nullopt;
  const int64_t m2 = b.modulus / g;
  const i128 lcm = static_cast<i128>(a.modulus) * m2;
  if (lcm > (static_cast<i128>(1) << 62)) return std::nullopt;  // beyond any size
  // a.residue + t*a.modulus ≡ b.residue (mod b.modulus)  <=>  t*(m1/g) ≡ diff/g (mod m2)
  const i128 t = m2 == 1 ? 0 : static_cast<i128>(floor_mod(diff / g, m2)) * inverse(floor_mod(a.modulus / g, m2), m2) % m2;
  const int64_t l = static_cast<int64_t>(lcm);
  return Congruence{floor_mod(a.residue + t * a.modulus, l), l};
}

std::optional<Congruence> linear_congruence(int64_t a, int64_t b, int64_t m) {
  if (m <= 0) return std::nullopt;
  const int64_t am = floor_mod(a, m), rhs = floor_mod(-static_cast<i128>(b), m);
  const int64_t g = std::gcd(am, m);  // gcd(0, m) = m
  if (rhs % g != 0) return std::nullopt;
  const int64_t mg = m / g;
  const int64_t r = mg == 1 ? 0 : floor_mod(static_cast<i128>(rhs / g) * inverse(am / g, mg), mg);
  return Congruence{r, mg};
}

SolveResult solve(std::span<const int64_t> example, std::span<const SolverPredicate> preds, const SolverOptions& o) {
  const size_t n = example.size();
  SolveResult out;
  UnionFind uf(n);
  for (const SolverPredicate& p : preds)
    if (p.unify) uf.unite(p.unify->first, p.unify->second);
  out.values.resize(n);
  for (size_t u = 0; u < n; ++u) out.values[u] = example[uf.find(uint32_t(u))];

  // each predicate belongs to the class of its highest-ordered root; none: a constant check
  std::vector<std::vector<uint32_t>> by_root(n), members(n);
  for (uint32_t u = 0; u < n; ++u) members[uf.find(u)].push_back(u);
  std::vector<uint32_t> constant;
  for (uint32_t i = 0; i < preds.size(); ++i) {
    const SolverPredicate& p = preds[i];
    if (p.unify) continue;
    int64_t target = -1;
    for (uint32_t u : p.unknowns) target = std::max<int64_t>(target, uf.find(u));
    if (target < 0) constant.push_back(i);
    else by_root[size_t(target)].push_back(i);
  }
  for (uint32_t i : constant) {
    const auto h = preds[i].holds(out.values);
    if (!h || *h == 0) {
      out.conflict = {i};
      return out;
    }
  }
  // the unify predicates that merged a class, for its conflicts
  auto unifiers_of = [&](uint32_t root) {
    std::vector<uint32_t> r;
    for (uint32_t i = 0; i < preds.size(); ++i)
      if (preds[i].unify && uf.find(preds[i].unify->first) == root) r.push_back(i);
    return r;
  };
  // Two unknowns at once, when x alone has no solution with the lower ones fixed (a product
  // of dims: (h // 4) * (w // 4) == 64): x with one lower root y its predicates read, the
  // pair nearest the example (L1 distance) where the predicates of both hold.
  std::vector<uint8_t> pinned(n, 0);
  auto assign = [&](uint32_t root, int64_t v) {
    for (uint32_t u : members[root]) out.values[u] = v;
  };
  auto all_hold = [&](const std::vector<uint32_t>& set) {
    for (uint32_t i : set) {
      const auto h = preds[i].holds(out.values);
      if (!h || *h == 0) return false;
    }
    return true;
  };
  auto joint = [&](uint32_t x) -> std::optional<uint32_t> {
    std::vector<uint32_t> others;
    for (uint32_t i : by_root[x])
      for (uint32_t u : preds[i].unknowns) {
        const uint32_t r = uf.find(u);
        if (r != x && !pinned[r] && std::find(others.begin(), others.end(), r) == others.end()) others.push_back(r);
      }
    std::sort(others.rbegin(), others.rend());
    uint64_t budget = o.max_candidates;
    const int64_t keep_x = out.values[members[x][0]];
    for (uint32_t y : others) {
      const int64_t keep_y = out.values[members[y][0]];
      std::vector<uint32_t> set = by_root[x];
      set.insert(set.end(), by_root[y].begin(), by_root[y].end());
      for (int64_t d = 0; budget > 0 && d <= o.max_value; ++d)
        for (int64_t a = 0; a <= d && budget > 0; ++a)
          for (int64_t sx : {1, -1})
            for (int64_t sy : {1, -1}) {
              if ((a == 0 && sx < 0) || (a == d && sy < 0)) continue;  // the same point twice
              const int64_t vx = example[x] + sx * a, vy = example[y] + sy * (d - a);
              if (vx < o.min_value || vy < o.min_value || vx > o.max_value || vy > o.max_value) continue;
              --budget;
              assign(x, vx), assign(y, vy);
              if (all_hold(set)) return y;
            }
      assign(y, keep_y);
    }
    assign(x, keep_x);
    return std::nullopt;
  };
  for (uint32_t x = 0; x < n; ++x) {
    if (by_root[x].empty() || pinned[x]) continue;
    OneUnknown one(preds, out.values, members[x], o);
    const int64_t near = example[x];
    if (const auto v = one.solve(by_root[x], near)) {
      for (uint32_t u : members[x]) out.values[u] = *v;
      continue;
    }
    if (const auto y = joint(x)) {
      pinned[*y] = 1;
      x = *y;  // what lies between y and x is solved again with y's new value
      continue;
    }
    // deletion: drop every predicate without which the rest is still unsatisfiable
    SolverOptions small = o;
    small.max_candidates = std::min<uint32_t>(o.max_candidates, 1u << 16);
    OneUnknown probe(preds, out.values, members[x], small);
    std::vector<uint32_t> core = by_root[x];
    for (size_t k = 0; k < core.size();) {
      std::vector<uint32_t> rest = core;
      rest.erase(rest.begin() + std::ptrdiff_t(k));
      if (!rest.empty() && !probe.solve(rest, near)) core = std::move(rest);
      else ++k;
    }
    for (uint32_t i : unifiers_of(x)) core.push_back(i);
    std::sort(core.begin(), core.end());
    out.conflict = std::move(core);
    return out;
  }
  out.ok = true;
  return out;
}

}  // namespace symshape::infer
