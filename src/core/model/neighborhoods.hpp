// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The papers' test neighborhoods as flat offset lists (d coordinates per offset), in lexicographic
// order (last coordinate fastest). MPI-free and header-only: the library's tools, the benchmark and
// the tests all generate their neighborhoods here.
#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>

namespace cartcoll::neighborhoods {

// All vectors whose coordinate k lies in ranges[k] = {low, high}; without the zero vector unless
// keep_zero.
inline std::vector<int> box(const std::vector<std::pair<int, int>>& ranges, bool keep_zero) {
  const std::size_t d = ranges.size();
  std::vector<int> flat, v(d);
  for (std::size_t k = 0; k < d; ++k) v[k] = ranges[k].first;
  for (bool more = d > 0; more;) {
    if (keep_zero || std::any_of(v.begin(), v.end(), [](int c) { return c != 0; })) flat.insert(flat.end(), v.begin(), v.end());
    more = false;
    for (std::size_t k = d; k-- > 0;) {  // the next vector: the last coordinate counts fastest
      if (v[k] < ranges[k].second) {
        ++v[k];
        more = true;
        break;
      }
      v[k] = ranges[k].first;
    }
  }
  return flat;
}

// All vectors with coordinates first..first+n-1 in each of d dimensions (Träff and Hunold's
// (Cartesian Collective Communication) test neighborhoods); without the zero vector unless
// keep_zero.
inline std::vector<int> box(int d, int n, int first, bool keep_zero) {
  return box(std::vector<std::pair<int, int>>(static_cast<std::size_t>(d), {first, first + n - 1}), keep_zero);
}

// The offsets of `all` (flat, d per offset) for which keep(offset) holds.
template <typename Keep>
std::vector<int> filter(const std::vector<int>& all, int d, Keep keep) {
  std::vector<int> flat;
  for (std::size_t i = 0; i < all.size(); i += static_cast<std::size_t>(d)) {
    const auto first = all.begin() + static_cast<long>(i), last = first + d;
    if (keep(std::vector<int>(first, last))) flat.insert(flat.end(), first, last);
  }
  return flat;
}

inline int norm1(const std::vector<int>& offset) {
  int norm = 0;
  for (int c : offset) norm += std::abs(c);
  return norm;
}

inline int norm_max(const std::vector<int>& offset) {
  int norm = 0;
  for (int c : offset) norm = std::max(norm, std::abs(c));
  return norm;
}

// Chebyshev ball of radius r without the zero vector (the Moore neighborhood).
inline std::vector<int> moore(int d, int r) { return box(d, 2 * r + 1, -r, false); }

// Manhattan ball of radius r without the zero vector (the von Neumann neighborhood).
inline std::vector<int> von_neumann(int d, int r) {
  return filter(moore(d, r), d, [r](const std::vector<int>& offset) { return norm1(offset) <= r; });
}

// The positive octant: all vectors with coordinates 0..r, without the zero vector (the
// isomorphic-collectives paper's (Träff, Carpen-Amarie, Hunold and Rougier) asymmetric test).
inline std::vector<int> octant(int d, int r) { return box(d, r + 1, 0, false); }

// "Shales" (the isomorphic-collectives paper, Figure 4(b)): the Moore shells at Chebyshev distance
// exactly r1 and exactly r2.
inline std::vector<int> shales(int d, int r1, int r2) {
  return filter(moore(d, std::max(r1, r2)), d, [r1, r2](const std::vector<int>& offset) {
    const int norm = norm_max(offset);
    return norm == r1 || norm == r2;
  });
}

// The 2d unit vectors in MPI's Cartesian neighbor order: -e0, +e0, -e1, +e1, ...
inline std::vector<int> cartesian_axes(int d) {
  std::vector<int> flat;
  for (int k = 0; k < d; ++k)
    for (int sign : {-1, 1})
      for (int j = 0; j < d; ++j) flat.push_back(j == k ? sign : 0);
  return flat;
}

}  // namespace cartcoll::neighborhoods
