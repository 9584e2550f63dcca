#pragma once
// A PyTorch release as a graph's producer names it (FORMAT.md's producer object, `torch`):
// where the eager kernels of two releases give different layouts for the same inputs, the
// rules follow the graph's own release (docs/torchref.md, "Eager layouts").
#include <compare>
#include <string_view>

namespace symshape {

struct TorchVersion {
  int major = 0;
  int minor = 0;

  // false for {0, 0}: the producer names no release
  constexpr bool named() const { return major > 0; }
  friend constexpr auto operator<=>(const TorchVersion&, const TorchVersion&) = default;
};

// The newest release whose eager layouts symshape reproduces (the models venv's 2.14): what a
// graph that names no release is checked against.
inline constexpr TorchVersion kNewestTorch{2, 14};

// "1.13.0a0" -> {1, 13}, "2.14.1+cu130" -> {2, 14}, "2" -> {2, 0}, "10.0" -> {10, 0};
// {0, 0} when the text does not start with a number.
constexpr TorchVersion parse_torch_version(std::string_view text) {
  TorchVersion v;
  size_t i = 0;
  auto number = [&](int& out) {
    const size_t start = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && out < 100000; ++i) out = out * 10 + (text[i] - '0');
    return i > start;
  };
  if (!number(v.major)) return {};
  if (i < text.size() && text[i] == '.') {
    ++i;
    number(v.minor);
  }
  return v;
}

}  // namespace symshape
