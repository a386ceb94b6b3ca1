// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Which forwarded blocks are live on a mesh, answered in O(1) after O(t*d) set-up.
//
// A block on its way from origin Y to target Y + N[i] is needed only if both exist. Every process
// on a dimension-ordered path between them exists too (each of its coordinates is Y's or Y+N's),
// so liveness is a question about Y and Y + N[i] alone, and both ends of a message can answer it.
#include <span>
#include <vector>

#include "cartcoll/topology.hpp"

namespace cartcoll::detail {

class MeshReach {
 public:
  // Dimensions are visited in `order` (a permutation of 0..d-1).
  MeshReach(const Grid& grid, const Offsets& offsets, std::span<const int> coords, std::span<const int> order);

  // This process minus offset i's coordinates in the first `level` visited dimensions exists.
  bool prefix_back(int i, int level) const { return at(prefix_back_, i, level); }
  // This process plus offset i's coordinates in the visited dimensions from `level` on exists.
  bool suffix_ahead(int i, int level) const { return at(suffix_ahead_, i, level); }
  // coords[dim] + delta is inside dimension dim (always true on a periodic one).
  bool in_range(int dim, long long delta) const;
  bool all_periodic() const noexcept { return all_periodic_; }

 private:
  bool at(const std::vector<char>& table, int i, int level) const {
    return table[static_cast<std::size_t>(i) * static_cast<std::size_t>(levels_) + static_cast<std::size_t>(level)] != 0;
  }
  const Grid& grid_;
  std::span<const int> coords_;
  int levels_;
  bool all_periodic_;
  std::vector<char> prefix_back_, suffix_ahead_;  // t x (d+1)
};

inline constexpr int no_peer = -1;

// The rank at coords + delta along dimension dim, or no_peer outside a non-periodic dimension.
int neighbor_along(const Grid& grid, std::span<const int> coords, int dim, int delta);

}  // namespace cartcoll::detail
