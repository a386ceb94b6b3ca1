// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Draws from a seeded generator that come out the same with every standard library (the
// distributions of <random> are implementation-defined), so every process of a benchmark, built
// anywhere, draws the same graph.
#include <cstdint>
#include <random>

namespace cartcoll::graphs {

// A uniform double in [0, 1) from the generator's bits.
inline double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// A uniform integer in [0, n) (rejection of the biased tail).
inline std::uint64_t below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;)
    if (const std::uint64_t x = rng(); x < limit) return x % n;
}

}  // namespace cartcoll::graphs
