// Argument kinds accepted per schema type follow what torch.ops' argument parser takes:
// a Python number where a Tensor is expected (wrapped into a 0-dim tensor, as the
// corpus's `aten.mul.Tensor(x, 0.125)`), an int where a float or Scalar is expected, a bool where an int is expected (Python's
// bool is an int), a single int for a fixed-size int list (`int[2] stride=1`), a node
// reference for any value a node can produce.
#include "prop/schema_check.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "graph/validate.h"
#include "prop/op_schema.h"
#include "prop/rules.h"

namespace symshape {
namespace {

class Checker {
 public:
  Checker(const Graph& g, std::string_view file, Diagnostics& diags) : g_(g), file_(file), diags_(diags) {}

  void check_node(NodeId n) {
    const std::string_view target = g_.node_target(n);
    const OpSchema* schema = find_op_schema(target);
    if (!RuleTable::is_supported(target) || schema == nullptr) {
      add(GraphErrc::UnsupportedOp, n, "target", fmt::format("unsupported op '{}': no shape rule in symshape", target));
      return;
    }
    const std::span<const ArgId> args = g_.node_args(n);
    std::vector<uint8_t> given(schema->args.size(), 0);
    if (args.size() > schema->num_positional)
      add(GraphErrc::TooManyArgs, n, fmt::format("args[{}]", schema->num_positional),
          fmt::format("{}() takes {} positional argument(s) but {} were given", target, schema->num_positional, args.size()));
    for (size_t i = 0; i < args.size() && i < schema->num_positional; ++i) {
      given[i] = 1;
      check_kind(n, schema->args[i], args[i], fmt::format("args[{}]", i), target);
    }
    for (const Kwarg& kw : g_.node_kwargs(n)) {
      const std::string_view key = g_.ops().key_name(kw.key);
      const std::string field = fmt::format("kwargs.{}", key);
      size_t k = 0;
      while (k < schema->args.size() && schema->args[k].name != key) ++k;
      if (k == schema->args.size()) {
        add(GraphErrc::UnknownKwarg, n, field, fmt::format("{}() got an unexpected keyword argument '{}'", target, key));
        continue;
      }
      if (given[k]) {
        add(GraphErrc::DuplicateArg, n, field, fmt::format("{}() got multiple values for argument '{}'", target, key));
        continue;
      }
      given[k] = 1;
      check_kind(n, schema->args[k], kw.value, field, target);
    }
    for (size_t k = 0; k < schema->args.size(); ++k) {
      const SchemaArg& a = schema->args[k];
      if (given[k] || a.has_default) continue;
      const std::string field = a.kwarg_only ? fmt::format("kwargs.{}", a.name) : fmt::format("args[{}]", k);
      add(GraphErrc::MissingArg, n, field, fmt::format("{}() missing required argument '{}' ({})", target, a.name, schema_type_name(a.type)));
    }
  }

 private:
  // What a referenced node produces: placeholders and get_attr are tensors; call_function
  // nodes as their goldens recorded (unknown when no example ran).
  std::optional<ValueKind> node_value_kind(NodeId ref) const {
    switch (g_.node_kind(ref)) {
      case NodeKind::Placeholder:
      case NodeKind::GetAttr: return ValueKind::Tensor;
      default: return g_.node_output_kind(ref);
    }
  }

  // A node reference is accepted unless its recorded value is of another kind.
  bool node_fits(ArgId a, std::initializer_list<ValueKind> ok) const {
    const std::optional<ValueKind> k = node_value_kind(g_.arg_node(a));
    if (!k || *k == ValueKind::Null) return true;
    for (ValueKind v : ok)
      if (*k == v) return true;
    return false;
  }

  bool scalar_fits(SchemaType t, ArgId a) const {
    const ArgKind k = g_.arg_kind(a);
    switch (t) {
      case SchemaType::Tensor:  // torch.ops wraps a Python number into a 0-dim tensor
        return k == ArgKind::Int || k == ArgKind::Float || k == ArgKind::Bool ||
               (k == ArgKind::Node && node_fits(a, {ValueKind::Tensor, ValueKind::Int, ValueKind::Float, ValueKind::Bool}));
      case SchemaType::Int:
        return k == ArgKind::Int || k == ArgKind::Bool || (k == ArgKind::Node && node_fits(a, {ValueKind::Int, ValueKind::Bool}));
      case SchemaType::Float:
        return k == ArgKind::Float || k == ArgKind::Int || k == ArgKind::Bool ||
               (k == ArgKind::Node && node_fits(a, {ValueKind::Float, ValueKind::Int, ValueKind::Bool}));
      case SchemaType::Bool: return k == ArgKind::Bool || (k == ArgKind::Node && node_fits(a, {ValueKind::Bool}));
      case SchemaType::Scalar:
        return k == ArgKind::Int || k == ArgKind::Float || k == ArgKind::Bool ||
               (k == ArgKind::Node && node_fits(a, {ValueKind::Int, ValueKind::Float, ValueKind::Bool}));
      case SchemaType::ScalarType: return k == ArgKind::DType;
      case SchemaType::Layout: return k == ArgKind::Layout;
      case SchemaType::Device: return k == ArgKind::Device || k == ArgKind::String;
      case SchemaType::MemoryFormat: return k == ArgKind::MemoryFormat;
      case SchemaType::String: return k == ArgKind::String;
      case SchemaType::Generator: return false;  // only None, handled by the caller
      default: return true;
    }
  }

