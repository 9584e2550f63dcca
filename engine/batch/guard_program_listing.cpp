// A compiled guard program as text, one instruction per line: what `symshape eval
// --program` prints, so a user can see what the compiler made of a specialisation's guards.
#include <fmt/format.h>

#include <limits>

#include "batch/guard_program.h"

namespace symshape {
namespace {

std::string_view op_name(GuardOp op) {
  switch (op) {
    case GuardOp::LoadSize: return "size";
    case GuardOp::Const: return "const";
    case GuardOp::Add: return "add";
    case GuardOp::Sub: return "sub";
    case GuardOp::Mul: return "mul";
    case GuardOp::MulConst: return "mul";
    case GuardOp::Neg: return "neg";
    case GuardOp::FloorDivConst: return "floordiv";
    case GuardOp::ModConst: return "mod";
    case GuardOp::FloorDiv: return "floordiv";
    case GuardOp::Mod: return "mod";
    case GuardOp::Min: return "min";
    case GuardOp::Max: return "max";
    case GuardOp::Eq: return "eq";
    case GuardOp::Ne: return "ne";
    case GuardOp::Lt: return "lt";
    case GuardOp::Le: return "le";
    case GuardOp::Gt: return "gt";
    case GuardOp::Ge: return "ge";
    case GuardOp::And: return "and";
    case GuardOp::Or: return "or";
    case GuardOp::Not: return "not";
    case GuardOp::Fallback: return "fallback";
    case GuardOp::Poison: return "poison";
    case GuardOp::InRange: return "in_range";
  }
  return "?";
}

std::string bound(int64_t v) {
  if (v == std::numeric_limits<int64_t>::min()) return "INT64_MIN";
  if (v == std::numeric_limits<int64_t>::max()) return "INT64_MAX";
  return fmt::format("{}", v);
}

std::string operands(const GuardProgram& p, size_t i) {
  const bool imm_b = p.flags[i] & guard_flag::kImmB;
  switch (p.op[i]) {
    case GuardOp::LoadSize: return fmt::format("column {}", p.imm[i]);
    case GuardOp::Const: return fmt::format("{}", p.imm[i]);
    case GuardOp::Poison: return "";
    case GuardOp::Fallback: return fmt::format("scalar program {}", p.imm[i]);
    case GuardOp::Neg: case GuardOp::Not: return fmt::format("r{}", p.a[i]);
    case GuardOp::MulConst: case GuardOp::FloorDivConst: case GuardOp::ModConst:
      return fmt::format("r{}, {}", p.a[i], p.imm[i]);
    case GuardOp::InRange: {
      const GuardRange& r = p.ranges[size_t(p.imm[i])];
      std::string s = fmt::format("r{} {} [{}, {}]", p.a[i], r.negate ? "outside" : "inside", bound(r.pass_lo),
                                  bound(r.pass_hi));
      if (!r.always_safe()) s += fmt::format(", overflow outside [{}, {}]", bound(r.safe_lo), bound(r.safe_hi));
      return s;
    }
    default: return imm_b ? fmt::format("r{}, {}", p.a[i], p.imm[i]) : fmt::format("r{}, r{}", p.a[i], p.b[i]);
  }
}

}  // namespace

std::string program_listing(const GuardProgram& p) {
  std::string out;
  size_t clause = 0;
  for (size_t i = 0; i < p.op.size(); ++i) {
    std::string line = fmt::format("r{} = {} {}", p.dst[i], op_name(p.op[i]), operands(p, i));
    if (p.flags[i] & guard_flag::kPoisonOut) line += "  (may overflow)";
    if (p.flags[i] & guard_flag::kUnread) line += "  (not computed)";
    if (p.narrow.positive_available && p.narrow.positive_skip[i]) line += "  (skipped in positive blocks)";
    while (clause < p.clause_end.size() && p.clause_end[clause] == i + 1) {
      const std::string how = p.clause_decided[clause] ? " (always true)"
                              : p.clause_fused[clause] ? ""
                                                       : fmt::format(" (r{})", p.clause_reg[clause]);
      line += fmt::format("  -> clause {}{}: {}", clause, how, p.clause_text[clause]);
      ++clause;
    }
    out += line;
    out += '\n';
  }
  return out;
}

}  // namespace symshape
