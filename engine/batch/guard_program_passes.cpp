#include "batch/guard_program_passes.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace symshape {
namespace {

constexpr uint32_t kUnused = std::numeric_limits<uint32_t>::max();

// an instruction whose 0/1 result a clause can fuse into its verdict update
bool is_relation(GuardOp op) { return is_comparison(op) || op == GuardOp::InRange; }

bool takes_immediate(GuardOp op) {
  return is_comparison(op) || op == GuardOp::Add || op == GuardOp::Sub || op == GuardOp::Min || op == GuardOp::Max;
}

// c < x is x > c: the relation with its operands swapped.
GuardOp mirrored(GuardOp op) {
  switch (op) {
    case GuardOp::Lt: return GuardOp::Gt;
    case GuardOp::Le: return GuardOp::Ge;
    case GuardOp::Gt: return GuardOp::Lt;
    case GuardOp::Ge: return GuardOp::Le;
    default: return op;  // Eq, Ne, Add, Min, Max commute
  }
}

}  // namespace

void fold_constant_operands(GuardProgram& p) {
  const size_t n = p.op.size();
  std::vector<uint8_t> is_const(n, 0);
  for (size_t i = 0; i < n; ++i) is_const[p.dst[i]] = p.op[i] == GuardOp::Const;
  for (size_t i = 0; i < n; ++i) {
    if (!takes_immediate(p.op[i]) || (p.flags[i] & guard_flag::kImmB)) continue;
    if (is_const[p.b[i]]) {
      p.imm[i] = p.imm[p.b[i]];
    } else if (is_const[p.a[i]] && p.op[i] != GuardOp::Sub) {
      p.imm[i] = p.imm[p.a[i]];
      p.a[i] = p.b[i];
      p.op[i] = mirrored(p.op[i]);
    } else {
      continue;
    }
    p.b[i] = 0;
    p.flags[i] |= guard_flag::kImmB;
  }
  // a relation of two constants is a constant (storage_offset() == 0, stride()[-1] == 1):
  // its clause is decided at compile time
  for (size_t i = 0; i < n; ++i) {
    if (!is_comparison(p.op[i]) || !(p.flags[i] & guard_flag::kImmB) || !is_const[p.a[i]])
      continue;
    const int64_t x = p.imm[p.a[i]], y = p.imm[i];
    bool holds = false;
    switch (p.op[i]) {
      case GuardOp::Eq: holds = x == y; break;
      case GuardOp::Ne: holds = x != y; break;
      case GuardOp::Lt: holds = x < y; break;
      case GuardOp::Le: holds = x <= y; break;
      case GuardOp::Gt: holds = x > y; break;
      default: holds = x >= y; break;
    }
    p.op[i] = GuardOp::Const;
    p.imm[i] = holds ? 1 : 0;
    p.a[i] = p.b[i] = 0;
    p.flags[i] = 0;
    is_const[p.dst[i]] = 1;
  }
  p.clause_decided.assign(p.clause_reg.size(), 0);
  for (size_t c = 0; c < p.clause_reg.size(); ++c)
    p.clause_decided[c] = p.op[p.clause_reg[c]] == GuardOp::Const && p.imm[p.clause_reg[c]] != 0;
}

void remove_dead_instructions(GuardProgram& p) {
  const size_t n = p.op.size();
  std::vector<uint8_t> live(n, 0);
  for (uint32_t r : p.clause_reg) live[r] = 1;
  for (uint32_t r : p.output_reg) live[r] = 1;
  for (size_t i = n; i-- > 0;)
    if (live[i]) for_each_register_read(std::as_const(p), i, [&](uint32_t r) { live[r] = 1; });
  std::vector<uint32_t> renamed(n, kUnused);
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!live[i]) continue;
    renamed[i] = uint32_t(k);
    p.op[k] = p.op[i];
    p.a[k] = p.a[i];
    p.b[k] = p.b[i];
    p.imm[k] = p.imm[i];
    p.flags[k] = p.flags[i];
    p.dst[k] = uint32_t(k);
    for_each_register_read(p, k, [&](uint32_t& r) { r = renamed[r]; });
    ++k;
  }
  for (auto* col : {&p.a, &p.b, &p.dst}) col->resize(k);
  p.op.resize(k);
  p.imm.resize(k);
  p.flags.resize(k);
  for (uint32_t& r : p.clause_reg) r = renamed[r];
  for (uint32_t& r : p.output_reg) r = renamed[r];
  for (uint32_t& end : p.clause_end) {  // kept instructions before the old end
    uint32_t kept = 0;
    for (uint32_t i = 0; i < end; ++i) kept += live[i];
    end = kept;
  }
  p.num_registers = uint32_t(k);
}

