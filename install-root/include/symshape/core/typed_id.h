#pragma once
// Typed 32-bit ids: an index into one SoA table, distinct per table so ids of
// different tables cannot be mixed up. The all-ones value means "none".
#include <cstdint>
#include <functional>

namespace symshape {

template <class Tag>
struct TypedId {
  static constexpr uint32_t kNone = 0xffffffffu;
  uint32_t value = kNone;

  constexpr TypedId() = default;
  constexpr explicit TypedId(uint32_t v) : value(v) {}
  constexpr bool valid() const { return value != kNone; }
  constexpr explicit operator bool() const { return valid(); }
  constexpr uint32_t index() const { return value; }
  friend constexpr bool operator==(TypedId a, TypedId b) { return a.value == b.value; }
  friend constexpr auto operator<=>(TypedId a, TypedId b) { return a.value <=> b.value; }
};

}  // namespace symshape

template <class Tag>
struct std::hash<symshape::TypedId<Tag>> {
  size_t operator()(symshape::TypedId<Tag> id) const noexcept { return std::hash<uint32_t>{}(id.value); }
};
