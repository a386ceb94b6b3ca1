// SPDX-License-Identifier: BSD-3-Clause
#include "allgather_tree.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace cartcoll::detail {

int AllgatherTree::volume() const {
  int edges = 0;
  for (std::size_t level = 1; level < levels.size(); ++level)
    for (const TreeNode& node : levels[level]) edges += node.value != 0 ? 1 : 0;
  return edges;
}

namespace {

// Bottom-up: a leaf's block lives in its first member's slot; a node keeps its zero child's slot
// (that block does not move) or else its first child's.
void choose_representatives(AllgatherTree& tree) {
  for (std::size_t level = tree.levels.size(); level-- > 0;) {
    for (TreeNode& node : tree.levels[level]) {
      if (node.children.empty()) {
        node.representative = node.members.empty() ? -1 : node.members.front();
        continue;
      }
      const auto& below = tree.levels[level + 1];
      node.representative = below[static_cast<std::size_t>(node.children.front())].representative;
      for (int child : node.children)
        if (below[static_cast<std::size_t>(child)].value == 0) node.representative = below[static_cast<std::size_t>(child)].representative;
    }
  }
}

}  // namespace

AllgatherTree build_allgather_tree(const Offsets& offsets, std::span<const int> order) {
  AllgatherTree tree;
  tree.order.assign(order.begin(), order.end());
  TreeNode root;
  root.members.resize(static_cast<std::size_t>(offsets.count()));
  std::iota(root.members.begin(), root.members.end(), 0);
  tree.levels.push_back({std::move(root)});
  for (std::size_t level = 0; level < order.size(); ++level) {
    const auto dim = static_cast<std::size_t>(order[level]);
    std::vector<TreeNode> next;
    for (TreeNode& node : tree.levels[level]) {
      for (auto& [value, members] : group_by(node.members, [&](int i) { return offsets[i][dim]; })) {
        node.children.push_back(static_cast<int>(next.size()));
        next.push_back({value, std::move(members), {}, -1, node.zero_chain && value == 0});
      }
    }
    tree.levels.push_back(std::move(next));
  }
  choose_representatives(tree);
  return tree;
}

std::vector<int> order_by_distinct_coordinates(const Offsets& offsets) {
  const int d = offsets.ndims();
  std::vector<std::size_t> distinct(static_cast<std::size_t>(d));
  for (int k = 0; k < d; ++k) {
    std::unordered_set<int> values;
    for (int i = 0; i < offsets.count(); ++i) values.insert(offsets[i][static_cast<std::size_t>(k)]);
    distinct[static_cast<std::size_t>(k)] = values.size();
  }
  std::vector<int> order(static_cast<std::size_t>(d));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return distinct[static_cast<std::size_t>(a)] < distinct[static_cast<std::size_t>(b)];
  });
  return order;
}

namespace {

// The tree's volume without building it: level by level, each offset's prefix gets an id, and a
// new (prefix, coordinate) pair with a non-zero coordinate is one more edge. Gives up past `limit`.
int tree_volume(const Offsets& offsets, std::span<const int> order, int limit) {
  const auto t = static_cast<std::size_t>(offsets.count());
  std::vector<long long> prefix(t, 0);
  std::unordered_map<long long, long long> ids;
  int volume = 0;
  for (int dim : order) {
    ids.clear();
    for (std::size_t i = 0; i < t; ++i) {
      const int c = offsets[static_cast<int>(i)][static_cast<std::size_t>(dim)];
      // Prefix ids stay below t, so (id, coordinate) packs into one key without collisions.
      const long long key = prefix[i] * (1LL << 32) + static_cast<long long>(static_cast<unsigned>(c));
      auto [at, added] = ids.try_emplace(key, static_cast<long long>(ids.size()));
      if (added && c != 0 && ++volume > limit) return volume;
      prefix[i] = at->second;
    }
  }
  return volume;
}

int count_distinct_nonzero(const Offsets& offsets) {
  std::unordered_set<std::string> seen;
  for (int i = 0; i < offsets.count(); ++i)
    if (!offsets.is_zero(i))
      seen.emplace(reinterpret_cast<const char*>(offsets[i].data()), offsets[i].size_bytes());
  return static_cast<int>(seen.size());
}

}  // namespace

std::vector<int> best_allgather_order(const Offsets& offsets) {
  std::vector<int> best = order_by_distinct_coordinates(offsets);
  if (offsets.ndims() > 6) return best;
  int best_volume = tree_volume(offsets, best, offsets.count() * offsets.ndims());
  // Every distinct non-zero offset ends its own last non-zero edge, so no tree has fewer edges:
  // when Träff and Hunold's (Cartesian Collective Communication) order reaches that (Moore
  // neighborhoods, Träff and Hunold's boxes), the search is over.
  const int distinct_nonzero = count_distinct_nonzero(offsets);
  std::vector<int> order(best.size());
  std::iota(order.begin(), order.end(), 0);
  do {
    const int volume = tree_volume(offsets, order, best_volume - 1);
    if (volume < best_volume) {
      best_volume = volume;
      best = order;
    }
  } while (best_volume > distinct_nonzero && std::next_permutation(order.begin(), order.end()));
  return best;
}

}  // namespace cartcoll::detail
