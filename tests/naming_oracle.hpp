// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The oracle of the Cartesian naming tests (unit and MPI; MPI-free): the grid numbered by counting
// through it as an odometer does, and positions resolved by that table, never by the library's
// coordinate arithmetic.
#include <map>
#include <optional>
#include <vector>

namespace cartcoll::test {

using Coordinates = std::vector<int>;

struct NamedGrid {
  std::vector<int> dims;
  std::vector<bool> periods;
  bool row_major = true;  // MPI_ORDER_C: the last coordinate counts fastest; else the first
};

// Every position in rank order: the fastest coordinate counts up, carrying into the next.
inline std::vector<Coordinates> positions_in_rank_order(const NamedGrid& grid) {
  const std::size_t d = grid.dims.size();
  std::vector<Coordinates> positions;
  Coordinates at(d, 0);
  for (;;) {
    positions.push_back(at);
    std::size_t k = 0;
    for (; k < d; ++k) {
      const std::size_t digit = grid.row_major ? d - 1 - k : k;
      if (++at[digit] < grid.dims[digit]) break;
      at[digit] = 0;
    }
    if (k == d) return positions;
  }
}

// The rank at any integer position: periodic coordinates wrap, others must lie on the grid.
class RankTable {
 public:
  explicit RankTable(const NamedGrid& grid) : grid_(grid), positions_(positions_in_rank_order(grid)) {
    for (std::size_t rank = 0; rank < positions_.size(); ++rank) rank_of_.emplace(positions_[rank], static_cast<int>(rank));
  }
  int size() const { return static_cast<int>(positions_.size()); }
  const Coordinates& position(int rank) const { return positions_.at(static_cast<std::size_t>(rank)); }
  std::optional<int> rank(Coordinates at) const {
    for (std::size_t k = 0; k < at.size(); ++k) {
      const int n = grid_.dims[k];
      if (grid_.periods[k]) at[k] = ((at[k] % n) + n) % n;
      else if (at[k] < 0 || at[k] >= n) return std::nullopt;
    }
    return rank_of_.at(at);
  }
  // position(source) + sign * v, resolved.
  std::optional<int> relative(int source, const Coordinates& v, int sign = +1) const {
    Coordinates at = position(source);
    for (std::size_t k = 0; k < at.size(); ++k) at[k] += sign * v[k];
    return rank(at);
  }

 private:
  NamedGrid grid_;
  std::vector<Coordinates> positions_;
  std::map<Coordinates, int> rank_of_;
};

// All vectors with coordinates in [-reach[k], reach[k]], first coordinate slowest.
inline std::vector<Coordinates> vectors_within(const std::vector<int>& reach) {
  std::vector<Coordinates> vectors{{}};
  for (int r : reach) {
    std::vector<Coordinates> longer;
    for (const Coordinates& v : vectors)
      for (int c = -r; c <= r; ++c) {
        longer.push_back(v);
        longer.back().push_back(c);
      }
    vectors = std::move(longer);
  }
  return vectors;
}

}  // namespace cartcoll::test