void analyse_poison(GuardProgram& p) {
  const size_t n = p.op.size();
  std::vector<uint8_t> may(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t imm_b = p.flags[i] & guard_flag::kImmB;
    uint8_t m = 0;
    switch (p.op[i]) {
      case GuardOp::LoadSize: case GuardOp::Const: m = 0; break;
      case GuardOp::Poison: case GuardOp::Fallback: case GuardOp::Add: case GuardOp::Sub:
      case GuardOp::Mul: case GuardOp::MulConst: case GuardOp::Neg: case GuardOp::FloorDiv: case GuardOp::Mod:
        m = 1;  // overflow, an unbound symbol, a scalar error, a zero divisor
        break;
      case GuardOp::FloorDivConst: case GuardOp::ModConst: case GuardOp::Not: m = may[p.a[i]]; break;
      case GuardOp::InRange: m = !p.ranges[size_t(p.imm[i])].always_safe(); break;  // poisoned outside its safe sizes
      default: m = uint8_t(may[p.a[i]] | (imm_b ? 0 : may[p.b[i]])); break;
    }
    may[i] = m;
    uint8_t f = uint8_t(p.flags[i] & (guard_flag::kImmB | guard_flag::kFused));
    if (m) f |= guard_flag::kPoisonOut;
    switch (p.op[i]) {
      case GuardOp::LoadSize: case GuardOp::Const: case GuardOp::Poison: case GuardOp::Fallback:
        break;
      case GuardOp::Neg: case GuardOp::MulConst: case GuardOp::FloorDivConst: case GuardOp::ModConst: case GuardOp::Not:
      case GuardOp::InRange:
        if (may[p.a[i]]) f |= guard_flag::kPoisonA;
        break;
      default:
        if (may[p.a[i]]) f |= guard_flag::kPoisonA;
        if (!imm_b && may[p.b[i]]) f |= guard_flag::kPoisonB;
        break;
    }
    p.flags[i] = f;
    if (p.op[i] == GuardOp::Fallback) {
      auto& fb = p.fallbacks[size_t(p.imm[i])];
      fb.symbol_poison.assign(fb.symbol_register.size(), 0);
      for (size_t s = 0; s < fb.symbol_register.size(); ++s)
        if (fb.symbol_register[s] != kUnused) fb.symbol_poison[s] = may[fb.symbol_register[s]];
    }
  }
  p.clause_poison.resize(p.clause_reg.size());
  for (size_t c = 0; c < p.clause_reg.size(); ++c) p.clause_poison[c] = may[p.clause_reg[c]];
  p.output_poison.resize(p.output_reg.size());
  for (size_t k = 0; k < p.output_reg.size(); ++k) p.output_poison[k] = may[p.output_reg[k]];
}

void fuse_clause_checks(GuardProgram& p) {
  std::vector<uint32_t> readers(p.op.size(), 0);
  for (size_t i = 0; i < p.op.size(); ++i) for_each_register_read(std::as_const(p), i, [&](uint32_t r) { ++readers[r]; });
  for (uint32_t r : p.clause_reg) ++readers[r];
  for (uint32_t r : p.output_reg) ++readers[r];
  p.clause_fused.assign(p.clause_reg.size(), 0);
  for (size_t c = 0; c < p.clause_reg.size(); ++c) {
    const uint32_t r = p.clause_reg[c];
    if (is_relation(p.op[r]) && r + 1 == p.clause_end[c] && readers[r] == 1) {
      p.flags[r] |= guard_flag::kFused;
      p.clause_fused[c] = 1;
    }
  }
}

// The SSA program names one register per instruction; a block's registers must stay in
// cache, so registers whose last reader has run are handed to later instructions. An
// instruction never writes a register it reads (its operands are freed after its destination
// is chosen).
void allocate_registers(GuardProgram& p) {
  const size_t n = p.op.size();
  std::vector<uint32_t> last_use(p.num_registers, 0);
  for (size_t i = 0; i < n; ++i) for_each_register_read(std::as_const(p), i, [&](uint32_t r) { last_use[r] = uint32_t(i); });
  for (size_t c = 0; c < p.clause_reg.size(); ++c)  // a clause reads its register after its last instruction
    last_use[p.clause_reg[c]] = std::max(last_use[p.clause_reg[c]], p.clause_end[c] - 1);
  for (uint32_t r : p.output_reg) last_use[r] = uint32_t(n);  // read after the last instruction
  std::vector<uint32_t> phys(p.num_registers, kUnused), free_list, dying;
  uint32_t count = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t v = p.dst[i];
    uint32_t r;
    if (!free_list.empty()) {
      r = free_list.back();
      free_list.pop_back();
    } else {
      r = count++;
    }
    phys[v] = r;
    // operands (and this result, if nobody reads it) die here
    dying.clear();
    for_each_register_read(std::as_const(p), i, [&](uint32_t o) {
      if (last_use[o] == i) dying.push_back(o);
    });
    if (last_use[v] <= i) dying.push_back(v);
    std::sort(dying.begin(), dying.end());
    dying.erase(std::unique(dying.begin(), dying.end()), dying.end());
    // rename the operands before their registers are recycled
    for_each_register_read(p, i, [&](uint32_t& o) { o = phys[o]; });
    p.dst[i] = r;
    for (uint32_t d : dying) free_list.push_back(phys[d]);
  }
  for (uint32_t& c : p.clause_reg) c = phys[c];
  for (uint32_t& r : p.output_reg) r = phys[r];
  p.num_registers = count;
}

