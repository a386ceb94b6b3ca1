// SPDX-License-Identifier: BSD-3-Clause
#include "cartcoll/error.hpp"
#include "cartcoll/topology.hpp"

#include <algorithm>
#include <limits>
#include <string>

namespace cartcoll {

Grid::Grid(std::vector<int> dims, std::vector<bool> periodic)
    : dims_(std::move(dims)), periodic_(std::move(periodic)) {
  if (dims_.empty()) throw Error(Errc::dims, "a grid needs at least one dimension");
  if (periodic_.size() != dims_.size()) throw Error(Errc::dims, "dims and periods differ in length");
  long long size = 1;
  for (int extent : dims_) {
    if (extent < 1) throw Error(Errc::dims, "dimension " + std::to_string(extent) + " is not positive");
    size *= extent;
    if (size > std::numeric_limits<int>::max()) throw Error(Errc::dims, "grid size overflows int");
  }
  size_ = static_cast<int>(size);
}

std::vector<int> balanced_extents(int size, int dims) {
  if (size < 1 || dims < 1) throw Error(Errc::dims, "a balanced grid needs a positive size and dimension count");
  std::vector<int> extents(static_cast<std::size_t>(dims), 1), primes;
  for (int n = size, f = 2; n > 1; f += f == 2 ? 1 : 2) {
    if (static_cast<long long>(f) * f > n) f = n;
    for (; n % f == 0; n /= f) primes.push_back(f);
  }
  std::sort(primes.rbegin(), primes.rend());
  for (int prime : primes) *std::min_element(extents.begin(), extents.end()) *= prime;
  std::sort(extents.rbegin(), extents.rend());
  return extents;
}

std::vector<int> Grid::coords_of(int rank) const {
  std::vector<int> coords(dims_.size());
  for (std::size_t k = dims_.size(); k-- > 0;) {
    coords[k] = rank % dims_[k];
    rank /= dims_[k];
  }
  return coords;
}

int Grid::rank_of(std::span<const int> coords) const {
  int rank = 0;
  for (std::size_t k = 0; k < dims_.size(); ++k) rank = rank * dims_[k] + coords[k];
  return rank;
}

std::optional<int> Grid::shift(std::span<const int> coords, std::span<const int> offset, int sign) const {
  int rank = 0;
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    // 64-bit so that offsets near INT_MAX cannot overflow before the modulo.
    long long c = static_cast<long long>(coords[k]) + static_cast<long long>(sign) * offset[k];
    if (periodic_[k]) {
      c %= dims_[k];
      if (c < 0) c += dims_[k];
    } else if (c < 0 || c >= dims_[k]) {
      return std::nullopt;
    }
    rank = rank * dims_[k] + static_cast<int>(c);
  }
  return rank;
}

Offsets::Offsets(int ndims, std::vector<int> flat) : ndims_(ndims), count_(0), flat_(std::move(flat)) {
  if (ndims_ < 1) throw Error(Errc::dims, "offsets need at least one dimension");
  if (flat_.size() % static_cast<std::size_t>(ndims_) != 0)
    throw Error(Errc::arg, "offset list length is not a multiple of the dimension count");
  count_ = static_cast<int>(flat_.size() / static_cast<std::size_t>(ndims_));
}

Offsets Offsets::from_list(int ndims, const std::vector<std::vector<int>>& list) {
  std::vector<int> flat;
  for (const auto& offset : list) {
    if (static_cast<int>(offset.size()) != ndims) throw Error(Errc::arg, "offset of wrong dimension");
    flat.insert(flat.end(), offset.begin(), offset.end());
  }
  return Offsets(ndims, std::move(flat));
}

bool Offsets::is_zero(int i) const {
  for (int c : (*this)[i])
    if (c != 0) return false;
  return true;
}

Peers peers_of(const Grid& grid, const Offsets& offsets, std::span<const int> coords) {
  if (offsets.ndims() != grid.ndims() || coords.size() != static_cast<std::size_t>(grid.ndims()))
    throw Error(Errc::arg, "offsets, coordinates and grid differ in dimension");
  Peers peers;
  peers.targets.reserve(static_cast<std::size_t>(offsets.count()));
  peers.sources.reserve(static_cast<std::size_t>(offsets.count()));
  for (int i = 0; i < offsets.count(); ++i) {
    peers.targets.push_back(grid.shift(coords, offsets[i], +1));
    peers.sources.push_back(grid.shift(coords, offsets[i], -1));
  }
  return peers;
}

Grid unwrapped_torus(const Offsets& offsets) {
  std::vector<int> dims(static_cast<std::size_t>(offsets.ndims()), 0);
  for (int i = 0; i < offsets.count(); ++i)
    for (int k = 0; k < offsets.ndims(); ++k) {
      const long long c = offsets[i][static_cast<std::size_t>(k)];
      const long long reach = c < 0 ? -c : c;
      if (reach > (std::numeric_limits<int>::max() - 1) / 2)
        throw Error(Errc::dims, "an offset coordinate is too large for a torus it does not wrap on");
      auto& dim = dims[static_cast<std::size_t>(k)];
      dim = std::max(dim, static_cast<int>(reach));
    }
  for (int& dim : dims) dim = 2 * dim + 1;
  return Grid(std::move(dims), std::vector<bool>(static_cast<std::size_t>(offsets.ndims()), true));
}

std::vector<int> middle_of(const Grid& grid) {
  std::vector<int> coords;
  for (int extent : grid.dims()) coords.push_back(extent / 2);
  return coords;
}

}  // namespace cartcoll
