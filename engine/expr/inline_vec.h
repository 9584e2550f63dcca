#pragma once
// A vector with inline storage for the first N elements: the builders' scratch lists
// (terms of a sum, factors of a product) almost always fit, so building a node does not
// allocate. Builders recurse into each other, which rules out shared thread-local scratch.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>

namespace symshape {

template <class T, size_t N>
class InlineVec {
  static_assert(std::is_trivially_destructible_v<T> && std::is_default_constructible_v<T>);

 public:
  InlineVec() = default;
  InlineVec(std::span<const T> init) { assign(init.begin(), init.end()); }
  InlineVec(const InlineVec&) = delete;
  InlineVec& operator=(const InlineVec&) = delete;

  template <class It>
  void assign(It first, It last) {
    clear();
    for (; first != last; ++first) push_back(*first);
  }
  void push_back(const T& v) {
    if (size_ == cap_) grow();
    data_[size_++] = v;
  }
  template <class... Args>
  void emplace_back(Args&&... args) {
    push_back(T{std::forward<Args>(args)...});
  }
  void insert_front(const T& v) {
    if (size_ == cap_) grow();
    std::move_backward(data_, data_ + size_, data_ + size_ + 1);
    data_[0] = v;
    ++size_;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void resize(size_t n) {
    while (cap_ < n) grow();
    for (size_t i = size_; i < n; ++i) data_[i] = T{};
    size_ = n;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  operator std::span<const T>() const { return {data_, size_}; }

 private:
  [[gnu::noinline, gnu::cold]] void grow() {  // rare; out of line also keeps GCC 12's -Warray-bounds quiet
    const size_t cap = cap_ * 2;
    auto bigger = std::make_unique<T[]>(cap);
    std::copy(data_, data_ + size_, bigger.get());
    heap_ = std::move(bigger);
    data_ = heap_.get();
    cap_ = cap;
  }

  T inline_[N];
  T* data_ = inline_;
  size_t size_ = 0, cap_ = N;
  std::unique_ptr<T[]> heap_;
};

}  // namespace symshape
