#pragma once
// A specialisation's guards compiled into a flat program over int64 registers, evaluated
// column-wise over blocks of examples (batch/guard_eval.h).
//
// Layout (structure of arrays): instruction columns `op`, `dst`, `a`, `b`, `imm`, one entry
// per instruction, registers in SSA form (each instruction writes a new one). Every
// register has a poison lane mask beside its values: a lane whose value overflowed int64
// (or divided by zero in a fallback) is poisoned, poison flows through arithmetic and
// comparisons and, left to right as Python's `and`/`or`, through And/Or; a clause that is
// poisoned for an example fails it with the reason "overflow". Common
// subexpressions are shared by ExprId: the arena is hash-consed, so one ExprId is one
// register. Clauses are the guard relations; each clause's new instructions are emitted
// right before its check, so an evaluator can stop a block once every example failed.
// Clause order: the source equalities first (static dims and duck-sized equalities: one
// compare, and what traffic most often breaks), then the guards in PyTorch's order.
#include <libdivide.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "batch/example_columns.h"
#include "conform/specialization.h"
#include "expr/evaluate.h"

namespace symshape {

enum class GuardOp : uint8_t {
  LoadSize,       // dst = size column imm
  Const,          // dst = imm
  Add, Sub, Mul,  // dst = a op b, overflow poisons the example
  MulConst,       // dst = a * imm
  Neg,
  FloorDivConst,  // dst = a // imm (imm > 0), through libdivide: dividers[b]
  ModConst,       // dst = a % imm, Python sign (imm > 0), dividers[b]
  FloorDiv, Mod,  // dst = a // b, a % b with a register divisor (Python signs); a zero
                  // divisor or INT64_MIN // -1 poisons the example
  Min, Max,
  Eq, Ne, Lt, Le, Gt, Ge,  // dst = 0/1
  And, Or, Not,
  Fallback,       // dst = fallbacks[imm] (a BatchProgram over symbol registers), its errors poison
  Poison,         // dst = 0, poisoned: a value no example can have (an unbound symbol)
  InRange,        // dst = 0/1: size register a against ranges[imm] (a monotone relation, see GuardRange)
};

// A relation between a monotone function of one size and a constant, solved at compile
// time (guard_range_pass.cpp): the size is poisoned outside [safe_lo, safe_hi] (where the
// function would overflow), else the relation holds iff it lies in [pass_lo, pass_hi]
// (outside it, when `negate`). An empty pass interval has pass_lo > pass_hi.
struct GuardRange {
  int64_t pass_lo, pass_hi;
  int64_t safe_lo, safe_hi;
  bool negate;
  bool always_safe() const {
    return safe_lo == std::numeric_limits<int64_t>::min() && safe_hi == std::numeric_limits<int64_t>::max();
  }
};

// Per-instruction flags, set by the passes in guard_program_passes.h.
namespace guard_flag {
inline constexpr uint8_t kPoisonOut = 1;  // the result may be poisoned: its poison lanes are written
inline constexpr uint8_t kPoisonA = 2;    // operand a may be poisoned: read its poison lanes
inline constexpr uint8_t kPoisonB = 4;    // operand b may be poisoned
inline constexpr uint8_t kImmB = 8;       // operand b is the constant imm, not a register
inline constexpr uint8_t kFused = 16;     // a relation that is exactly its clause: the verdict is updated in place
// narrow blocks only (GuardProgram::Narrow::flags)
inline constexpr uint8_t kNarrowMul32 = 32;  // Mul / MulConst: both operands in [0, 2**32): one 32x32->64 multiply
inline constexpr uint8_t kNarrowDiv = 64;    // FloorDivConst / ModConst: operand in [0, 2**30): multiply and shift;
                                             // FloorDiv / Mod: both operands in (-2**50, 2**50): in doubles
// both variants
inline constexpr uint8_t kUnread = 128;  // a Const only decided clauses name: no lane work
}  // namespace guard_flag

inline constexpr uint32_t kNoColumn = UINT32_MAX;

// A narrow block: every size it reads is below this (and not negative). See
// GuardProgram::Narrow.
inline constexpr int kNarrowSizeBits = 20;
inline constexpr int64_t kNarrowSizeLimit = int64_t(1) << kNarrowSizeBits;

// Why a clause holds in positive narrow blocks (GuardProgram::clause_positive).
inline constexpr uint8_t kPositiveStride = 1;   // a contiguous stride guard (the product of the sizes right of it)
inline constexpr uint8_t kPositiveByFacts = 2;  // the clauses before it imply it (positive_block_facts.h)

struct GuardProgram {
  // instructions
  std::vector<GuardOp> op;
  std::vector<uint32_t> dst, a, b;
  std::vector<int64_t> imm;
  std::vector<uint8_t> flags;  // guard_flag bits
  // Unsigned dividers: floor division of a negative a is ~(~a / c), so only non-negative
  // numerators are divided. libdivide's C form: no inline C++ shared across ISA builds.
  std::vector<libdivide::libdivide_u64_t> dividers;
  std::vector<GuardRange> ranges;  // InRange's
  uint32_t num_registers = 0;

