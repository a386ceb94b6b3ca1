// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The process grid and the neighborhood, as plain data (no MPI).
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cartcoll/export.h"

namespace cartcoll {

// A d-dimensional mesh or torus; ranks are numbered in row-major order, as MPI_Cart_create does.
class CARTCOLL_API Grid {
 public:
  // Throws Error(Errc::dims) for d < 1, a non-positive dimension, or a size that overflows int.
  Grid(std::vector<int> dims, std::vector<bool> periodic);

  int ndims() const noexcept { return static_cast<int>(dims_.size()); }
  std::span<const int> dims() const noexcept { return dims_; }
  bool periodic(int dim) const { return periodic_[static_cast<std::size_t>(dim)]; }
  const std::vector<bool>& periods() const noexcept { return periodic_; }
  int size() const noexcept { return size_; }

  std::vector<int> coords_of(int rank) const;
  int rank_of(std::span<const int> coords) const;
  // The rank at coords + sign * offset, or nullopt where that leaves a non-periodic dimension.
  std::optional<int> shift(std::span<const int> coords, std::span<const int> offset, int sign) const;

  friend bool operator==(const Grid&, const Grid&) = default;

 private:
  std::vector<int> dims_;
  std::vector<bool> periodic_;
  int size_ = 1;
};

// The shared list of t relative offsets, each of d coordinates. Order matters: block i goes to offset i.
class CARTCOLL_API Offsets {
 public:
  Offsets(int ndims, std::vector<int> flat);  // flat.size() must be a multiple of ndims
  static Offsets from_list(int ndims, const std::vector<std::vector<int>>& list);

  int ndims() const noexcept { return ndims_; }
  int count() const noexcept { return count_; }
  std::span<const int> operator[](int i) const {
    return {flat_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(ndims_),
            static_cast<std::size_t>(ndims_)};
  }
  std::span<const int> flat() const noexcept { return flat_; }
  bool is_zero(int i) const;

  friend bool operator==(const Offsets&, const Offsets&) = default;

 private:
  int ndims_;
  int count_;
  std::vector<int> flat_;
};

// Where a process's t blocks go and come from: target i = R + offset i, source i = R - offset i.
struct Peers {
  std::vector<std::optional<int>> targets;
  std::vector<std::optional<int>> sources;
};
CARTCOLL_API Peers peers_of(const Grid& grid, const Offsets& offsets, std::span<const int> coords);

// The torus on which no offset wraps: 2 * max_i |offset_i[k]| + 1 processes in dimension k. There
// every process has the same neighborhood as on an unbounded grid, so one process's schedule has
// the neighborhood's figures. Error(Errc::dims) where it would have more than INT_MAX processes.
CARTCOLL_API Grid unwrapped_torus(const Offsets& offsets);
// A balanced factorization of `size` (at least 1) into `dims` (at least 1) extents, largest first:
// MPI_Dims_create's answer with no dimension given.
CARTCOLL_API std::vector<int> balanced_extents(int size, int dims);
// The coordinates of the middle process (dims[k] / 2 in every dimension).
CARTCOLL_API std::vector<int> middle_of(const Grid& grid);

}  // namespace cartcoll
