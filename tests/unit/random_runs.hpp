// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Random send blocks given as byte runs, for the tests of the analysis of shared bytes and of the
// planner that moves them: vector-like (strided runs), indexed-like (scattered runs) and struct-like
// (runs out of address order) blocks, overlapping each other, at negative addresses too; no block
// holds a byte twice.
#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "core/model/shared_sends.hpp"

namespace cartcoll::test {

using Runs = std::vector<ByteRun>;

// t blocks of up to `runs` runs each (of up to 3 bytes, some empty) in [-span/2, span/2 + 3 runs).
inline std::vector<Runs> random_runs(std::mt19937_64& rng, int t, std::int64_t span, int runs = 6) {
  std::vector<Runs> blocks(static_cast<std::size_t>(t));
  for (Runs& block : blocks) {
    std::set<std::int64_t> used;
    const int kind = static_cast<int>(rng() % 3), count = static_cast<int>(rng() % static_cast<unsigned>(runs));
    const std::int64_t stride = 2 + static_cast<std::int64_t>(rng() % 5);
    const std::int64_t start = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span)) - span / 2;
    for (int r = 0; r < count; ++r) {
      const auto length = static_cast<std::int64_t>(rng() % 4);
      const std::int64_t at =
          kind == 0 ? start + r * stride : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(span)) - span / 2;
      bool free = true;
      for (std::int64_t b = at; b < at + length; ++b) free = free && used.count(b) == 0;
      if (!free) continue;
      for (std::int64_t b = at; b < at + length; ++b) used.insert(b);
      block.push_back({at, length});
    }
    if (kind == 2) std::shuffle(block.begin(), block.end(), rng);
  }
  return blocks;
}

}  // namespace cartcoll::test
