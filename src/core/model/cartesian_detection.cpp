// SPDX-License-Identifier: BSD-3-Clause
#include "cartesian_detection.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>
#include <optional>
#include <vector>

#include "cartcoll/error.hpp"

namespace cartcoll {

namespace {

// The move c along a periodic dimension of n processes, as the one in (-n/2, n/2] that reaches the
// same process.
int wrapped(int c, int n) {
  c = ((c % n) + n) % n;
  return c > n / 2 ? c - n : c;
}

}  // namespace

std::vector<int> relative_offset(const Grid& grid, std::span<const int> from, std::span<const int> to) {
  std::vector<int> relative(to.begin(), to.end());
  for (int k = 0; k < grid.ndims(); ++k) {
    const auto at = static_cast<std::size_t>(k);
    relative[at] -= from[at];
    if (grid.periodic(k)) relative[at] = wrapped(relative[at], grid.dims()[at]);
  }
  return relative;
}

namespace {

// The offsets from `rank` to each of `ranks`, flat; nullopt for a rank not on the grid.
std::optional<std::vector<int>> offsets_to(const Grid& grid, int rank, std::span<const int> ranks) {
  const std::vector<int> here = grid.coords_of(rank);
  std::vector<int> flat;
  flat.reserve(ranks.size() * here.size());
  for (int other : ranks) {
    if (other < 0 || other >= grid.size()) return std::nullopt;
    const std::vector<int> offset = relative_offset(grid, here, grid.coords_of(other));
    flat.insert(flat.end(), offset.begin(), offset.end());
  }
  return flat;
}

// Each slot's key (the offset to its neighbor, nullopt off the mesh) paired with the user's blocks of
// the same key: within a key, the k-th slot with the k-th block. nullopt unless every block and
// every slot with a neighbor find a partner.
std::optional<std::vector<int>> pair_in_order(const std::vector<std::optional<std::vector<int>>>& slot_keys,
                                              std::span<const int> user_flat, std::size_t d) {
  std::map<std::vector<int>, std::vector<int>> blocks_by_key;
  for (std::size_t u = 0; d > 0 && u < user_flat.size() / d; ++u)
    blocks_by_key[std::vector<int>(user_flat.begin() + static_cast<std::ptrdiff_t>(u * d),
                                   user_flat.begin() + static_cast<std::ptrdiff_t>((u + 1) * d))]
        .push_back(static_cast<int>(u));
  std::map<std::vector<int>, std::size_t> taken;
  std::vector<int> order(slot_keys.size(), absent_block);
  for (std::size_t j = 0; j < slot_keys.size(); ++j) {
    if (!slot_keys[j]) continue;
    const auto blocks = blocks_by_key.find(*slot_keys[j]);
    std::size_t& next = taken[*slot_keys[j]];
    if (blocks == blocks_by_key.end() || next >= blocks->second.size()) return std::nullopt;
    order[j] = blocks->second[next++];
  }
  for (const auto& [key, blocks] : blocks_by_key)
    if (taken[key] != blocks.size()) return std::nullopt;
  return order;
}

// The offset from `coords` to each slot's neighbor at sign * offset, nullopt off the mesh.
std::vector<std::optional<std::vector<int>>> slot_keys(const Grid& grid, std::span<const int> coords,
                                                       const Offsets& common, int sign) {
  std::vector<std::optional<std::vector<int>>> keys;
  for (int j = 0; j < common.count(); ++j) {
    const std::optional<int> neighbor = grid.shift(coords, common[j], sign);
    keys.push_back(neighbor ? std::optional(relative_offset(grid, coords, grid.coords_of(*neighbor))) : std::nullopt);
  }
  return keys;
}

}  // namespace

std::optional<RelativeNeighbors> relative_neighbors(const Grid& grid, int rank, std::span<const int> sources,
                                                    std::span<const int> destinations) {
  if (rank < 0 || rank >= grid.size()) return std::nullopt;
  auto to_destinations = offsets_to(grid, rank, destinations);
  auto to_sources = offsets_to(grid, rank, sources);
  if (!to_destinations || !to_sources) return std::nullopt;
  return RelativeNeighbors{std::move(*to_destinations), std::move(*to_sources)};
}

int reach_of(const RelativeNeighbors& neighbors) {
  int reach = 0;
  for (const auto* flat : {&neighbors.destinations, &neighbors.sources})
    for (int coordinate : *flat) reach = std::max(reach, std::abs(coordinate));
  return reach;
}

std::optional<int> box_size(int d, int reach, std::int64_t limit) {
  std::int64_t cells = 1;
  for (int k = 0; k < d; ++k) {
    cells *= 2 * static_cast<std::int64_t>(reach) + 1;
    if (cells > limit) return std::nullopt;
  }
  return static_cast<int>(cells);
}

std::vector<int> offset_counts(std::span<const int> flat, int d, int reach) {
  const auto cells = box_size(d, reach, INT32_MAX);
  if (!cells || d < 1) throw Error(Errc::arg, "the box of offsets is too large or has no dimension");
  std::vector<int> counts(static_cast<std::size_t>(*cells), 0);
  const auto length = static_cast<std::size_t>(d);
  for (std::size_t at = 0; at + length <= flat.size(); at += length) {
    std::size_t cell = 0;
    for (std::size_t k = 0; k < length; ++k) {
      if (std::abs(flat[at + k]) > reach) throw Error(Errc::arg, "an offset beyond the box's reach");
      cell = cell * static_cast<std::size_t>(2 * reach + 1) + static_cast<std::size_t>(flat[at + k] + reach);
    }
    ++counts[cell];
  }
  return counts;
}

Offsets offsets_of_counts(std::span<const int> counts, int d, int reach) {
  const int side = 2 * reach + 1;
  std::vector<int> flat, vector(static_cast<std::size_t>(d));
  for (std::size_t cell = 0; cell < counts.size(); ++cell) {
    std::size_t rest = cell;
    for (std::size_t k = vector.size(); k-- > 0; rest /= static_cast<std::size_t>(side))
      vector[k] = static_cast<int>(rest % static_cast<std::size_t>(side)) - reach;
    for (int copy = 0; copy < counts[cell]; ++copy) flat.insert(flat.end(), vector.begin(), vector.end());
  }
  return Offsets(d, std::move(flat));
}

bool connects_grid(const Grid& grid, const Offsets& offsets) {
  for (int k = 0; k < grid.ndims(); ++k) {
    if (grid.dims()[static_cast<std::size_t>(k)] == 1) continue;
    bool unit = false;
    for (int i = 0; i < offsets.count() && !unit; ++i) {
      const std::span<const int> offset = offsets[i];
      unit = std::abs(offset[static_cast<std::size_t>(k)]) == 1;
      for (int other = 0; other < grid.ndims(); ++other)
        unit = unit && (other == k || offset[static_cast<std::size_t>(other)] == 0);
    }
    if (!unit) return false;
  }
  return true;
}

bool block_sizes_forced_equal(const Grid& grid, const Offsets& offsets) {
  const auto p = static_cast<std::size_t>(grid.size());
  std::vector<std::size_t> parent(p);  // union-find over the senders
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  auto root = [&parent](std::size_t r) {
    while (parent[r] != r) r = parent[r] = parent[parent[r]];
    return r;
  };
  std::vector<bool> sends(p, false);
  for (int receiver = 0; receiver < grid.size(); ++receiver) {
    const std::vector<int> coords = grid.coords_of(receiver);
    std::optional<std::size_t> first;
    for (int i = 0; i < offsets.count(); ++i) {
      const std::optional<int> sender = grid.shift(coords, offsets[i], -1);
      if (!sender) continue;
      const auto s = static_cast<std::size_t>(*sender);
      sends[s] = true;
      if (!first) first = s;
      else parent[root(s)] = root(*first);
    }
  }
  if (std::find(sends.begin(), sends.end(), false) != sends.end()) return false;
  for (std::size_t r = 1; r < p; ++r)
    if (root(r) != root(0)) return false;
  return true;
}

namespace {

// Whether some offset moves a block through another process under some planner (see the header).
bool some_offset_travels(const Grid& grid, const Offsets& offsets) {
  for (int i = 0; i < offsets.count(); ++i) {
    int moving = 0, longest = 0;
    bool live = true;
    for (int k = 0; k < grid.ndims(); ++k) {
      const int n = grid.dims()[static_cast<std::size_t>(k)];
      int c = offsets[i][static_cast<std::size_t>(k)];
      if (grid.periodic(k)) c = wrapped(c, n);
      else live = live && std::abs(c) < n;
      if (n > 1 && c != 0) ++moving;
      if (n > 2) longest = std::max(longest, std::abs(c));
    }
    if (live && (moving >= 2 || longest >= 2)) return true;
  }
  return false;
}

}  // namespace

bool forwarding_may_mismatch(const Grid& grid, const Offsets& offsets) {
  return some_offset_travels(grid, offsets) && !block_sizes_forced_equal(grid, offsets);
}

std::optional<BlockOrders> match_offsets(const Grid& grid, std::span<const int> coords, const Offsets& common,
                                         const RelativeNeighbors& mine) {
  const auto d = static_cast<std::size_t>(grid.ndims());
  auto send = pair_in_order(slot_keys(grid, coords, common, +1), mine.destinations, d);
  auto receive = pair_in_order(slot_keys(grid, coords, common, -1), mine.sources, d);
  if (!send || !receive) return std::nullopt;
  const bool some_absent = std::count(send->begin(), send->end(), absent_block) +
                               std::count(receive->begin(), receive->end(), absent_block) > 0;
  if (some_absent && (mine.destinations.empty() || mine.sources.empty())) return std::nullopt;
  return BlockOrders{std::move(*send), std::move(*receive)};
}

}  // namespace cartcoll
