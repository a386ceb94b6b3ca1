// SPDX-License-Identifier: BSD-3-Clause
#include "neighborhoods.hpp"

#include <random>

#include "core/model/neighborhoods.hpp"

namespace support {

namespace {

std::vector<int> prime_factors(int p) {
  std::vector<int> factors;
  for (int f = 2; f * f <= p; ++f)
    while (p % f == 0) {
      factors.push_back(f);
      p /= f;
    }
  if (p > 1) factors.push_back(p);
  return factors;
}

// Spreads p's prime factors over d dimensions, round robin from the last, leaving 1s elsewhere.
std::vector<int> spread(int p, int d) {
  std::vector<int> dims(static_cast<std::size_t>(d), 1);
  const auto factors = prime_factors(p);
  for (std::size_t f = 0; f < factors.size(); ++f) dims[static_cast<std::size_t>(d - 1) - f % static_cast<std::size_t>(d)] *= factors[f];
  return dims;
}

std::vector<bool> pattern(int d, int kind) {
  std::vector<bool> periods(static_cast<std::size_t>(d));
  for (int k = 0; k < d; ++k) periods[static_cast<std::size_t>(k)] = kind == 0 ? true : kind == 1 ? false : k % 2 == 0;
  return periods;
}

}  // namespace

std::vector<cartcoll::Grid> grids_for(int p) {
  std::vector<cartcoll::Grid> grids;
  grids.emplace_back(std::vector<int>{p}, pattern(1, 0));
  grids.emplace_back(std::vector<int>{p}, pattern(1, 1));
  for (int d = 2; d <= 5; ++d) grids.emplace_back(spread(p, d), pattern(d, d % 3));
  grids.emplace_back(std::vector<int>{1, p}, pattern(2, 0));
  if (p % 2 == 0) grids.emplace_back(std::vector<int>{2, p / 2}, pattern(2, 0));
  if (p > 1) grids.emplace_back(std::vector<int>{p - 1}, pattern(1, 1));
  return grids;
}

std::vector<cartcoll::Offsets> offsets_for(int d, unsigned seed) {
  std::vector<cartcoll::Offsets> lists;
  lists.emplace_back(d, cartcoll::neighborhoods::cartesian_axes(d));
  // Moore radius 1 without the zero offset, or {-1,0}^d with it.
  lists.emplace_back(d, d <= 3 ? cartcoll::neighborhoods::moore(d, 1) : cartcoll::neighborhoods::box(d, 2, -1, true));
  if (d <= 3) lists.emplace_back(d, cartcoll::neighborhoods::octant(d, 1));

  std::mt19937 random(seed);
  std::uniform_int_distribution<int> coordinate(-3, 3), count(2, 8);
  std::vector<int> mixed(static_cast<std::size_t>(d), 0);  // the zero offset first
  const int t = count(random);
  for (int i = 1; i < t; ++i)
    for (int k = 0; k < d; ++k) mixed.push_back(coordinate(random));
  const std::vector<int> last(mixed.end() - d, mixed.end());
  mixed.insert(mixed.end(), last.begin(), last.end());  // a repeated offset last
  lists.emplace_back(d, mixed);

  lists.emplace_back(d, std::vector<int>{});
  return lists;
}

}  // namespace support
