// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The median of a sample: the library's measurements and the benchmark's statistics use this one.
#include <algorithm>
#include <span>
#include <stdexcept>
#include <vector>

namespace cartcoll::detail {

// The mean of the middle two for an even count.
inline double median(std::span<const double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  std::vector<double> sorted(values.begin(), values.end());
  const std::size_t middle = sorted.size() / 2;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(middle), sorted.end());
  const double upper = sorted[middle];
  if (sorted.size() % 2 != 0) return upper;
  return (*std::max_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(middle)) + upper) / 2;
}

}  // namespace cartcoll::detail
