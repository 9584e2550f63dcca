#include "batch/guard_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "batch/guard_program_passes.h"
#include "batch/positive_block_facts.h"
#include "core/error.h"

namespace symshape {
namespace {

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

class Compiler {
 public:
  Compiler(const ExprArena& ar, std::vector<uint32_t> ranks, GuardProgram& out) : ar_(ar), p_(out), facts_(ar) {
    p_.ranks = std::move(ranks);
    first_column_.resize(p_.ranks.size());
    uint32_t k = 0;
    for (size_t ph = 0; ph < p_.ranks.size(); ++ph) {
      first_column_[ph] = k;
      k += p_.ranks[ph];
    }
  }

  // A specialisation: every bound symbol reads the input source it was bound from.
  void bind_sources(const Specialization& s) {
    s_ = &s;
    const auto sources = s.prop->input_sources();
    for (size_t i = 0; i < s.guards.bound_symbols.size(); ++i) {
      const SourceId src = s.guards.bound_sources[i];
      for (const InputSource& in : sources)
        if (in.source == src) {
          bind_symbol(ar_.symbol_id(s.guards.bound_symbols[i]).index(), in);
          break;
        }
    }
  }

  // Raw clauses: symbol index -> size column.
  void bind_columns(std::span<const uint32_t> symbol_column) {
    for (uint32_t sym = 0; sym < symbol_column.size(); ++sym) {
      if (symbol_column[sym] == kNone) continue;
      uint32_t ph = 0;
      while (ph + 1 < first_column_.size() && first_column_[ph + 1] <= symbol_column[sym]) ++ph;
      bind_symbol(sym, InputSource{SourceId(), ph, SourceKind::Size, symbol_column[sym] - first_column_[ph]});
    }
  }

  void compile_clauses(std::span<const ExprId> clauses) {
    for (size_t i = 0; i < clauses.size(); ++i) expression_clause(clauses[i], fmt::format("clause {}", i), uint32_t(i));
  }

  // The symbolic output sizes of the given nodes, as program outputs.
  void compile_outputs(const Graph& g, std::span<const NodeId> nodes) {
    const Propagator& prop = *s_->prop;
    const ValueTable& vals = prop.values();
    for (NodeId n : nodes) {
      if (n.index() >= prop.node_values().size()) continue;
      const ValId v = prop.node_values()[n.index()];
      if (!v.valid()) continue;
      const std::string name(g.node_name(n));
      if (vals.kind(v) == ValKind::Tensor) {
        const auto sizes = vals.sizes(vals.as_tensor(v));
        for (size_t d = 0; d < sizes.size(); ++d) add_output(value(sizes[d]), fmt::format("{}.size()[{}]", name, d));
      } else if (vals.kind(v) == ValKind::SymInt) {
        add_output(value(vals.as_expr(v)), name);
      }
    }
  }

  void compile() {
    const ProduceGuards& pg = s_->guards;
    // text lines of the source equalities, in order
    std::vector<uint32_t> eq_line;
    for (size_t i = 0; i < pg.text.size(); ++i)
      if (!pg.exprs[i].valid() && !pg.text[i].starts_with("not math.isnan(")) eq_line.push_back(uint32_t(i));
    std::unordered_map<uint32_t, int64_t> pinned;  // size column -> constant, by an earlier source equality
    for (size_t j = 0; j < pg.source_equalities.size(); ++j) {
      const auto& [src, expr] = pg.source_equalities[j];
      const InputSource* in = input_source(src);
      if (!in) throw Error(ErrorKind::Internal, "guard program: source equality on an unknown source");
      const uint32_t lhs = load_input(*in);
      const uint32_t rhs = value(expr);
      const uint32_t line = j < eq_line.size() ? eq_line[j] : 0;
      finish_clause(emit(GuardOp::Eq, lhs, rhs), j < eq_line.size() ? pg.text[line] : std::string("source equality"), line);
      if (in->kind == SourceKind::Stride) p_.clause_positive.back() = stride_identity_in_positive_blocks(*in, expr, pinned) ? kPositiveStride : 0;
      if (in->kind == SourceKind::Size && ar_.kind(expr) == ExprKind::Integer)
        pinned.emplace(first_column_[in->placeholder] + in->dim, ar_.int_value(expr));
    }
    for (size_t i = 0; i < pg.exprs.size(); ++i) {
      const ExprId e = pg.exprs[i];
      if (!e.valid()) continue;
      expression_clause(e, pg.text[i], uint32_t(i));
    }
  }

 private:
  using ProduceGuards = ShapeEnv::ProducedGuards;

