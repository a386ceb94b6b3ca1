// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A call's arguments as a fixed-size print, by which a repeated blocking v or w call is recognized.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

namespace cartcoll {

// The arguments of a v or w call flattened into a fixed buffer: the collective, every buffer address,
// count, displacement and datatype handle, and the arrays' lengths. Equal prints on the same
// communicator make equal layouts, so a blocking call repeated with equal arguments skips building
// its layout, as RegularArguments do for alltoall and allgather. A call with more values than fit
// is not complete() and builds its layout every time. Lives on the stack: no allocation.
class ArgumentPrint {
 public:
  static constexpr std::size_t capacity = 512;
  enum class Form { allgatherv, allgatherw, alltoallv, alltoallw };

  explicit ArgumentPrint(Form form) { add(static_cast<int>(form)); }
  ArgumentPrint(const ArgumentPrint& other) noexcept : size_(other.size_), complete_(other.complete_) {
    std::copy_n(other.values_.begin(), size_, values_.begin());
  }
  ArgumentPrint& operator=(const ArgumentPrint&) = delete;
  template <typename T>
  ArgumentPrint& add(T value) noexcept {
    if (size_ == capacity) {
      complete_ = false;
      return *this;
    }
    values_[size_++] = as_value(value);
    return *this;
  }
  template <typename T>
  ArgumentPrint& add(std::span<const T> values) noexcept {
    add(values.size());
    if (values.size() > capacity - size_) {  // what does not fit makes the print incomplete
      for (const T& value : values) add(value);
      return *this;
    }
    for (const T& value : values) values_[size_++] = as_value(value);  // fits: no check per value
    return *this;
  }
  bool complete() const noexcept { return complete_; }
  std::span<const std::intptr_t> values() const noexcept { return {values_.data(), size_}; }

 private:
  template <typename T>
  static std::intptr_t as_value(T value) noexcept {
    if constexpr (std::is_pointer_v<T>) return reinterpret_cast<std::intptr_t>(value);
    else return static_cast<std::intptr_t>(value);
  }

  std::array<std::intptr_t, capacity> values_;  // only the first size_ are set
  std::size_t size_ = 0;
  bool complete_ = true;
};

}  // namespace cartcoll
