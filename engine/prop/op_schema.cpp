// Parses PyTorch schema strings ("aten.x.y(Tensor self, int[2] stride=1, *, bool? f=None) -> Tensor")
// into flat SchemaArg tables, once, and indexes them by target.
#include "prop/op_schema.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

namespace symshape {
namespace {

constexpr std::string_view kSchemaText[] = {
#include "prop/op_schemas.inc"
#include "prop/op_schemas_extra.inc"
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Splits "a, b=[1, 2], c=\"x,y\"" at the commas that are outside brackets and quotes.
std::vector<std::string_view> split_args(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"' || c == '\'') quoted = !quoted;
    if (quoted) continue;
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty()) out.push_back(trim(s.substr(start)));
  return out;
}

// "Tensor(a!)" -> "Tensor": alias annotations do not change what is accepted.
std::string strip_alias(std::string_view t) {
  std::string out;
  int depth = 0;
  for (char c : t) {
    if (c == '(') ++depth;
    else if (c == ')') --depth;
    else if (depth == 0) out.push_back(c);
  }
  return out;
}

SchemaArg parse_arg(std::string_view text) {
  SchemaArg a;
  const size_t eq = text.find('=');
  if (eq != std::string_view::npos) {
    a.has_default = true;
    text = trim(text.substr(0, eq));
  }
  const size_t sp = text.rfind(' ');
  a.name = text.substr(sp + 1);
  std::string type = strip_alias(text.substr(0, sp));
  if (!type.empty() && type.back() == '?') {
    a.optional = true;
    type.pop_back();
  }
  bool list = false;
  if (!type.empty() && type.back() == ']') {
    const size_t open = type.rfind('[');
    const std::string n = type.substr(open + 1, type.size() - open - 2);
    if (!n.empty()) a.fixed_size = uint8_t(std::stoi(n));
    type.resize(open);
    list = true;
  }
  const bool elem_optional = !type.empty() && type.back() == '?';
  if (elem_optional) type.pop_back();
  if (type == "Tensor") a.type = list ? (elem_optional ? SchemaType::OptionalTensorList : SchemaType::TensorList) : SchemaType::Tensor;
  else if (type == "int" || type == "SymInt") a.type = list ? SchemaType::IntList : SchemaType::Int;
  else if (type == "float") a.type = list ? SchemaType::FloatList : SchemaType::Float;
  else if (type == "bool") a.type = list ? SchemaType::BoolList : SchemaType::Bool;
  else if (list) a.type = SchemaType::Any;
  else if (type == "Scalar") a.type = SchemaType::Scalar;
  else if (type == "ScalarType") a.type = SchemaType::ScalarType;
  else if (type == "Layout") a.type = SchemaType::Layout;
  else if (type == "Device") a.type = SchemaType::Device;
  else if (type == "MemoryFormat") a.type = SchemaType::MemoryFormat;
  else if (type == "str") a.type = SchemaType::String;
  else if (type == "Generator") a.type = SchemaType::Generator;
  else a.type = SchemaType::Any;
  return a;
}

struct SchemaTable {
  std::vector<SchemaArg> args;
  std::vector<OpSchema> schemas;
  std::unordered_map<std::string_view, uint32_t> by_target;

  SchemaTable() {
    std::vector<std::pair<uint32_t, uint32_t>> spans;  // into args, fixed up after growth
    for (std::string_view text : kSchemaText) {
      const size_t open = text.find('(');
      const size_t close = text.rfind(") ->");
      OpSchema s;
      s.target = text.substr(0, open);
      const uint32_t first = uint32_t(args.size());
      bool kwarg_only = false;
      for (std::string_view part : split_args(text.substr(open + 1, close - open - 1))) {
        if (part == "*") {
          kwarg_only = true;
          continue;
        }
        SchemaArg a = parse_arg(part);
        const size_t alias = part.find("Tensor(");
        if (alias != std::string_view::npos) {
          const size_t end = part.find(')', alias);
          if (part.substr(alias, end - alias).find('!') == std::string_view::npos) s.is_view = true;
        }
        a.kwarg_only = kwarg_only;
        if (!kwarg_only) ++s.num_positional;
        args.push_back(a);
      }
      spans.emplace_back(first, uint32_t(args.size()) - first);
      by_target.emplace(s.target, uint32_t(schemas.size()));
      schemas.push_back(s);
    }
    for (size_t i = 0; i < schemas.size(); ++i)
      schemas[i].args = std::span<const SchemaArg>(args.data() + spans[i].first, spans[i].second);
  }
};

const SchemaTable& table() {
  static const SchemaTable t;
  return t;
}

}  // namespace

std::string_view schema_type_name(SchemaType t) {
  switch (t) {
    case SchemaType::Tensor: return "Tensor";
    case SchemaType::TensorList: return "Tensor[]";
    case SchemaType::OptionalTensorList: return "Tensor?[]";
    case SchemaType::Int: return "int";
    case SchemaType::IntList: return "int[]";
    case SchemaType::Float: return "float";
    case SchemaType::FloatList: return "float[]";
    case SchemaType::Bool: return "bool";
    case SchemaType::BoolList: return "bool[]";
    case SchemaType::Scalar: return "Scalar";
    case SchemaType::ScalarType: return "ScalarType";
    case SchemaType::Layout: return "Layout";
    case SchemaType::Device: return "Device";
    case SchemaType::MemoryFormat: return "MemoryFormat";
    case SchemaType::String: return "str";
    case SchemaType::Generator: return "Generator";
    case SchemaType::Any: return "Any";
  }
  return "?";
}

const OpSchema* find_op_schema(std::string_view target) {
  const SchemaTable& t = table();
  auto it = t.by_target.find(target);
  return it == t.by_target.end() ? nullptr : &t.schemas[it->second];
}

size_t op_schema_count() { return table().schemas.size(); }

}  // namespace symshape
