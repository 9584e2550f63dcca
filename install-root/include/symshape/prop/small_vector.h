#pragma once
// A fixed-capacity vector on the stack: shapes, strides and dim lists of one op rule
// never touch the heap. Exceeding the capacity is an error, not a reallocation.
#include <array>
#include <cstddef>
#include <span>

#include "core/error.h"

namespace symshape {

template <class T, size_t N>
class FixedVector {
 public:
  FixedVector() = default;
  FixedVector(std::span<const T> init) { assign(init); }
  void push_back(const T& v) {
    if (size_ == N) throw_error(ErrorKind::Unsupported, "tensor rank or list length exceeds the engine's fixed capacity");
    data_[size_++] = v;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void resize(size_t n, const T& v = T()) {
    if (n > N) throw_error(ErrorKind::Unsupported, "tensor rank or list length exceeds the engine's fixed capacity");
    for (size_t i = size_; i < n; ++i) data_[i] = v;
    size_ = n;
  }
  void assign(std::span<const T> v) {
    resize(v.size());
    for (size_t i = 0; i < v.size(); ++i) data_[i] = v[i];
  }
  void insert(size_t pos, const T& v) {
    push_back(v);
    for (size_t i = size_ - 1; i > pos; --i) data_[i] = data_[i - 1];
    data_[pos] = v;
  }
  void erase(size_t pos) {
    for (size_t i = pos; i + 1 < size_; ++i) data_[i] = data_[i + 1];
    --size_;
  }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_.data(); }
  T* end() { return data_.data() + size_; }
  const T* begin() const { return data_.data(); }
  const T* end() const { return data_.data() + size_; }
  operator std::span<const T>() const { return {data_.data(), size_}; }
  std::span<const T> span() const { return {data_.data(), size_}; }

 private:
  std::array<T, N> data_{};
  size_t size_ = 0;
};

}  // namespace symshape