  static SchemaType element_type(SchemaType list) {
    switch (list) {
      case SchemaType::TensorList:
      case SchemaType::OptionalTensorList: return SchemaType::Tensor;
      case SchemaType::IntList: return SchemaType::Int;
      case SchemaType::FloatList: return SchemaType::Float;
      case SchemaType::BoolList: return SchemaType::Bool;
      default: return SchemaType::Any;
    }
  }

  void check_kind(NodeId n, const SchemaArg& s, ArgId a, const std::string& field, std::string_view target) {
    if (s.type == SchemaType::Any) return;
    const ArgKind k = g_.arg_kind(a);
    if (k == ArgKind::None) {
      if (!s.optional) mismatch(n, s, a, field, target);
      return;
    }
    const SchemaType elem = element_type(s.type);
    if (elem == SchemaType::Any) {  // a scalar type
      if (!scalar_fits(s.type, a)) mismatch(n, s, a, field, target);
      return;
    }
    if (k == ArgKind::Node) {  // a list produced by a node (split, a size list)
      if (!node_fits(a, {ValueKind::List, ValueKind::Tensor})) mismatch(n, s, a, field, target);
      return;
    }
    if (k != ArgKind::List) {
      // `int[2] stride=1`: a single int stands for the whole list.
      if (!(s.fixed_size > 0 && s.type == SchemaType::IntList && scalar_fits(SchemaType::Int, a))) mismatch(n, s, a, field, target);
      return;
    }
    const std::span<const ArgId> items = g_.list_items(a);
    for (size_t i = 0; i < items.size(); ++i) {
      const bool none_ok = s.type == SchemaType::OptionalTensorList && g_.arg_kind(items[i]) == ArgKind::None;
      if (!none_ok && !scalar_fits(elem, items[i])) {
        add(GraphErrc::ArgKind, n, fmt::format("{}[{}]", field, i),
            fmt::format("{}(): argument '{}' ({}) got an item of kind {}", target, s.name, type_text(s), describe(items[i])));
        return;
      }
    }
  }

  static std::string type_text(const SchemaArg& s) {
    std::string t(schema_type_name(s.type));
    if (s.fixed_size && s.type == SchemaType::IntList) t = fmt::format("int[{}]", s.fixed_size);
    return s.optional ? t + "?" : t;
  }

  std::string describe(ArgId a) const {
    if (g_.arg_kind(a) != ArgKind::Node) return std::string(arg_kind_name(g_.arg_kind(a)));
    const NodeId ref = g_.arg_node(a);
    const std::optional<ValueKind> k = node_value_kind(ref);
    return fmt::format("node '{}' ({})", g_.node_name(ref), k ? value_kind_name(*k) : std::string_view("unknown"));
  }

  void mismatch(NodeId n, const SchemaArg& s, ArgId a, const std::string& field, std::string_view target) {
    add(GraphErrc::ArgKind, n, field,
        fmt::format("{}(): argument '{}' must be {}, not {}", target, s.name, type_text(s), describe(a)));
  }

  void add(GraphErrc code, NodeId n, std::string field, std::string message) {
    if (added_ == kMaxDiagnosticsPerGraph) return;
    Diagnostic d;
    d.file = std::string(file_);
    d.graph = std::string(g_.name());
    if (++added_ == kMaxDiagnosticsPerGraph) {
      d.code = GraphErrc::Limit;
      d.message = fmt::format("{} or more op problems; stopping", kMaxDiagnosticsPerGraph);
    } else {
      d.code = code;
      d.node = n.index();
      d.node_name = std::string(g_.node_name(n));
      d.field = std::move(field);
      d.message = std::move(message);
    }
    diags_.add(std::move(d));
  }

  const Graph& g_;
  std::string_view file_;
  Diagnostics& diags_;
  size_t added_ = 0;
};

}  // namespace

bool check_op_schemas(const Graph& g, std::string_view file, Diagnostics& diags) {
  const size_t before = diags.size();
  Checker c(g, file, diags);
  for (uint32_t i = 0; i < g.num_nodes(); ++i)
    if (g.node_kind(NodeId(i)) == NodeKind::CallFunction) c.check_node(NodeId(i));
  return diags.size() == before;
}

}  // namespace symshape
