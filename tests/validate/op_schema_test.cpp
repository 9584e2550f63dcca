// The schema table parses PyTorch's schema strings into the argument facts validate uses.
#include <gtest/gtest.h>

#include "prop/op_schema.h"
#include "prop/rules.h"

namespace symshape {
namespace {

TEST(OpSchema, Conv2dHasSevenPositionalArgumentsWithDefaults) {
  const OpSchema* s = find_op_schema("aten.conv2d.default");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->args.size(), 7u);
  EXPECT_EQ(s->num_positional, 7u);
  EXPECT_EQ(s->args[0].name, "input");
  EXPECT_EQ(s->args[0].type, SchemaType::Tensor);
  EXPECT_FALSE(s->args[0].has_default);
  EXPECT_EQ(s->args[2].name, "bias");
  EXPECT_TRUE(s->args[2].optional);
  EXPECT_EQ(s->args[3].name, "stride");
  EXPECT_EQ(s->args[3].type, SchemaType::IntList);
  EXPECT_EQ(s->args[3].fixed_size, 2);
  EXPECT_TRUE(s->args[3].has_default);
  EXPECT_EQ(s->args[6].type, SchemaType::Int);
}

TEST(OpSchema, KeywordOnlyArgumentsFollowTheStar) {
  const OpSchema* s = find_op_schema("aten.gelu.default");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->num_positional, 1u);
  ASSERT_EQ(s->args.size(), 2u);
  EXPECT_EQ(s->args[1].name, "approximate");
  EXPECT_TRUE(s->args[1].kwarg_only);
  EXPECT_EQ(s->args[1].type, SchemaType::String);
}

TEST(OpSchema, OptionalTensorListsAndAliasAnnotations) {
  const OpSchema* idx = find_op_schema("aten.index.Tensor");
  ASSERT_NE(idx, nullptr);
  EXPECT_EQ(idx->args[1].type, SchemaType::OptionalTensorList);
  const OpSchema* view = find_op_schema("aten.view.default");  // Tensor(a) self
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->args[0].type, SchemaType::Tensor);
  EXPECT_EQ(view->args[1].type, SchemaType::IntList);
}

TEST(OpSchema, EverySupportedTargetHasASchema) {
  for (std::string_view t : RuleTable::supported_targets()) EXPECT_NE(find_op_schema(t), nullptr) << "no schema for " << t;
}

TEST(OpSchema, UnknownTargetHasNone) { EXPECT_EQ(find_op_schema("os.system"), nullptr); }

}  // namespace
}  // namespace symshape
