// SPDX-License-Identifier: BSD-3-Clause
#include "mesh_reach.hpp"

#include "core/model/schedule.hpp"

namespace cartcoll::detail {

MeshReach::MeshReach(const Grid& grid, const Offsets& offsets, std::span<const int> coords, std::span<const int> order)
    : grid_(grid), coords_(coords), levels_(grid.ndims() + 1), all_periodic_(true) {
  const int d = grid.ndims(), t = offsets.count();
  for (int k = 0; k < d; ++k) all_periodic_ = all_periodic_ && grid.periodic(k);
  prefix_back_.assign(static_cast<std::size_t>(t) * static_cast<std::size_t>(levels_), 1);
  suffix_ahead_ = prefix_back_;
  if (all_periodic_) return;
  for (int i = 0; i < t; ++i) {
    const auto row = static_cast<std::size_t>(i) * static_cast<std::size_t>(levels_);
    for (int level = 0; level < d; ++level) {
      const int dim = order[static_cast<std::size_t>(level)];
      prefix_back_[row + static_cast<std::size_t>(level) + 1] =
          prefix_back_[row + static_cast<std::size_t>(level)] && in_range(dim, -static_cast<long long>(offsets[i][static_cast<std::size_t>(dim)]));
    }
    for (int level = d - 1; level >= 0; --level) {
      const int dim = order[static_cast<std::size_t>(level)];
      suffix_ahead_[row + static_cast<std::size_t>(level)] =
          suffix_ahead_[row + static_cast<std::size_t>(level) + 1] && in_range(dim, offsets[i][static_cast<std::size_t>(dim)]);
    }
  }
}

bool MeshReach::in_range(int dim, long long delta) const {
  if (grid_.periodic(dim)) return true;
  const long long c = coords_[static_cast<std::size_t>(dim)] + delta;
  return c >= 0 && c < grid_.dims()[static_cast<std::size_t>(dim)];
}

int neighbor_along(const Grid& grid, std::span<const int> coords, int dim, int delta) {
  std::vector<int> offset(static_cast<std::size_t>(grid.ndims()), 0);
  offset[static_cast<std::size_t>(dim)] = delta;
  const auto rank = grid.shift(coords, offset, +1);
  return rank ? *rank : no_peer;
}

}  // namespace cartcoll::detail