  void bind_symbol(uint32_t symbol_index, const InputSource& in) {
    symbol_source_[symbol_index] = in;
    if (in.kind == SourceKind::Size) facts_.bind_size(symbol_index);
  }

  // A guard expression as a clause; it holds in positive blocks when the clauses before it
  // imply it there (kPositiveByFacts: only where it cannot overflow, analyse_positive_blocks).
  void expression_clause(ExprId e, const std::string& text, uint32_t line) {
    finish_clause(boolean(e), text, line);
    if (facts_.implies(e)) p_.clause_positive.back() = kPositiveByFacts;
    facts_.assume(e);
  }

  uint32_t emit(GuardOp op, uint32_t a = 0, uint32_t b = 0, int64_t imm = 0) {
    p_.op.push_back(op);
    p_.a.push_back(a);
    p_.b.push_back(b);
    p_.imm.push_back(imm);
    p_.flags.push_back(0);
    p_.dst.push_back(p_.num_registers);
    return p_.num_registers++;
  }

  void add_output(uint32_t reg, std::string name) {
    p_.output_reg.push_back(reg);
    p_.output_name.push_back(std::move(name));
  }

  // A contiguous stride guard `stride()[d] == E` in a positive narrow block (every size it
  // reads in [1, kNarrowSizeLimit)): when E is the product of the sizes right of d, each
  // either a constant c >= 1 that an earlier source equality pinned that size to (so every
  // lane still alive here has it) or the symbol bound to exactly that size, both sides are
  // the same product of positive factors (Max(s, 1) == s there), and it is below INT64_MAX,
  // so the guard holds for every live lane.
  bool stride_identity_in_positive_blocks(const InputSource& in, ExprId expr,
                                          const std::unordered_map<uint32_t, int64_t>& pinned) const {
    const std::span<const ExprId> one(&expr, 1);
    const std::span<const ExprId> factors = ar_.kind(expr) == ExprKind::Mul ? ar_.operands(expr) : one;
    __extension__ typedef __int128 Wide;
    Wide coefficient = 1, pinned_product = 1, bound = 1;
    std::vector<uint32_t> dims;  // the sizes E names by their symbols
    for (ExprId f : factors) {
      if (ar_.kind(f) == ExprKind::Integer) {
        coefficient *= ar_.int_value(f);
        continue;
      }
      if (ar_.kind(f) != ExprKind::Symbol) return false;
      auto it = symbol_source_.find(ar_.symbol_id(f).index());
      if (it == symbol_source_.end()) return false;
      const InputSource& s = it->second;
      if (s.kind != SourceKind::Size || s.placeholder != in.placeholder || s.dim <= in.dim) return false;
      dims.push_back(s.dim);
    }
    std::sort(dims.begin(), dims.end());
    size_t next = 0;
    for (uint32_t k = in.dim + 1; k < p_.ranks[in.placeholder]; ++k) {
      auto pin = pinned.find(first_column_[in.placeholder] + k);
      if (next < dims.size() && dims[next] == k) {  // named by its symbol
        ++next;
        bound *= Wide(kNarrowSizeLimit - 1);
      } else if (pin != pinned.end() && pin->second >= 1) {
        pinned_product *= pin->second;
        bound *= pin->second;
      } else {
        return false;
      }
      if (bound > Wide(std::numeric_limits<int64_t>::max())) return false;
    }
    return next == dims.size() && coefficient == pinned_product;
  }

  const InputSource* input_source(SourceId src) const {
    for (const InputSource& in : s_->prop->input_sources())
      if (in.source == src) return &in;
    return nullptr;
  }

  void finish_clause(uint32_t reg, const std::string& text, uint32_t line) {
    p_.clause_positive.push_back(0);
    p_.clause_line.push_back(line);
    p_.clause_reg.push_back(reg);
    p_.clause_end.push_back(uint32_t(p_.op.size()));
    p_.clause_text.push_back(text);
  }

  uint32_t constant(int64_t v) {
    auto it = const_reg_.find(v);
    if (it != const_reg_.end()) return it->second;
    return const_reg_[v] = emit(GuardOp::Const, 0, 0, v);
  }

