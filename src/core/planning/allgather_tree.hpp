// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The allgather prefix tree of Träff and Hunold's Cartesian Collective Communication, Algorithm 2:
// level l groups the offsets that agree on the first l visited dimensions; a block moves along a
// tree edge only where the edge's coordinate is non-zero.
#include <span>
#include <vector>

#include "cartcoll/topology.hpp"

namespace cartcoll::detail {

struct TreeNode {
  int value = 0;             // this node's coordinate in the dimension visited to reach it
  std::vector<int> members;  // offset indices in this subtree, ascending
  std::vector<int> children; // indices into the next level
  int representative = -1;   // the offset index whose slot holds this node's block
  bool zero_chain = true;    // every coordinate so far is zero: the block is the send block
};

struct AllgatherTree {
  std::vector<int> order;                     // dimension visited at each level
  std::vector<std::vector<TreeNode>> levels;  // levels[0] is the root, levels[d] the leaves
  int volume() const;                         // edges with a non-zero coordinate: blocks sent
};

AllgatherTree build_allgather_tree(const Offsets& offsets, std::span<const int> order);

// Träff and Hunold's choice: dimensions by increasing number of distinct coordinates (stable).
std::vector<int> order_by_distinct_coordinates(const Offsets& offsets);
// The order with the smallest tree: every order for d <= 6 (ties keep Träff and Hunold's order),
// Träff and Hunold's otherwise.
std::vector<int> best_allgather_order(const Offsets& offsets);

// Groups `indices` by key, groups in order of first appearance, indices in their given order.
// Hash-based, O(n) expected: no comparison sort on the planning path.
template <typename Key>
std::vector<std::pair<int, std::vector<int>>> group_by(std::span<const int> indices, Key key);

}  // namespace cartcoll::detail

#include <unordered_map>

template <typename Key>
std::vector<std::pair<int, std::vector<int>>> cartcoll::detail::group_by(std::span<const int> indices, Key key) {
  std::vector<std::pair<int, std::vector<int>>> groups;
  std::unordered_map<int, std::size_t> slot;
  slot.reserve(indices.size());
  for (int index : indices) {
    const int value = key(index);
    auto [at, added] = slot.try_emplace(value, groups.size());
    if (added) groups.push_back({value, {}});
    groups[at->second].second.push_back(index);
  }
  return groups;
}
