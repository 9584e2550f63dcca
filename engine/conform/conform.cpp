#include "conform/conform.h"

#include <fmt/core.h>

#include <cmath>

#include "conform/specialization.h"
#include "expr/printer.h"

namespace symshape {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Correct: return "correct";
    case Outcome::Mismatch: return "mismatch";
    case Outcome::Rejected: return "rejected";
    case Outcome::Unsound: return "unsound";
    case Outcome::ValueError: return "value_error";
    case Outcome::Unsupported: return "unsupported";
  }
  return "?";
}

namespace {

// Compares propagated values with one example's goldens. Unbacked symbols take their
// value from the first golden value they appear in (as a bare size, int, bool or float — an
// item() of a floating tensor is an unbacked float); later uses must agree.
class GoldenComparer {
 public:
  GoldenComparer(const Graph& g, const Specialization& s, Bindings& b)
      : g_(g), vals_(s.prop->values()), ar_(s.env->arena()), b_(b) {}

  // Returns "" when equal, else a description of the first difference.
  std::string compare(ValId v, ValueId gold) {
    const ValueKind gk = g_.value_kind(gold);
    if (gk == ValueKind::Null) return "";
    if (!v.valid()) return "no value";
    const ValKind k = vals_.kind(v);
    switch (gk) {
      case ValueKind::Tensor: {
        if (k != ValKind::Tensor) return "expected a tensor";
        const TensorId t = vals_.as_tensor(v);
        auto shape = g_.value_shape(gold);
        auto stride = g_.value_stride(gold);
        auto sizes = vals_.sizes(t);
        auto strides = vals_.strides(t);
        if (sizes.size() != shape.size())
          return fmt::format("rank {} vs golden rank {}", sizes.size(), shape.size());
        for (size_t i = 0; i < shape.size(); ++i)
          if (!match(sizes[i], shape[i]))
            return fmt::format("size[{}] = {} ({}) vs golden {}", i, value_str(sizes[i]), to_str(ar_, sizes[i]), shape[i]);
        for (size_t i = 0; i < stride.size() && i < strides.size(); ++i)
          if (!match(strides[i], stride[i]))
            return fmt::format("stride[{}] = {} ({}) vs golden {} (shape {})", i, value_str(strides[i]),
                               to_str(ar_, strides[i]), stride[i], shape_text(shape));
        if (vals_.dtype(t) != g_.value_dtype(gold))
          return fmt::format("dtype {} vs golden {}", dtype_name(vals_.dtype(t)), dtype_name(g_.value_dtype(gold)));
        return "";
      }
      case ValueKind::Int:
        if (k != ValKind::SymInt) return "expected an int";
        return match(vals_.as_expr(v), g_.value_int(gold))
                   ? ""
                   : fmt::format("int {} vs golden {}", value_str(vals_.as_expr(v)), g_.value_int(gold));
      case ValueKind::Bool:
        if (k != ValKind::SymBool) return "expected a bool";
        return match_bool(vals_.as_expr(v), g_.value_bool(gold)) ? "" : "bool differs";
      case ValueKind::Float: {
        if (k != ValKind::SymFloat && k != ValKind::SymInt) return "expected a float";
        const ExprId e = vals_.as_expr(v);
        if (ar_.kind(e) == ExprKind::Symbol && !b_.has(ar_.symbol_id(e))) {
          b_.set_float(ar_.symbol_id(e), g_.value_float(gold));  // first appearance of an unbacked float
          return "";
        }
        auto r = try_evaluate(ar_, e, b_);
        if (!r) return "float not evaluable";
        const double x = r->as_double(), y = g_.value_float(gold);
        return std::fabs(x - y) <= 1e-9 * std::max(1.0, std::fabs(y)) ? ""
                                                                     : fmt::format("float {} vs golden {}", x, y);
      }
      case ValueKind::List: {
        if (k != ValKind::List) return "expected a list";
        auto items = vals_.items(v);
        auto golds = g_.value_items(gold);
        if (items.size() != golds.size()) return fmt::format("list of {} vs golden {}", items.size(), golds.size());
        for (size_t i = 0; i < items.size(); ++i) {
          std::string d = compare(items[i], golds[i]);
          if (!d.empty()) return fmt::format("[{}]: {}", i, d);
        }
        return "";
      }
      default: return "";
    }
  }

