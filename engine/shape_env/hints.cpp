// ShapeEnv hints (semantics.md C.5, C.7): the example values of backed symbols, the
// real-tensor values of unbacked ones, and OBLIVIOUS_SIZE example values.
#include "shape_env/shape_env.h"

#include <algorithm>

#include "core/error.h"
#include "expr/evaluate.h"
#include "shape_env/symbol_list.h"

namespace symshape {

// ---- hints ---------------------------------------------------------------------------------

bool ShapeEnv::contains_unbacked_without_hint(ExprId e) {
  if (!(arena_.facts(e) & kFactHasUnbacked)) return false;
  SymbolList syms;
  arena_.free_symbols(e, syms);
  for (ExprId s : syms)
    if (state(s).unbacked && !state(s).unbacked_value) return true;
  return false;
}

ExprId ShapeEnv::substitute_hints(ExprId e) {
  SymbolList syms, from, to;
  arena_.free_symbols(e, syms);
  for (ExprId s : syms) {
    const SymbolState& st = state(s);
    if (st.hint) {
      from.push_back(s);
      to.push_back(arena_.integer(*st.hint));
    } else if (st.float_hint) {
      from.push_back(s);
      to.push_back(arena_.floating(*st.float_hint));
    } else if (st.unbacked_value) {
      from.push_back(s);
      to.push_back(arena_.integer(*st.unbacked_value));
    }
  }
  if (from.empty()) return e;
  return arena_.substitute(e, from, to);
}

bool ShapeEnv::has_hint(ExprId e) {
  ExprId x = replace(e);
  SymbolList syms;
  arena_.free_symbols(x, syms);
  for (ExprId s : syms)
    if (!state(s).hint && !state(s).float_hint) return false;
  return true;
}

ExprId ShapeEnv::hint_value(ExprId e) {
  ExprId x = replace(e);
  if (arena_.is_constant(x)) return x;
  if (contains_unbacked_without_hint(x)) {
    if (auto s = maybe_evaluate_static(x)) return *s;
    if (auto v = oblivious_hint(x)) return *v;
    raise_data_dependent(x, !arena_.is_boolean(x), {});
  }
  ExprId v = substitute_hints(x);
  if (arena_.is_constant(v)) return v;
  Bindings b;
  SymbolList syms;
  arena_.free_symbols(x, syms);
  for (ExprId s : syms) {
    const SymbolState& st = state(s);
    if (st.hint) b.set(arena_.symbol_id(s), *st.hint);
    else if (st.float_hint) b.set_float(arena_.symbol_id(s), *st.float_hint);
    else if (st.unbacked_value) b.set(arena_.symbol_id(s), *st.unbacked_value);
  }
  const Scalar sc = evaluate(arena_, x, b);
  switch (sc.kind) {
    case Scalar::Kind::Int: return arena_.integer(sc.i);
    case Scalar::Kind::Bool: return arena_.boolean(sc.i != 0);
    case Scalar::Kind::Float: return arena_.floating(sc.f);
  }
  return v;
}

std::optional<ExprId> ShapeEnv::oblivious_hint(ExprId e) {
  SymbolList syms;
  arena_.free_symbols(e, syms);
  Bindings as_is, at_least_two;
  bool any_oblivious = false;
  for (ExprId s : syms) {
    const SymbolState& st = state(s);
    const SymbolId id = arena_.symbol_id(s);
    if (st.hint) {
      as_is.set(id, *st.hint);
      at_least_two.set(id, *st.hint);
    } else if (st.float_hint) {
      as_is.set_float(id, *st.float_hint);
      at_least_two.set_float(id, *st.float_hint);
    } else if (st.oblivious_value) {
      any_oblivious = true;
      as_is.set(id, *st.oblivious_value);
      at_least_two.set(id, std::max<int64_t>(2, *st.oblivious_value));
    } else if (st.unbacked_value) {
      as_is.set(id, *st.unbacked_value);
      at_least_two.set(id, *st.unbacked_value);
    } else {
      return std::nullopt;
    }
  }
  if (!any_oblivious) return std::nullopt;
  std::optional<Scalar> a, b;
  try {
    a = try_evaluate(arena_, e, as_is);
    b = try_evaluate(arena_, e, at_least_two);
  } catch (const Error&) {
    return std::nullopt;  // overflow or division by zero at one of the points: undecided
  }
  if (!a || !b || a->kind != b->kind || a->i != b->i || a->f != b->f) return std::nullopt;
  switch (a->kind) {
    case Scalar::Kind::Int: return arena_.integer(a->i);
    case Scalar::Kind::Bool: return arena_.boolean(a->i != 0);
    case Scalar::Kind::Float: return arena_.floating(a->f);
  }
  return std::nullopt;
}

int64_t ShapeEnv::size_hint(ExprId e) {
  ExprId v = hint_value(e);
  if (arena_.kind(v) != ExprKind::Integer) throw_error(ErrorKind::Internal, "size_hint of a non-integer expression");
  return arena_.int_value(v);
}

}  // namespace symshape
