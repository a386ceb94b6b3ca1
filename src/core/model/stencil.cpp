// SPDX-License-Identifier: BSD-3-Clause
#include "cartcoll/stencil.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cartcoll/error.hpp"

namespace cartcoll {

namespace {

// Balls are counted up to 2^62 and no further. Spheres never shrink as the radius grows, so the
// shell shadow..depth holds at least ball(depth) / (depth + 1) > 2^62 / 2^31 > INT_MAX offsets once
// ball(depth) reaches that: saturating there never hides a size that fits in an int.
constexpr std::uint64_t saturated = std::uint64_t{1} << 62;

std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product) || product > saturated) return saturated;
  return product;
}

// C(n, k) from C(n, k - 1): exact below the saturation (the product is a multiple of k).
std::uint64_t next_binomial(std::uint64_t previous, std::uint64_t n, std::uint64_t k) {
  __extension__ using Wide = unsigned __int128;  // previous < 2^62 times n < 2^32 fits
  if (previous >= saturated) return saturated;
  const Wide value = static_cast<Wide>(previous) * (n - k + 1) / k;
  return value >= saturated ? saturated : static_cast<std::uint64_t>(value);
}

// The offsets at distance <= radius. Manhattan: 2^k C(d, k) C(r, k) of them have exactly k non-zero
// coordinates (which ones, their signs, and their absolute values: k parts >= 1 summing to <= r).
std::uint64_t ball(const NeighborhoodShape& shape, int radius) {
  if (radius <= 0) return radius == 0 ? 1 : 0;  // the zero vector alone, whatever d
  const auto d = static_cast<std::uint64_t>(shape.ndims), r = static_cast<std::uint64_t>(radius);
  std::uint64_t points = 1;
  if (shape.metric == Metric::chebyshev) {
    for (std::uint64_t k = 0; k < d && points < saturated; ++k) points = times(points, 2 * r + 1);
    return points;
  }
  std::uint64_t choose_d = 1, choose_r = 1, signs = 1;
  for (std::uint64_t k = 1; k <= std::min(d, r) && points < saturated; ++k) {
    choose_d = next_binomial(choose_d, d, k);
    choose_r = next_binomial(choose_r, r, k);
    signs = times(signs, 2);
    points = std::min(saturated, points + times(times(signs, choose_d), choose_r));
  }
  return points;
}

void check(const NeighborhoodShape& shape) {
  if (shape.ndims < 1) throw Error(Errc::dims, "a neighborhood needs at least one dimension");
  if (shape.shadow < 0 || shape.depth < 0) throw Error(Errc::arg, "shadow and depth must not be negative");
  if (shape.metric != Metric::manhattan && shape.metric != Metric::chebyshev)
    throw Error(Errc::arg, "unknown metric");
}

// Walks the box [-depth, depth]^d in lexicographic order, entering only prefixes that some kept
// offset extends (iteratively: d may be large). The work is proportional to the offsets listed and
// the prefixes inside the ball, each times d.
class Lister {
 public:
  Lister(const NeighborhoodShape& shape, std::size_t wanted)
      : shape_(shape), wanted_(wanted), offset_(static_cast<std::size_t>(shape.ndims)), spent_(offset_.size(), 0) {
    flat_.reserve(wanted * offset_.size());
  }

  std::vector<int> run() && {
    if (wanted_ == 0) return {};
    const std::size_t last = offset_.size() - 1;
    lowest_from(0);
    while (list_last()) {
      // The next prefix: raise the deepest coordinate before the last one that can still grow.
      std::size_t k = last;
      while (k > 0 && offset_[k - 1] == reach(spent_[k - 1])) --k;
      if (k == 0) break;
      ++offset_[k - 1];
      spent_[k] = extend(spent_[k - 1], offset_[k - 1]);
      lowest_from(k);
    }
    return std::move(flat_);
  }

 private:
  bool manhattan() const { return shape_.metric == Metric::manhattan; }
  // How far the next coordinate may go after a prefix at distance `spent`.
  long long reach(long long spent) const { return manhattan() ? shape_.depth - spent : shape_.depth; }
  long long extend(long long spent, long long c) const {
    const long long size = c < 0 ? -c : c;
    return manhattan() ? spent + size : std::max(spent, size);
  }

  // Coordinates k..d-2 at their lowest values; spent_[j] is the distance of offset_[0..j).
  void lowest_from(std::size_t k) {
    for (; k + 1 < offset_.size(); ++k) {
      offset_[k] = static_cast<int>(-reach(spent_[k]));
      spent_[k + 1] = extend(spent_[k], offset_[k]);
    }
  }

  // Lists the offsets of the current prefix: the last coordinate takes every value that brings the
  // offset out of the shadow, |c| >= low. False once enough offsets are listed.
  bool list_last() {
    const long long spent = spent_.back(), high = reach(spent);
    long long low = 0;
    if (manhattan()) low = std::max(0LL, shape_.shadow - spent);
    else if (spent < shape_.shadow) low = shape_.shadow;
    for (long long c = -high; c <= -std::max(low, 1LL); ++c)
      if (!keep(c)) return false;
    if (low == 0 && !keep(0)) return false;
    for (long long c = std::max(low, 1LL); c <= high; ++c)
      if (!keep(c)) return false;
    return true;
  }

  bool keep(long long c) {
    offset_.back() = static_cast<int>(c);
    flat_.insert(flat_.end(), offset_.begin(), offset_.end());
    return flat_.size() < wanted_ * offset_.size();
  }

  const NeighborhoodShape& shape_;
  const std::size_t wanted_;
  std::vector<int> offset_;
  std::vector<long long> spent_;
  std::vector<int> flat_;
};

}  // namespace

int neighborhood_size(const NeighborhoodShape& shape) {
  check(shape);
  if (shape.shadow > shape.depth) return 0;
  const std::uint64_t outer = ball(shape, shape.depth), inner = ball(shape, shape.shadow - 1);
  if (outer >= saturated || outer - inner > static_cast<std::uint64_t>(INT_MAX))
    throw Error(Errc::arg, "the neighborhood has more than INT_MAX offsets");
  return static_cast<int>(outer - inner);
}

Offsets neighborhood_offsets(const NeighborhoodShape& shape, int max_count) {
  if (max_count < 0) throw Error(Errc::arg, "max_count must not be negative");
  const int wanted = std::min(neighborhood_size(shape), max_count);
  return Offsets(shape.ndims, Lister(shape, static_cast<std::size_t>(wanted)).run());
}

}  // namespace cartcoll