void mark_unread_constants(GuardProgram& p) {
  const size_t n = p.op.size();
  std::vector<uint8_t> read(n, 0);
  for (size_t i = 0; i < n; ++i) for_each_register_read(std::as_const(p), i, [&](uint32_t r) { read[r] = 1; });
  for (size_t c = 0; c < p.clause_reg.size(); ++c)
    if (!p.clause_decided[c]) read[p.clause_reg[c]] = 1;
  for (uint32_t r : p.output_reg) read[r] = 1;
  for (size_t i = 0; i < n; ++i)
    if (p.op[i] == GuardOp::Const && !read[i]) {
      p.flags[i] |= guard_flag::kUnread;
      if (p.narrow.available) p.narrow.flags[i] |= guard_flag::kUnread;
    }
}

void analyse_positive_blocks(GuardProgram& p) {
  GuardProgram::Narrow& nw = p.narrow;
  nw.positive_available = false;
  nw.positive_skip.clear();
  if (!nw.available) return;
  // The facts prove what the exact values satisfy: a clause whose computation may
  // overflow in a narrow block would fail there, so it is evaluated after all.
  for (size_t c = 0; c < p.clause_reg.size(); ++c)
    if (p.clause_positive[c] == kPositiveByFacts && nw.clause_poison[c]) p.clause_positive[c] = 0;
  if (std::all_of(p.clause_positive.begin(), p.clause_positive.end(), [](uint8_t v) { return v == 0; })) return;
  const size_t n = p.op.size();
  std::vector<uint8_t> live(n, 0);
  for (size_t c = 0; c < p.clause_reg.size(); ++c)
    if (!p.clause_decided[c] && !p.clause_positive[c]) live[p.clause_reg[c]] = 1;
  for (uint32_t r : p.output_reg) live[r] = 1;
  for (size_t i = n; i-- > 0;)
    if (live[i]) for_each_register_read(std::as_const(p), i, [&](uint32_t r) { live[r] = 1; });
  nw.positive_skip.resize(n);
  for (size_t i = 0; i < n; ++i) nw.positive_skip[i] = !live[i];
  nw.positive_available = std::find(nw.positive_skip.begin(), nw.positive_skip.end(), 1) != nw.positive_skip.end();
}

void collect_columns_read(GuardProgram& p) {
  uint32_t total = 0;
  for (uint32_t rk : p.ranks) total += rk;
  std::vector<uint8_t> used(total, 0);
  for (size_t i = 0; i < p.op.size(); ++i) {
    if (p.op[i] == GuardOp::LoadSize && uint64_t(p.imm[i]) < total) used[size_t(p.imm[i])] = 1;
  }
  p.columns_read.clear();
  for (uint32_t c = 0; c < total; ++c)
    if (used[c]) p.columns_read.push_back(c);
}

void find_operand_columns(GuardProgram& p) {
  const size_t n = p.op.size();
  std::vector<uint32_t> column_in(p.num_registers, kNoColumn);  // what each register holds now
  p.operand_column.assign(n, kNoColumn);
  for (size_t i = 0; i < n; ++i) {
    if (p.a[i] < p.num_registers && p.op[i] != GuardOp::LoadSize && p.op[i] != GuardOp::Const &&
        p.op[i] != GuardOp::Poison && p.op[i] != GuardOp::Fallback)
      p.operand_column[i] = column_in[p.a[i]];
    if (p.dst[i] < p.num_registers) column_in[p.dst[i]] = p.op[i] == GuardOp::LoadSize ? uint32_t(p.imm[i]) : kNoColumn;
  }
}

void finish_program(GuardProgram& p) {
  p.flags.resize(p.op.size(), 0);
  fold_constant_operands(p);
  range_monotone_relations(p);
  remove_dead_instructions(p);
  analyse_poison(p);
  fuse_clause_checks(p);
  analyse_narrow_blocks(p);
  mark_unread_constants(p);
  analyse_positive_blocks(p);
  allocate_registers(p);
  collect_columns_read(p);
  find_operand_columns(p);
}

}  // namespace symshape