  uint32_t load_input(const InputSource& in) {
    const uint64_t key = (uint64_t(in.placeholder) << 35) | (uint64_t(in.kind) << 32) | in.dim;
    auto it = source_reg_.find(key);
    if (it != source_reg_.end()) return it->second;
    uint32_t r;
    switch (in.kind) {
      case SourceKind::Size: r = emit(GuardOp::LoadSize, 0, 0, first_column_[in.placeholder] + in.dim); break;
      case SourceKind::Stride: r = contiguous_stride(in.placeholder, in.dim); break;
      case SourceKind::StorageOffset: r = constant(0); break;
      case SourceKind::Constant: {
        // a phantom root of derived dims: (size - add) // mul of the size it was solved from;
        // the source equality `size == mul*root + add` then checks the size fits
        r = emit(GuardOp::LoadSize, 0, 0, first_column_[in.placeholder] + in.dim);
        if (in.add != 0) r = emit(GuardOp::Sub, r, constant(in.add));
        if (in.mul != 1) {
          p_.dividers.push_back(libdivide::libdivide_u64_gen(uint64_t(in.mul)));
          r = emit(GuardOp::FloorDivConst, r, uint32_t(p_.dividers.size() - 1), in.mul);
        }
        break;
      }
      default: throw Error(ErrorKind::Unsupported, "guard program: input source kind without a column");
    }
    return source_reg_[key] = r;
  }

  // Inputs are contiguous: stride[d] = Max(size[d + 1], 1) * stride[d + 1], and the last
  // dim's stride is the empty product. Built from the right, so every stride of an input
  // shares the products of the ones to its right, and the narrow pass sees each factor's
  // range (two sizes multiply in 32 bits). The factors are at least 1, so the product
  // leaves int64 at some step exactly when the whole product does: the poison is the same
  // whatever the order of the steps.
  uint32_t contiguous_stride(uint32_t placeholder, uint32_t dim) {
    if (dim + 1 >= p_.ranks[placeholder]) return constant(1);
    const InputSource size{SourceId(), placeholder, SourceKind::Size, dim + 1};
    const uint32_t factor = emit(GuardOp::Max, load_input(size), constant(1));
    if (dim + 2 == p_.ranks[placeholder]) return factor;
    const InputSource right{SourceId(), placeholder, SourceKind::Stride, dim + 1};
    return emit(GuardOp::Mul, factor, load_input(right));
  }

  uint32_t boolean(ExprId e) { return value(e); }

  // A value no example can have (an unbound symbol, a float result): poisons every lane,
  // so the clause using it fails, as evaluate() fails it.
  uint32_t poison() { return emit(GuardOp::Poison); }

  // A node the vector kernels cannot run (a symbolic divisor, int_oo, Piecewise, float
  // arithmetic, ...): the scalar BatchProgram over the symbols' registers. An unbound
  // symbol makes it unevaluable: the clause then never holds, as in the specialisation cache.
  uint32_t fallback(ExprId e) {
    std::vector<ExprId> syms;
    ar_.free_symbols(e, syms);
    GuardProgram::Fallback fb;
    for (ExprId s : syms) {
      const uint32_t idx = ar_.symbol_id(s).index();
      auto it = symbol_source_.find(idx);
      if (it == symbol_source_.end()) return poison();
      if (fb.symbol_register.size() <= idx) fb.symbol_register.resize(idx + 1, kNone);
      fb.symbol_register[idx] = load_input(it->second);
    }
    const ExprId roots[1] = {e};
    try {
      fb.program = std::make_unique<BatchProgram>(ar_, roots);
    } catch (const Error&) {
      return poison();  // not an int/bool expression over int columns
    }
    p_.fallbacks.push_back(std::move(fb));
    return emit(GuardOp::Fallback, 0, 0, int64_t(p_.fallbacks.size() - 1));
  }

  bool positive_constant(ExprId d) const { return ar_.kind(d) == ExprKind::Integer && ar_.int_value(d) > 0; }

  uint32_t binary_chain(GuardOp op, ExprId e) {
    const auto ops = ar_.operands(e);
    uint32_t r = value(ops[0]);
    for (size_t i = 1; i < ops.size(); ++i) r = emit(op, r, value(ops[i]));
    return r;
  }

