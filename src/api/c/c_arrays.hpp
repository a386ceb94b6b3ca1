// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Reading and writing the C layers' arrays and output pointers.
#include <algorithm>
#include <string>
#include <vector>

#include "cartcoll/error.hpp"

namespace cartcoll::capi {

inline void require(const void* pointer, const char* what) {
  if (pointer == nullptr) throw Error(Errc::arg, std::string(what) + " is NULL");
}

template <typename T>
std::vector<T> copy_of(const T* values, std::size_t count, const char* what) {
  if (count > 0) require(values, what);
  return count == 0 ? std::vector<T>() : std::vector<T>(values, values + count);
}

// The first min(max, values.size()) values, as MPI's queries with a max argument write them.
template <typename T>
void fill(const std::vector<T>& values, int max, T* into) {
  std::copy_n(values.begin(), std::min<std::size_t>(values.size(), static_cast<std::size_t>(std::max(max, 0))), into);
}

}  // namespace cartcoll::capi
