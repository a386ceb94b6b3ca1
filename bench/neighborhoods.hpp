#pragma once
// The papers' test neighborhoods as flat offset lists.
#include <algorithm>
#include <cstdlib>
#include <vector>

namespace bench {

// All vectors with coordinates first..first+n-1 in each of d dimensions (000's test neighborhoods);
// without the zero vector unless keep_zero.
inline std::vector<int> box(int d, int n, int first, bool keep_zero) {
  std::vector<int> flat;
  int total = 1;
  for (int k = 0; k < d; ++k) total *= n;
  for (int index = 0; index < total; ++index) {
    std::vector<int> offset;
    bool zero = true;
    for (int k = 0, rest = index; k < d; ++k, rest /= n) {
      offset.insert(offset.begin(), first + rest % n);
      zero = zero && offset.front() == 0;
    }
    if (!zero || keep_zero) flat.insert(flat.end(), offset.begin(), offset.end());
  }
  return flat;
}

// Chebyshev ball of radius r without the zero vector (the Moore neighborhood).
inline std::vector<int> moore(int d, int r) { return box(d, 2 * r + 1, -r, false); }

// Manhattan ball of radius r without the zero vector.
inline std::vector<int> von_neumann(int d, int r) {
  const std::vector<int> all = moore(d, r);
  std::vector<int> flat;
  for (std::size_t i = 0; i < all.size(); i += static_cast<std::size_t>(d)) {
    int norm = 0;
    for (int k = 0; k < d; ++k) norm += std::abs(all[i + static_cast<std::size_t>(k)]);
    if (norm <= r) flat.insert(flat.end(), all.begin() + static_cast<long>(i), all.begin() + static_cast<long>(i) + d);
  }
  return flat;
}

// The positive octant: all vectors with coordinates 0..r, without the zero vector (002's asymmetric test).
inline std::vector<int> octant(int d, int r) { return box(d, r + 1, 0, false); }

// "Shales" (002 Figure 4(b)): the Moore shells at Chebyshev distance exactly r1 and exactly r2.
inline std::vector<int> shales(int d, int r1, int r2) {
  const int r = std::max(r1, r2);
  const std::vector<int> all = moore(d, r);
  std::vector<int> flat;
  for (std::size_t i = 0; i < all.size(); i += static_cast<std::size_t>(d)) {
    int norm = 0;
    for (int k = 0; k < d; ++k) norm = std::max(norm, std::abs(all[i + static_cast<std::size_t>(k)]));
    if (norm == r1 || norm == r2)
      flat.insert(flat.end(), all.begin() + static_cast<long>(i), all.begin() + static_cast<long>(i) + d);
  }
  return flat;
}

// The 2d unit vectors in MPI's Cartesian neighbor order: -e0, +e0, -e1, +e1, ...
inline std::vector<int> cartesian_axes(int d) {
  std::vector<int> flat;
  for (int k = 0; k < d; ++k)
    for (int sign : {-1, 1})
      for (int j = 0; j < d; ++j) flat.push_back(j == k ? sign : 0);
  return flat;
}

}  // namespace bench