  uint32_t value(ExprId e) {
    auto it = expr_reg_.find(e.index());
    if (it != expr_reg_.end()) return it->second;
    uint32_t r = 0;
    switch (ar_.kind(e)) {
      case ExprKind::Integer: r = constant(ar_.int_value(e)); break;
      case ExprKind::True: r = constant(1); break;
      case ExprKind::False: r = constant(0); break;
      case ExprKind::Symbol: {
        auto it = symbol_source_.find(ar_.symbol_id(e).index());
        r = it == symbol_source_.end() ? poison() : load_input(it->second);
        break;
      }
      case ExprKind::Add: r = binary_chain(GuardOp::Add, e); break;
      case ExprKind::Mul: {
        // left to right as evaluate() multiplies, so an intermediate overflow is the same
        const auto ops = ar_.operands(e);
        size_t i = 0;
        int64_t coef = 1;
        if (ar_.kind(ops[0]) == ExprKind::Integer) coef = ar_.int_value(ops[i++]);
        r = value(ops[i++]);
        if (coef == -1) r = emit(GuardOp::Neg, r);
        else if (coef != 1) r = emit(GuardOp::MulConst, r, 0, coef);
        for (; i < ops.size(); ++i) r = emit(GuardOp::Mul, r, value(ops[i]));
        break;
      }
      case ExprKind::Pow: {
        if (ar_.kind(ar_.operand(e, 1)) != ExprKind::Integer || ar_.int_value(ar_.operand(e, 1)) > 8) {
          r = fallback(e);
          break;
        }
        const uint32_t base = value(ar_.operand(e, 0));
        r = base;
        for (int64_t k = 1; k < ar_.int_value(ar_.operand(e, 1)); ++k) r = emit(GuardOp::Mul, r, base);
        break;
      }
      case ExprKind::FloorDiv:
      case ExprKind::CleanDiv:
      case ExprKind::Mod:
      case ExprKind::PythonMod: {
        const bool div = ar_.kind(e) == ExprKind::FloorDiv || ar_.kind(e) == ExprKind::CleanDiv;
        if (!positive_constant(ar_.operand(e, 1))) {  // a symbolic (or negative) divisor
          r = emit(div ? GuardOp::FloorDiv : GuardOp::Mod, value(ar_.operand(e, 0)), value(ar_.operand(e, 1)));
          break;
        }
        const int64_t c = ar_.int_value(ar_.operand(e, 1));
        p_.dividers.push_back(libdivide::libdivide_u64_gen(uint64_t(c)));
        r = emit(div ? GuardOp::FloorDivConst : GuardOp::ModConst, value(ar_.operand(e, 0)),
                 uint32_t(p_.dividers.size() - 1), c);
        break;
      }
      case ExprKind::Max: r = binary_chain(GuardOp::Max, e); break;
      case ExprKind::Min: r = binary_chain(GuardOp::Min, e); break;
      case ExprKind::Eq: r = emit(GuardOp::Eq, value(ar_.operand(e, 0)), value(ar_.operand(e, 1))); break;
      case ExprKind::Ne: r = emit(GuardOp::Ne, value(ar_.operand(e, 0)), value(ar_.operand(e, 1))); break;
      case ExprKind::Lt: r = emit(GuardOp::Lt, value(ar_.operand(e, 0)), value(ar_.operand(e, 1))); break;
      case ExprKind::Le: r = emit(GuardOp::Le, value(ar_.operand(e, 0)), value(ar_.operand(e, 1))); break;
      case ExprKind::Gt: r = emit(GuardOp::Gt, value(ar_.operand(e, 0)), value(ar_.operand(e, 1))); break;
      case ExprKind::Ge: r = emit(GuardOp::Ge, value(ar_.operand(e, 0)), value(ar_.operand(e, 1))); break;
      case ExprKind::And: r = binary_chain(GuardOp::And, e); break;
      case ExprKind::Or: r = binary_chain(GuardOp::Or, e); break;
      case ExprKind::Not: r = emit(GuardOp::Not, value(ar_.operand(e, 0))); break;
      default: r = fallback(e); break;
    }
    expr_reg_[e.index()] = r;
    return r;
  }

  const Specialization* s_ = nullptr;
  const ExprArena& ar_;
  GuardProgram& p_;
  std::vector<uint32_t> first_column_;
  std::unordered_map<uint32_t, InputSource> symbol_source_;  // symbol index -> source
  std::unordered_map<uint32_t, uint32_t> expr_reg_;           // ExprId -> register (CSE)
  std::unordered_map<int64_t, uint32_t> const_reg_;
  std::unordered_map<uint64_t, uint32_t> source_reg_;
  PositiveBlockFacts facts_;  // what holds in a positive block before the next clause
};

}  // namespace

GuardProgram compile_guards(const Graph& graph, const Specialization& spec, std::span<const NodeId> size_nodes) {
  GuardProgram p;
  std::vector<uint32_t> ranks;
  for (uint32_t ph = 0; ph < graph.num_placeholders(); ++ph) ranks.push_back(graph.placeholder_rank(PlaceholderId(ph)));
  Compiler c(spec.env->arena(), std::move(ranks), p);
  c.bind_sources(spec);
  c.compile();
  c.compile_outputs(graph, size_nodes);
  finish_program(p);
  return p;
}

GuardProgram compile_clauses(const ExprArena& arena, std::span<const ExprId> clauses,
                             std::span<const uint32_t> symbol_column, std::vector<uint32_t> ranks) {
  GuardProgram p;
  Compiler c(arena, std::move(ranks), p);
  c.bind_columns(symbol_column);
  c.compile_clauses(clauses);
  finish_program(p);
  return p;
}

}  // namespace symshape
