// SPDX-License-Identifier: BSD-3-Clause
#include "common_neighbors.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>

#include "cartcoll/error.hpp"

namespace cartcoll::detail {

void CommonNeighbors::assign(std::map<int, std::vector<int>> lists) {
  lists_.clear();
  std::vector<int> all;
  for (auto& [neighbor, members] : lists) {
    std::sort(members.begin(), members.end());
    for (int process : members)
      if (process != self_) all.push_back(process);
    std::vector<bool> active(members.size(), true);
    lists_.emplace(neighbor, List{std::move(members), std::move(active)});
  }
  std::sort(all.begin(), all.end());
  counts_.clear();
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j] == all[i]) ++j;
    counts_.emplace_back(all[i], static_cast<int>(j - i));
    i = j;
  }
}

void CommonNeighbors::add_to_count(int process, int delta) {
  if (process == self_) return;
  const auto at = std::lower_bound(counts_.begin(), counts_.end(), std::pair<int, int>(process, 0),
                                   [](const auto& a, const auto& b) { return a.first < b.first; });
  if (at == counts_.end() || at->first != process) throw Error(Errc::intern, "a common-neighbor count went missing");
  at->second += delta;
}

// The position of `process` in the list if it is still active there, else null.
const int* CommonNeighbors::find_active(const List& list, int process) const {
  const auto at = std::lower_bound(list.members.begin(), list.members.end(), process);
  if (at == list.members.end() || *at != process || !list.active[static_cast<std::size_t>(at - list.members.begin())])
    return nullptr;
  return &*at;
}

void CommonNeighbors::remove(int neighbor, std::span<const int> gone) {
  const auto found = lists_.find(neighbor);
  if (found == lists_.end()) throw Error(Errc::intern, "an update from a process that is no active out-neighbor");
  List& list = found->second;
  for (int process : gone) {
    const int* at = find_active(list, process);
    if (at == nullptr) throw Error(Errc::intern, "an update removes an unknown in-neighbor");
    list.active[static_cast<std::size_t>(at - list.members.data())] = false;
    add_to_count(process, -1);
  }
}

void CommonNeighbors::drop(int neighbor) {
  const auto found = lists_.find(neighbor);
  if (found == lists_.end()) return;
  const List& list = found->second;
  for (std::size_t k = 0; k < list.members.size(); ++k)
    if (list.active[k]) add_to_count(list.members[k], -1);
  lists_.erase(found);
}

std::vector<int> CommonNeighbors::shared_with(int other) const {
  std::vector<int> shared;
  for (const auto& [neighbor, list] : lists_)
    if (find_active(list, other) != nullptr) shared.push_back(neighbor);
  return shared;
}

namespace {

// Ties between equal counts, the same from both ends of a friendship and spread over the ranks: a
// bijective mix (splitmix64's finalizer) of the pair. Ranking ties by rank instead sends, on a
// stencil where every count is equal, every process's proposals to the same low ranks, and leaves
// processes without a friend that a maximal matching would pair.
std::uint64_t tie_break(int a, int b) {
  std::uint64_t x = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(std::max(a, b))) << 32) |
                    static_cast<std::uint32_t>(std::min(a, b));
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::vector<int> CommonNeighbors::friends(int threshold, int limit, int node_size) const {
  auto on_my_node = [&](int process) { return node_size <= 0 || process / node_size == self_ / node_size; };
  std::vector<std::tuple<int, std::uint64_t, int>> ranked;  // (-count, tie_break, process): most shared first
  for (const auto& [process, count] : counts_)
    if (count >= threshold && on_my_node(process)) ranked.emplace_back(-count, tie_break(self_, process), process);
  const auto keep = std::min(ranked.size(), static_cast<std::size_t>(std::max(limit, 0)));
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(keep), ranked.end());
  std::vector<int> best;
  for (std::size_t i = 0; i < keep; ++i) best.push_back(std::get<2>(ranked[i]));
  return best;
}

}  // namespace cartcoll::detail
