// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Cartesian naming (the unified-interfaces paper by Träff, Hunold, Mercier and Holmes, section 3)
// as plain data (no MPI): ranks 0..size-1 named by their coordinates in a d-dimensional mesh or
// torus, row- or column-major. <cartcoll/naming.hpp> attaches one to a communicator.
#include <optional>
#include <span>
#include <vector>

#include "cartcoll/export.h"
#include "cartcoll/topology.hpp"

namespace cartcoll {

// How ranks run through the grid: row_major (MPI_ORDER_C, the last coordinate fastest, as
// MPI_Cart_create) or column_major (MPI_ORDER_FORTRAN, the first coordinate fastest).
enum class DimOrder { row_major, column_major };

class CARTCOLL_API CartesianNaming {
 public:
  // Error(Errc::dims) for d < 1, a non-positive dimension or more than INT_MAX processes.
  CartesianNaming(std::vector<int> dims, std::vector<bool> periods, DimOrder order);

  int ndims() const noexcept { return grid_.ndims(); }
  std::span<const int> dims() const noexcept { return grid_.dims(); }
  const std::vector<bool>& periods() const noexcept { return grid_.periods(); }
  DimOrder order() const noexcept { return order_; }
  // The grid whose row-major numbering is this naming's: the grid itself, reversed for column_major.
  const Grid& numbering() const noexcept { return numbering_; }
  int size() const noexcept { return grid_.size(); }
  bool has_name(int rank) const noexcept { return rank >= 0 && rank < size(); }

  // Coordinates are in the order of dims(), whatever the DimOrder. Error(Errc::rank) for a rank
  // without a name.
  std::vector<int> coordinates(int rank) const;
  // Periodic coordinates wrap (any integer); nullopt for a position off a non-periodic dimension.
  // Error(Errc::arg) unless there are ndims() coordinates.
  std::optional<int> rank(std::span<const int> coordinates) const;
  // The rank at coordinates(source) + sign * relative (sign +1 or -1); nullopt off the mesh or for a
  // source without a name.
  std::optional<int> relative_rank(int source, std::span<const int> relative, int sign = +1) const;
  // The vector v with relative_rank(source, v) == dest: dest's coordinates minus source's on a
  // non-periodic dimension; on a periodic one of size n the difference taken into (-n/2, n/2], so
  // that every source gets the same vector for the same offset. Error(Errc::rank) unless both have
  // names.
  std::vector<int> relative_coordinates(int source, int dest) const;
  // The sub-grid `rank` lies in when the dimensions with excluded[k] are left out of the grid (the
  // unified-interfaces paper, Listing 5): named by its first rank (coordinate 0 in every dimension
  // kept). Error(Errc::rank) for a rank without a name, Errc::arg unless excluded has ndims()
  // entries.
  int subgrid_of(int rank, const std::vector<bool>& excluded) const;

  friend bool operator==(const CartesianNaming&, const CartesianNaming&) = default;

 private:
  // Coordinates in the order of numbering_'s dimensions (reversed for column_major).
  std::vector<int> numbered(std::span<const int> coordinates) const;
  void require_name(int rank) const;

  Grid grid_;       // the dimensions as named
  Grid numbering_;  // grid_ whose row-major numbering is this naming's (its reversal for column_major)
  DimOrder order_;
};

}  // namespace cartcoll
