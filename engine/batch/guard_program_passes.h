#pragma once
// Passes over a freshly compiled GuardProgram (SSA: instruction i writes register i), run in
// this order by `finish_program`:
//   1. fold_constant_operands: a relation, Add, Sub, Min or Max whose operand is a Const
//      takes the constant as its immediate (kImmB), mirrored when the constant is on the left;
//      a relation of two constants becomes a constant, and a clause that is a true constant
//      is decided (clause_decided: no lane work);
//   1b. range_monotone_relations (guard_range_pass.cpp): a relation between a monotone chain
//      of constant steps over one size and a constant (or between two such chains over the
//      same size, when the sizes that satisfy it form one interval) becomes InRange on the
//      size itself;
//   2. remove_dead_instructions: what no instruction and no clause reads is dropped (the
//      Consts that step 1 made unused, the chains that step 1b bypassed);
//   3. analyse_poison: which results can be poisoned at all (a loaded size or a comparison of
//      loaded sizes never is), so the kernels skip the poison lanes of everything else;
//   4. fuse_clause_checks: a relation read only by its own clause updates the verdict
//      directly instead of writing a register that the clause check then reads back;
//   4b. analyse_narrow_blocks (guard_narrow_pass.cpp): the flags of the narrow-block variant
//      (every size below kNarrowSizeLimit): poison only where intervals allow overflow,
//      32-bit multiplies and multiply-shift divisions where operands are small enough;
//   4c. mark_unread_constants: a Const that only decided clauses name (the `true` of
//      `stride()[-1] == 1` and `storage_offset() == 0`) is not written at all (kUnread);
//   4d. analyse_positive_blocks: what a positive narrow block (every size in [1, 2**20))
//      skips: the instructions that only clauses holding there (clause_positive) need; a
//      clause proven from the ones before it (kPositiveByFacts) only where it cannot overflow;
//   5. allocate_registers: liveness-based reuse of physical registers.
// None of them changes a verdict: the property tests compare against the scalar evaluator.
#include "batch/guard_program.h"

namespace symshape {

// One of the six relations Eq .. Ge (InRange, which also yields a verdict, is not one).
inline bool is_comparison(GuardOp op) { return op >= GuardOp::Eq && op <= GuardOp::Ge; }

// Calls fn(register) for every register instruction i reads (fn gets a reference into the
// program, so a pass can rename it when `p` is not const).
template <class Program, class Fn>
void for_each_register_read(Program& p, size_t i, Fn&& fn) {
  switch (p.op[i]) {
    case GuardOp::LoadSize: case GuardOp::Const: case GuardOp::Poison: break;
    case GuardOp::Neg: case GuardOp::MulConst: case GuardOp::FloorDivConst: case GuardOp::ModConst: case GuardOp::Not:
    case GuardOp::InRange:
      fn(p.a[i]);
      break;
    case GuardOp::Fallback:
      for (auto& r : p.fallbacks[size_t(p.imm[i])].symbol_register)
        if (r != UINT32_MAX) fn(r);
      break;
    default:
      fn(p.a[i]);
      if (!(p.flags[i] & guard_flag::kImmB)) fn(p.b[i]);
      break;
  }
}

void fold_constant_operands(GuardProgram& p);
void range_monotone_relations(GuardProgram& p);
void remove_dead_instructions(GuardProgram& p);
void analyse_poison(GuardProgram& p);
void fuse_clause_checks(GuardProgram& p);
void analyse_narrow_blocks(GuardProgram& p);
void mark_unread_constants(GuardProgram& p);
void analyse_positive_blocks(GuardProgram& p);
void allocate_registers(GuardProgram& p);
// GuardProgram::columns_read (after the passes: what the program still reads).
void collect_columns_read(GuardProgram& p);
// GuardProgram::operand_column (after register allocation: physical registers).
void find_operand_columns(GuardProgram& p);

// All of the above, in order.
void finish_program(GuardProgram& p);

}  // namespace symshape
