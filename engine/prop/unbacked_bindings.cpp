#include "prop/unbacked_bindings.h"

#include <fmt/format.h>

#include "expr/printer.h"

namespace symshape {

namespace {

const char* method_name(TensorMethod m) {
  switch (m) {
    case TensorMethod::Size: return "size";
    case TensorMethod::Stride: return "stride";
    case TensorMethod::StorageOffset: return "storage_offset";
  }
  return "size";
}

KeyPath extended(const KeyPath& prefix, KeyEntry e) {
  KeyPath p = prefix;
  p.push_back(e);
  return p;
}

KeyEntry seq(uint32_t i) { return KeyEntry{KeyKind::Sequence, TensorMethod::Size, i, ExprId()}; }
KeyEntry method(TensorMethod m) { return KeyEntry{KeyKind::CallMethod, m, 0, ExprId()}; }

// Every int/bool/float a result exposes, with its path: the candidates a runtime could
// read a symbol from.
struct Flat {
  std::vector<ExprId> values;
  std::vector<KeyPath> paths;
  void add(const KeyPath& p, ExprId v) {
    values.push_back(v);
    paths.push_back(p);
  }
};

void flatten(const ValueTable& vals, ValId v, const KeyPath& prefix, Flat& out) {
  switch (vals.kind(v)) {
    case ValKind::None: return;
    case ValKind::SymInt:
    case ValKind::SymBool:
    case ValKind::SymFloat: out.add(prefix, vals.as_expr(v)); return;
    case ValKind::Tensor: {
      const TensorId t = vals.as_tensor(v);
      const auto sizes = vals.sizes(t), strides = vals.strides(t);
      const KeyPath size_path = extended(prefix, method(TensorMethod::Size));
      for (uint32_t i = 0; i < sizes.size(); ++i) out.add(extended(size_path, seq(i)), sizes[i]);
      const KeyPath stride_path = extended(prefix, method(TensorMethod::Stride));
      for (uint32_t i = 0; i < strides.size(); ++i) out.add(extended(stride_path, seq(i)), strides[i]);
      out.add(extended(prefix, method(TensorMethod::StorageOffset)), vals.tensor(t).storage_offset);
      return;
    }
    case ValKind::List: {
      const auto items = vals.items(v);
      for (uint32_t i = 0; i < items.size(); ++i) flatten(vals, items[i], extended(prefix, seq(i)), out);
      return;
    }
  }
}

}  // namespace

std::string key_path_repr(const ExprArena& ar, const KeyPath& path) {
  std::string out = "(";
  for (size_t i = 0; i < path.size(); ++i) {
    const KeyEntry& e = path[i];
    if (i) out += ", ";
    switch (e.kind) {
      case KeyKind::Sequence: out += fmt::format("SequenceKey(idx={})", e.index); break;
      case KeyKind::CallMethod: out += fmt::format("CallMethodKey(name='{}')", method_name(e.method)); break;
      case KeyKind::DivideBy: out += fmt::format("DivideByKey(divisor={})", to_str(ar, e.divisor)); break;
      case KeyKind::ConvertInt: out += "ConvertIntKey()"; break;
    }
  }
  if (path.size() == 1) out += ",";  // a one-element Python tuple
  return out + ")";
}

std::string key_path_str(const ExprArena& ar, const KeyPath& path) {
  std::string out;
  for (const KeyEntry& e : path) {
    switch (e.kind) {
      case KeyKind::Sequence: out += fmt::format("[{}]", e.index); break;
      case KeyKind::CallMethod: out += fmt::format(".{}()", method_name(e.method)); break;
      case KeyKind::DivideBy: out += fmt::format(".__floordiv__({})", to_str(ar, e.divisor)); break;
      case KeyKind::ConvertInt: out += ".cast_symbool_to_symint_guardless()"; break;
    }
  }
  return out;
}

std::string unbacked_bindings_repr(const ExprArena& ar, std::span<const UnbackedBinding> bindings) {
  std::string out = "{";
  for (size_t i = 0; i < bindings.size(); ++i) {
    if (i) out += ", ";
    out += fmt::format("{}: {}", ar.symbol_name(bindings[i].symbol), key_path_repr(ar, bindings[i].path));
  }
  return out + "}";
}

void compute_unbacked_bindings(ShapeEnv& env, const ValueTable& vals, ValId result,
                               std::vector<UnbackedBinding>& out) {
  if (env.pending_fresh_unbacked_symbols().empty()) return;
  Flat flat;
  flatten(vals, result, KeyPath(), flat);
  // the env decides which candidate binds each symbol (bare, c*u, or Eq(u, 1))
  for (const ShapeEnv::UnbackedBinding& b : env.compute_unbacked_bindings(flat.values)) {
    UnbackedBinding ub{b.symbol, flat.paths[b.output]};
    if (b.kind == ShapeEnv::BindingKind::DivideByCoefficient)
      ub.path.push_back(KeyEntry{KeyKind::DivideBy, TensorMethod::Size, 0, b.coefficient});
    else if (b.kind == ShapeEnv::BindingKind::BoolToInt)
      ub.path.push_back(KeyEntry{KeyKind::ConvertInt, TensorMethod::Size, 0, ExprId()});
    out.push_back(ub);
  }
}

}  // namespace symshape
