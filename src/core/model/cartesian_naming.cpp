// SPDX-License-Identifier: BSD-3-Clause
#include "cartcoll/cartesian_naming.hpp"

#include <algorithm>
#include <string>

#include "cartesian_detection.hpp"
#include "cartcoll/error.hpp"

namespace cartcoll {

namespace {

// Grid numbers ranks row-major; the column-major numbering of a grid is the row-major one of the
// grid with its dimensions reversed.
Grid numbering_of(const Grid& grid, DimOrder order) {
  if (order == DimOrder::row_major) return grid;
  return Grid(std::vector<int>(grid.dims().rbegin(), grid.dims().rend()),
              std::vector<bool>(grid.periods().rbegin(), grid.periods().rend()));
}

void require_length(std::span<const int> vector, int ndims, const char* what) {
  if (vector.size() != static_cast<std::size_t>(ndims))
    throw Error(Errc::arg, std::string(what) + " has " + std::to_string(vector.size()) + " entries, the naming " +
                               std::to_string(ndims) + " dimensions");
}

}  // namespace

CartesianNaming::CartesianNaming(std::vector<int> dims, std::vector<bool> periods, DimOrder order)
    : grid_(std::move(dims), std::move(periods)), numbering_(numbering_of(grid_, order)), order_(order) {}

std::vector<int> CartesianNaming::numbered(std::span<const int> coordinates) const {
  std::vector<int> result(coordinates.begin(), coordinates.end());
  if (order_ == DimOrder::column_major) std::reverse(result.begin(), result.end());
  return result;
}

void CartesianNaming::require_name(int rank) const {
  if (!has_name(rank))
    throw Error(Errc::rank, "rank " + std::to_string(rank) + " has no name in a grid of " + std::to_string(size()));
}

std::vector<int> CartesianNaming::coordinates(int rank) const {
  require_name(rank);
  return numbered(numbering_.coords_of(rank));  // reversing twice is the identity
}

std::optional<int> CartesianNaming::rank(std::span<const int> coordinates) const {
  require_length(coordinates, ndims(), "coordinates");
  const std::vector<int> origin(static_cast<std::size_t>(ndims()), 0);
  return numbering_.shift(origin, numbered(coordinates), +1);
}

std::optional<int> CartesianNaming::relative_rank(int source, std::span<const int> relative, int sign) const {
  require_length(relative, ndims(), "relative");
  if (!has_name(source)) return std::nullopt;
  return numbering_.shift(numbering_.coords_of(source), numbered(relative), sign);
}

std::vector<int> CartesianNaming::relative_coordinates(int source, int dest) const {
  return relative_offset(grid_, coordinates(source), coordinates(dest));
}

int CartesianNaming::subgrid_of(int rank, const std::vector<bool>& excluded) const {
  if (excluded.size() != static_cast<std::size_t>(ndims()))
    throw Error(Errc::arg, "one flag per dimension is needed to form sub-grids");
  std::vector<int> first = coordinates(rank);
  for (std::size_t k = 0; k < first.size(); ++k)
    if (!excluded[k]) first[k] = 0;
  return *this->rank(first);
}

}  // namespace cartcoll
