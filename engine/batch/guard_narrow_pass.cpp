// analyse_narrow_blocks: the instruction variants a block may use when every size it reads
// lies in [0, kNarrowSizeLimit).
//
// Real traffic has sizes far below 2**20, and over such sizes interval arithmetic proves
// that most of a program cannot overflow: the poison lanes (overflow checks, double-
// precision product checks, poison stores) are not needed, products of operands below
// 2**32 are one 32x32->64 multiply, and floor division of an operand in [0, 2**30) by a
// constant is a multiply and a shift (Granlund-Montgomery round-up: l = ceil(log2 c),
// m = ceil(2**(30 + l) / c) < 2**32, q = (x * m) >> (30 + l) is exact for x < 2**30).
// The kernels check a block's columns once (an OR of every size, shifted) and run the
// narrow flags when they hold; any other block runs the exact program. Verdicts are the
// same either way: the property tests compare both against the scalar evaluator.
#include <algorithm>
#include <limits>
#include <vector>

#include "batch/guard_program_passes.h"

namespace symshape {
namespace {

__extension__ typedef __int128 Wide;  // exact interval ends and products of int64
constexpr Wide kMin = std::numeric_limits<int64_t>::min();
constexpr Wide kMax = std::numeric_limits<int64_t>::max();

struct Range {
  Wide lo = 0, hi = 0;
  bool fits() const { return lo >= kMin && hi <= kMax; }
  bool within(Wide a, Wide b) const { return lo >= a && hi <= b; }
};

Range hull(std::initializer_list<Wide> v) { return {std::min(v), std::max(v)}; }

// floor(a / c) for c > 0, on 128-bit values
Wide wide_floor_div(Wide a, Wide c) { return a >= 0 ? a / c : -((-a + c - 1) / c); }

constexpr Wide kMul32Limit = Wide(1) << 32;
constexpr Wide kDivLimit = Wide(1) << 30;  // narrow division: operand in [0, 2**30)
constexpr Wide kDoubleDivLimit = Wide(1) << 50;  // narrow register division: operands in (-2**50, 2**50)

}  // namespace

void analyse_narrow_blocks(GuardProgram& p) {
  GuardProgram::Narrow& nw = p.narrow;
  nw = {};
  const size_t n = p.op.size();
  for (size_t i = 0; i < n; ++i)
    if (p.op[i] == GuardOp::Fallback || p.op[i] == GuardOp::Poison || p.dst[i] != i) return;  // exact program only
  const Wide size_max = Wide(kNarrowSizeLimit) - 1;
  std::vector<Range> r(n);
  std::vector<uint8_t> may(n, 0);  // may be poisoned in a narrow block
  nw.flags.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    // the registers this instruction reads (the divisions' b is a divider)
    const GuardOp op = p.op[i];
    const bool nullary = op == GuardOp::LoadSize || op == GuardOp::Const;
    const bool unary = op == GuardOp::Neg || op == GuardOp::MulConst || op == GuardOp::FloorDivConst ||
                       op == GuardOp::ModConst || op == GuardOp::Not || op == GuardOp::InRange;
    const bool reads_a = !nullary, reads_b = !nullary && !unary && !(p.flags[i] & guard_flag::kImmB);
    const Range ra = reads_a ? r[p.a[i]] : Range{};
    const Range rb = (p.flags[i] & guard_flag::kImmB) ? Range{p.imm[i], p.imm[i]} : (reads_b ? r[p.b[i]] : Range{});
    const uint8_t pa = reads_a ? may[p.a[i]] : 0, pb = reads_b ? may[p.b[i]] : 0;
    Range out{0, 1};
    bool overflow = false;  // this instruction itself may leave int64
    uint8_t extra = 0;
    switch (p.op[i]) {
      case GuardOp::LoadSize:
        out = {0, size_max};
        break;
      case GuardOp::Const: out = {p.imm[i], p.imm[i]}; break;
      case GuardOp::Add: out = {ra.lo + rb.lo, ra.hi + rb.hi}; break;
      case GuardOp::Sub: out = {ra.lo - rb.hi, ra.hi - rb.lo}; break;
      case GuardOp::Mul:
        out = hull({ra.lo * rb.lo, ra.lo * rb.hi, ra.hi * rb.lo, ra.hi * rb.hi});
        if (ra.within(0, kMul32Limit - 1) && rb.within(0, kMul32Limit - 1)) extra = guard_flag::kNarrowMul32;
        break;
      case GuardOp::MulConst:
        out = hull({ra.lo * p.imm[i], ra.hi * p.imm[i]});
        if (ra.within(0, kMul32Limit - 1) && p.imm[i] >= 0 && Wide(p.imm[i]) < kMul32Limit) extra = guard_flag::kNarrowMul32;
        break;
      case GuardOp::Neg: out = {-ra.hi, -ra.lo}; break;
      case GuardOp::FloorDivConst:
        out = {wide_floor_div(ra.lo, p.imm[i]), wide_floor_div(ra.hi, p.imm[i])};
        if (ra.within(0, kDivLimit - 1) && Wide(p.imm[i]) < kDivLimit) extra = guard_flag::kNarrowDiv;
        break;
      case GuardOp::ModConst:
        out = {0, p.imm[i] - 1};
        if (ra.within(0, kDivLimit - 1) && Wide(p.imm[i]) < kDivLimit) extra = guard_flag::kNarrowDiv;
        break;
      case GuardOp::FloorDiv:
      case GuardOp::Mod: {
        // poisoned by a zero divisor (and INT64_MIN // -1, outside every narrow range);
        // |a // b| <= |a| and |a % b| < |b| once b != 0
        const Wide ma = std::max(-ra.lo, ra.hi), mb = std::max(-rb.lo, rb.hi);
        overflow = rb.lo <= 0 && rb.hi >= 0;
        if (p.op[i] == GuardOp::FloorDiv) out = ra.lo >= 0 && rb.lo >= 0 ? Range{0, ra.hi} : Range{-ma, ma};
        else out = rb.lo >= 0 ? Range{0, std::max<Wide>(rb.hi - 1, 0)} : Range{-(mb - 1), mb - 1};
        if (ra.within(-kDoubleDivLimit + 1, kDoubleDivLimit - 1) && rb.within(-kDoubleDivLimit + 1, kDoubleDivLimit - 1))
          extra = guard_flag::kNarrowDiv;
        break;
      }
      case GuardOp::Min: out = {std::min(ra.lo, rb.lo), std::min(ra.hi, rb.hi)}; break;
      case GuardOp::Max: out = {std::max(ra.lo, rb.lo), std::max(ra.hi, rb.hi)}; break;
      case GuardOp::InRange: {
        const GuardRange& g = p.ranges[size_t(p.imm[i])];
        overflow = !ra.within(g.safe_lo, g.safe_hi);  // some narrow size lies where the chain overflows
        break;
      }
      default: break;  // relations, And, Or, Not: 0/1
    }
    if (!out.fits()) overflow = true;
    if (overflow) out = {kMin, kMax};
    r[i] = out;
    // poison flows as in analyse_poison; what cannot overflow here cannot start it
    const uint8_t m = uint8_t((overflow ? 1 : 0) | pa | pb);
    may[i] = m;
    uint8_t f = uint8_t(p.flags[i] & (guard_flag::kImmB | guard_flag::kFused)) | extra;
    if (m) f |= guard_flag::kPoisonOut;
    if (pa) f |= guard_flag::kPoisonA;
    if (pb) f |= guard_flag::kPoisonB;
    nw.flags[i] = f;
  }
  nw.clause_poison.resize(p.clause_reg.size());
  for (size_t c = 0; c < p.clause_reg.size(); ++c) nw.clause_poison[c] = may[p.clause_reg[c]];
  nw.output_poison.resize(p.output_reg.size());
  for (size_t k = 0; k < p.output_reg.size(); ++k) nw.output_poison[k] = may[p.output_reg[k]];
  // magic numbers of the narrow divisions
  nw.div_magic.assign(p.dividers.size(), 0);
  nw.div_shift.assign(p.dividers.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    if (!(nw.flags[i] & guard_flag::kNarrowDiv) || (p.op[i] != GuardOp::FloorDivConst && p.op[i] != GuardOp::ModConst))
      continue;
    const uint64_t c = uint64_t(p.imm[i]);
    uint32_t l = 0;
    while ((uint64_t(1) << l) < c) ++l;  // ceil(log2 c)
    const Wide num = Wide(1) << (30 + l);  // l <= 30: c < 2**30
    nw.div_magic[p.b[i]] = uint64_t((num + Wide(c) - 1) / Wide(c));
    nw.div_shift[p.b[i]] = 30 + l;
  }
  nw.available = true;
}

}  // namespace symshape