  // clauses: after instruction clause_end[c] - 1, register clause_reg[c] holds the clause
  // (0/1). A clause whose value cannot be computed for an example (overflow) fails it.
  std::vector<uint32_t> clause_reg, clause_end;
  std::vector<std::string> clause_text;  // PyTorch's guard text of each clause
  std::vector<uint32_t> clause_line;     // its line in ProducedGuards::text (the clause index for raw clauses)
  std::vector<uint8_t> clause_poison;    // 1: the clause register may be poisoned
  std::vector<uint8_t> clause_fused;     // 1: its last instruction (kFused) updates the verdict itself
  std::vector<uint8_t> clause_decided;   // 1: holds for every example (a true constant): no lane work
  std::vector<uint8_t> clause_positive;  // nonzero: holds for every live lane of a positive narrow block (see Narrow):
                                         // kPositiveStride or kPositiveByFacts

  // Fallback clauses (kinds with no vector kernel: Piecewise, float arithmetic, ...).
  struct Fallback {
    std::unique_ptr<BatchProgram> program;
    std::vector<uint32_t> symbol_register;  // [symbol index] -> register, UINT32_MAX unused
    std::vector<uint8_t> symbol_poison;     // [symbol index] -> 1: that register may be poisoned
  };
  std::vector<Fallback> fallbacks;

  // Values computed per example besides the verdict (on request: chosen nodes' symbolic
  // output sizes). After the last instruction, register output_reg[k] holds output k.
  std::vector<uint32_t> output_reg;
  std::vector<std::string> output_name;  // "node.size()[d]", or "node" for a SymInt node
  std::vector<uint8_t> output_poison;    // 1: the register may be poisoned

  // What the examples must look like at all: the declared rank of every input.
  std::vector<uint32_t> ranks;
  // The size columns the program reads (LoadSize), ascending: what a narrow
  // block checks, and what the evaluator prefetches for the next block.
  std::vector<uint32_t> columns_read;
  // Per instruction: the size column its operand a is, when a is a loaded size (a
  // register LoadSize last wrote), else kNoColumn. A fused relation or range check of a
  // size against a constant is decided for a whole block by the block's least and
  // greatest size in that column (see the kernel's block bounds).
  std::vector<uint32_t> operand_column;

  // The variant for narrow blocks (guard_narrow_pass.cpp): when every size a block reads
  // is in [0, kNarrowSizeLimit), interval arithmetic proves most instructions cannot
  // overflow; `flags` replaces the instruction flags there (poison bits recomputed, plus
  // kNarrowMul32 / kNarrowDiv), and clause_poison / output_poison likewise. Unavailable
  // for programs with a Fallback or Poison instruction.
  // A positive narrow block (every size it reads in [1, kNarrowSizeLimit): the common
  // case) also skips the clauses that hold there for every live lane (clause_positive: the
  // stride guards of contiguous inputs, and clauses the ones before them imply, such as
  // ceil-mode pooling's two-size guards) and the instructions only they need
  // (positive_skip, per instruction).
  struct Narrow {
    bool available = false;
    bool positive_available = false;
    std::vector<uint8_t> positive_skip;
    std::vector<uint8_t> flags;
    std::vector<uint8_t> clause_poison, output_poison;
    std::vector<uint64_t> div_magic;  // per divider: m with floor(x / c) == (x * m) >> div_shift for x < 2**30
    std::vector<uint32_t> div_shift;
  } narrow;

  size_t num_clauses() const { return clause_reg.size(); }
  size_t num_instructions() const { return op.size(); }
};

// Compiles `spec`'s produced guards (exprs and source equalities; float NaN checks need
// float inputs and are not part of size verdicts, as in the specialisation cache).
// With `size_nodes`, the program also computes every listed node's output sizes (each dim
// of a tensor, or the value of a SymInt node) as outputs, evaluated with the guards.
GuardProgram compile_guards(const Graph& graph, const Specialization& spec, std::span<const NodeId> size_nodes = {});

// Boolean `clauses` over symbols read from size columns: symbol_column[symbol index] is a
// column (placeholder-major over `ranks`), UINT32_MAX for none (a clause using an unbound
// symbol never holds). For tools that hold guard expressions of their own, and the
// property tests against the scalar evaluator.
GuardProgram compile_clauses(const ExprArena& arena, std::span<const ExprId> clauses,
                             std::span<const uint32_t> symbol_column, std::vector<uint32_t> ranks);

// The program as text, one instruction per line ("r3 = in_range r0 outside [1, 4]  -> clause 2:
// <guard>"), for `symshape eval --program` (guard_program_listing.cpp).
std::string program_listing(const GuardProgram& p);

}  // namespace symshape
