#pragma once
// Evaluation of expressions at concrete int64 bindings, single and batched.
// Any int64 overflow is an Error(Overflow), never a wrong number.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "expr/expr.h"

namespace symshape {

// A concrete scalar: integers and booleans as int64, floats as double.
struct Scalar {
  enum class Kind : uint8_t { Int, Float, Bool };
  Kind kind = Kind::Int;
  int64_t i = 0;
  double f = 0.0;
  static Scalar of_int(int64_t v) { return {Kind::Int, v, 0.0}; }
  static Scalar of_float(double v) { return {Kind::Float, 0, v}; }
  static Scalar of_bool(bool v) { return {Kind::Bool, v ? 1 : 0, 0.0}; }
  double as_double() const { return kind == Kind::Float ? f : static_cast<double>(i); }
};

// Bindings indexed by SymbolId; `bound[s]` 0 means the symbol has no value (an unbound
// symbol makes evaluate() throw Error(Internal)), 1 an int64 in `value`, 2 a double whose
// bits are stored in `value` (float symbols, set_float).
struct Bindings {
  std::vector<int64_t> value;
  std::vector<uint8_t> bound;
  void set(SymbolId s, int64_t v);
  void set_float(SymbolId s, double v);
  bool has(SymbolId s) const { return s.index() < bound.size() && bound[s.index()]; }
  bool is_float(SymbolId s) const { return s.index() < bound.size() && bound[s.index()] == 2; }
  void clear() { bound.assign(bound.size(), 0); }
};

Scalar evaluate(const ExprArena& arena, ExprId e, const Bindings& bindings);
int64_t evaluate_int(const ExprArena& arena, ExprId e, const Bindings& bindings);
bool evaluate_bool(const ExprArena& arena, ExprId e, const Bindings& bindings);
// Returns nullopt instead of throwing when a symbol is unbound.
std::optional<Scalar> try_evaluate(const ExprArena& arena, ExprId e, const Bindings& bindings);

// Batch evaluation: a compiled flat program of the nodes reachable from `roots` (ids
// ascending = operands first), run over columns of bindings; it copies what it needs from
// the arena, so it stays valid while the arena grows or is cleared. It is the guard
// programs' scalar fallback (batch/guard_program.h, GuardOp::Fallback): the guard nodes
// the vector kernels do not cover (int_oo, Piecewise, float arithmetic) run here.
// Layout: each instruction is one opcode plus slot indices; run() executes instruction by
// instruction over chunks of rows, every kernel a plain loop reading and writing int64 /
// double columns and a per-row status byte column; a slot is reused after its last read.
class BatchProgram {
 public:
  // Roots must be integer- or boolean-valued; float symbols cannot be fed (columns are
  // int64): both throw Error(Value) / Error(Unsupported).
  BatchProgram(const ExprArena& arena, std::span<const ExprId> roots);
  // columns[symbol index] = pointer to n values of that symbol (nullptr if unused; a
  // used symbol without a column throws Error(Internal)).
  // out[r] receives n int64 results of root r (booleans as 0/1).
  // Rows whose evaluation overflows, divides by zero or hits a domain error get
  // `error_rows[row] = 1` (their outputs are 0) and other rows are unaffected; with
  // error_rows == nullptr the first failing row throws that error instead.
  void run(std::span<const int64_t* const> columns, size_t n, std::span<int64_t* const> out,
           uint8_t* error_rows) const;
  size_t instruction_count() const { return code_.size(); }
  size_t slot_count() const { return slot_count_; }

  struct Instr {
    uint16_t op;        // BatchOp
    uint16_t mode;      // per-op variant (relation kind, operand types, opaque fn)
    uint32_t out;       // result slot
    uint32_t first;     // first operand slot index in args_
    uint32_t count;     // operand count
    int64_t imm;        // constant / symbol index / exponent
  };

 private:
  std::vector<Instr> code_;
  std::vector<uint32_t> args_;
  std::vector<uint32_t> root_slots_;
  uint32_t slot_count_ = 0;
  uint32_t max_symbol_ = 0;
};

}  // namespace symshape