 private:
  bool match(ExprId e, int64_t golden) {
    if (ar_.kind(e) == ExprKind::Symbol && !b_.has(ar_.symbol_id(e))) {
      b_.set(ar_.symbol_id(e), golden);  // first appearance of an unbacked symbol
      return true;
    }
    try {
      auto r = try_evaluate(ar_, e, b_);
      if (!r) return false;
      return r->kind == Scalar::Kind::Float ? r->f == static_cast<double>(golden) : r->i == golden;
    } catch (const Error&) {
      return false;
    }
  }
  // An unbacked SymBool (item() of a bool tensor) is Eq(u, 1) over an int symbol u in [0, 1]
  // (semantics.md A.2): its first golden binds u.
  bool match_bool(ExprId e, bool golden) {
    if (ar_.kind(e) == ExprKind::Eq) {
      auto ops = ar_.operands(e);
      for (size_t i = 0; i < 2 && ops.size() == 2; ++i) {
        const ExprId sym = ops[i], one = ops[1 - i];
        if (ar_.kind(sym) == ExprKind::Symbol && !b_.has(ar_.symbol_id(sym)) && ar_.is_integer_const(one) &&
            ar_.int_value(one) == 1) {
          b_.set(ar_.symbol_id(sym), golden ? 1 : 0);
          return true;
        }
      }
    }
    return match(e, golden ? 1 : 0);
  }
  std::string value_str(ExprId e) {
    try {
      auto r = try_evaluate(ar_, e, b_);
      return r ? std::to_string(r->i) : "?";
    } catch (const Error& err) {
      return err.what();
    }
  }
  static std::string shape_text(std::span<const int64_t> s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
  }

  const Graph& g_;
  const ValueTable& vals_;
  const ExprArena& ar_;
  Bindings& b_;
};

}  // namespace

GraphResult conform_graph(const Graph& graph, const RuleTable& rules, InputPolicy inputs) {
  GraphResult res;
  res.graph = std::string(graph.name());
  res.loaded = true;
  SpecializationCache cache(graph, rules);
  cache.set_input_policy(inputs);
  const bool spec_bounds_inputs = inputs != InputPolicy::Static;
  std::vector<std::span<const int64_t>> sizes(graph.num_placeholders());
  for (uint32_t e = 0; e < graph.num_examples(); ++e) {
    const ExampleView ex = graph.example(ExampleId(e));
    for (uint32_t p = 0; p < graph.num_placeholders(); ++p) sizes[p] = ex.input_sizes(PlaceholderId(p));
    ExampleResult r;
    std::optional<uint32_t> spec = cache.find(sizes);
    if (!spec) {
      PropStatus st;
      spec = cache.add(sizes, e, st);
      if (!spec) {
        r.detail = st.message;
        if (st.kind == ErrorKind::Unsupported || st.kind == ErrorKind::BadInput || st.kind == ErrorKind::Internal) {
          // the engine cannot run this graph: an engine failure, not a shape verdict
          if (st.kind == ErrorKind::Unsupported) {
            res.unsupported = true;
            res.error = st.message;
          }
          r.outcome = st.kind == ErrorKind::Unsupported ? Outcome::Unsupported : Outcome::Rejected;
          res.examples.push_back(std::move(r));
          continue;
        }
      }
    }
    if (!spec) {
      // the engine rejects this example
      if (spec_bounds_inputs && !ex.in_spec()) r.outcome = Outcome::Correct;
      else if (!ex.ok() && ex.error_kind() == ExampleErrorKind::Shape) r.outcome = Outcome::Correct;
      else if (!ex.ok() && ex.error_kind() == ExampleErrorKind::Value) r.outcome = Outcome::ValueError;
      else r.outcome = Outcome::Rejected;
      res.examples.push_back(std::move(r));
      continue;
    }
    r.engine_accepted = true;
    r.specialization = static_cast<int32_t>(*spec);
    if (spec_bounds_inputs && !ex.in_spec()) {
      r.outcome = Outcome::Unsound;
      r.detail = "accepted an example outside the spec";
    } else if (!ex.ok() && ex.error_kind() == ExampleErrorKind::Shape) {
      r.outcome = Outcome::Unsound;
      r.detail = fmt::format("accepted an example PyTorch rejected: {}", ex.error());
    } else if (!ex.ok()) {
      r.outcome = Outcome::ValueError;
    } else {
      Specialization& s = cache.at(*spec);
      Bindings b;
      cache.bind(s, sizes, b);
      GoldenComparer cmp(graph, s, b);
      r.outcome = Outcome::Correct;
      for (uint32_t i = 0; i < graph.num_nodes(); ++i) {
        const NodeId n(i);
        const ValueId gold = ex.golden(n);
        if (!gold.valid()) continue;
        std::string d = cmp.compare(s.prop->node_values()[i], gold);
        if (!d.empty()) {
          r.outcome = Outcome::Mismatch;
          r.detail = fmt::format("{} ({}): {}", graph.node_name(n), graph.node_target(n), d);
          break;
        }
      }
    }
    res.examples.push_back(std::move(r));
  }
  res.specializations = static_cast<uint32_t>(cache.size());
  return res;
}

}  // namespace symshape
