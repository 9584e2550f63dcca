// Op rules cache the KeyId of a kwarg name per OpTable. A table destroyed and another built
// at the same address (here: the same std::optional storage, so the address is certain)
// must not hand the new graph the old table's KeyIds: with keys interned in another order,
// div's rounding_mode would be read from the wrong kwarg and an integer floor division
// would come out float32 (found through the Python bindings, one table per graph).
#include <fmt/core.h>

#include <optional>

#include "prop_harness.h"

namespace symshape::test {
namespace {

TEST(OpTableReuse, KwargKeysAreNotTakenFromATableThatLivedAtTheSameAddress) {
  std::optional<PropHarness> h;
  for (int round = 0; round < 2; ++round) {
    // interns `alpha` before `rounding_mode`: rounding_mode gets KeyId 1
    h.emplace();
    h->input("x", "int64", {2, 3}).input("y", "int64", {2, 3});
    h->call("s", "aten.add.Tensor", fmt::format("[{}, {}]", N("x"), N("y")), R"({"alpha": 2})");
    h->call("d", "aten.div.Tensor_mode", fmt::format("[{}, {}]", N("s"), N("y")), R"({"rounding_mode": "floor"})");
    ASSERT_TRUE(h->run()) << h->error();
    EXPECT_EQ(h->dtype("d"), DType::Int64);
    const void* first = &*h;
    h.reset();

    // the same storage: rounding_mode is now KeyId 0
    h.emplace();
    ASSERT_EQ(static_cast<const void*>(&*h), first);
    h->input("x", "int64", {2, 3}).input("y", "int64", {2, 3});
    h->call("d", "aten.div.Tensor_mode", fmt::format("[{}, {}]", N("x"), N("y")), R"({"rounding_mode": "floor"})");
    ASSERT_TRUE(h->run()) << h->error();
    EXPECT_EQ(h->dtype("d"), DType::Int64);
    h.reset();
  }
}

}  // namespace
}  // namespace symshape::test
