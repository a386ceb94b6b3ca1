// SPDX-License-Identifier: BSD-3-Clause
// The isomorphic-collectives paper's (Träff, Carpen-Amarie, Hunold and Rougier) one-hop algorithm
// for a one-ported torus (sections 3.1-3.3): dimension by dimension, every block moves one hop per
// step, first along +e_k, then along -e_k, and all blocks that still have a hop to go that way
// share the step's one message. D = sum over dimensions of (largest positive + largest negative
// coordinate) steps, one phase each; alltoall sends sum_i ||N_i||_1 blocks, the allgather prefix
// trie the sum of |c| over its edges. Buffers and mesh liveness as in combining.cpp: a block
// alternates between temp and receive slot by the parity of its remaining hops (the
// isomorphic-collectives paper, Algorithm 1), so that the last hop lands in the receive slot; a slot
// whose own source is missing uses temp slot t + i instead; only live blocks travel. Where sizes
// travel, as in combining.cpp: blocks in transit wait in temps only, and the messages into them
// carry sizes.
#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <utility>
#include <vector>

#include "core/planning/allgather_tree.hpp"
#include "core/planning/plan.hpp"
#include "core/planning/forwarding.hpp"
#include "core/planning/mesh_reach.hpp"

namespace cartcoll::detail {

namespace {

std::size_t at(int index) { return static_cast<std::size_t>(index); }

// One communication step: hop number `hop` (from 0) in direction `sign` along dimension `dim`, the
// dimension visited at `level`.
struct Step {
  int level, dim, sign, hop;
  // The displacement along dim that a moving block has behind it when this step sends it.
  int behind() const { return sign * hop; }
  // Whether a block with coordinate c along dim moves in this step.
  bool moves(int c) const { return sign * c > hop; }
};

std::vector<Step> steps_of(const Offsets& offsets, std::span<const int> order) {
  std::vector<Step> steps;
  for (int level = 0; level < static_cast<int>(order.size()); ++level) {
    const int dim = order[at(level)];
    int positive = 0, negative = 0;
    for (int i = 0; i < offsets.count(); ++i) {
      positive = std::max(positive, offsets[i][at(dim)]);
      negative = std::max(negative, -offsets[i][at(dim)]);
    }
    for (int hop = 0; hop < positive; ++hop) steps.push_back({level, dim, +1, hop});
    for (int hop = 0; hop < negative; ++hop) steps.push_back({level, dim, -1, hop});
  }
  return steps;
}

// Every process has the same phases, at least one (for the copies), even where a mesh leaves a
// step empty.
std::vector<Phase> phases_for(const std::vector<Step>& steps) {
  return std::vector<Phase>(std::max<std::size_t>(steps.size(), 1));
}

// The partial-progress form of MeshReach's prefix/suffix tests along the step's dimension: a block
// `behind` hops past its origin and `ahead` hops short of its target there has both ends inside
// the grid. The other dimensions are the caller's prefix_back / suffix_ahead.
bool ends_in_range(const MeshReach& reach, int dim, int behind, int ahead) {
  return reach.in_range(dim, -static_cast<long long>(behind)) && reach.in_range(dim, ahead);
}

void add_step_move(Phase& phase, const Grid& grid, std::span<const int> coords, const Step& step,
                   std::vector<BlockRef> send, std::vector<BlockRef> receive, Forwarded forwarded) {
  add_move(phase, grid.rank_of(coords), neighbor_along(grid, coords, step.dim, step.sign),
           neighbor_along(grid, coords, step.dim, -step.sign), std::move(send), std::move(receive), forwarded);
}

int norm1(std::span<const int> offset) {
  int hops = 0;
  for (int c : offset) hops += std::abs(c);
  return hops;
}

class TorusAlltoall {
 public:
  TorusAlltoall(const CartesianView& view, std::vector<int> order)
      : grid_(view.grid),
        offsets_(view.offsets),
        coords_(view.coords),
        order_(std::move(order)),
        reach_(view.grid, view.offsets, view.coords, order_),
        t_(view.offsets.count()),
        d_(view.grid.ndims()),
        travel_(view.sizes_travel),
        total_(at(t_)) {
    for (int i = 0; i < t_; ++i) total_[at(i)] = norm1(offsets_[i]);
    left_ = total_;
  }

  Schedule plan() {
    const std::vector<Step> steps = steps_of(offsets_, order_);
    Schedule schedule{Collective::alltoall, t_, t_, {}, phases_for(steps)};
    for (std::size_t s = 0; s < steps.size(); ++s) plan_step(steps[s], schedule.phases[s]);
    for (int i = 0; i < t_; ++i)
      if (total_[at(i)] == 0) schedule.phases.back().copies.push_back({{Buffer::send, i}, {Buffer::recv, i}});
    if (travel_) join_messages_per_peer(schedule);
    declare_home_temps(schedule);
    return schedule;
  }

 private:
  void plan_step(const Step& step, Phase& phase) {
    std::vector<BlockRef> send, receive;
    Forwarded forwarded{travel_};
    const int behind = step.behind();
    for (int i = 0; i < t_; ++i) {
      const int c = offsets_[i][at(step.dim)], left = left_[at(i)];
      if (!step.moves(c)) continue;
      --left_[at(i)];
      if (!reach_.prefix_back(i, step.level) || !reach_.suffix_ahead(i, step.level + 1)) continue;
      if (ends_in_range(reach_, step.dim, behind, c - behind)) {
        send.push_back(left == total_[at(i)] ? BlockRef{Buffer::send, i} : home(reach_, t_, d_, i, left, travel_));
        forwarded.send = forwarded.send || left > 1;
      }
      if (ends_in_range(reach_, step.dim, behind + step.sign, c - behind - step.sign)) {
        receive.push_back(home(reach_, t_, d_, i, left - 1, travel_));
        forwarded.receive = forwarded.receive || left > 1;
      }
    }
    add_step_move(phase, grid_, coords_, step, std::move(send), std::move(receive), forwarded);
  }

  const Grid& grid_;
  const Offsets& offsets_;
  std::span<const int> coords_;
  std::vector<int> order_;
  MeshReach reach_;
  int t_, d_;
  bool travel_;
  std::vector<int> total_, left_;  // hops per block: in all, and still to go
};

// A node's block stays in its representative's slot while a child with that representative travels
// through the same slot. Reads of the node's block end with the first negative step, and a child's
// block overwrites it from its second hop on: so the representative is the zero child's (which
// does not move), else a negative child's, else any child's (no negative step reads the node).
void choose_torus_representatives(AllgatherTree& tree) {
  for (std::size_t level = tree.levels.size() - 1; level-- > 0;) {
    const auto& below = tree.levels[level + 1];
    for (TreeNode& node : tree.levels[level]) {
      int best = node.children.empty() ? -1 : node.children.front();
      for (int child : node.children) {
        const int value = below[at(child)].value, best_value = below[at(best)].value;
        if (value == 0 || (value < 0 && best_value > 0)) best = child;
      }
      if (best >= 0) node.representative = below[at(best)].representative;
    }
  }
}

// A trie edge whose block moves: node -> child along the level's dimension, |value| hops.
struct Edge {
  const TreeNode* node;
  const TreeNode* child;
  bool origin;  // the node's origin exists in the dimensions before this level
  bool target;  // some target in the child's subtree exists in the dimensions after this level
};

class TorusAllgather : TreeWalk {
 public:
  TorusAllgather(const CartesianView& view, std::vector<int> order)
      : TreeWalk(view.grid, view.offsets, view.coords, order),
        travel_(view.sizes_travel),
        hops_from_(at(t_) * at(d_ + 1), 0) {
    choose_torus_representatives(tree_);
    for (int i = 0; i < t_; ++i)
      for (int level = d_; level-- > 0;)
        hops_from_[row(i) + at(level)] = hops_from_[row(i) + at(level) + 1] + std::abs(offsets_[i][at(tree_.order[at(level)])]);
  }

  Schedule plan() {
    const std::vector<Step> steps = steps_of(offsets_, tree_.order);
    Schedule schedule{Collective::allgather, 1, t_, {}, phases_for(steps)};
    std::vector<Edge> edges;
    for (std::size_t s = 0; s < steps.size(); ++s) {
      if (s == 0 || steps[s].level != steps[s - 1].level) edges = edges_of(steps[s].level);
      plan_step(steps[s], edges, schedule.phases[s]);
    }
    add_leaf_copies(schedule.phases.back(), tree_, reach_, d_);
    if (travel_) join_messages_per_peer(schedule);
    declare_home_temps(schedule);
    return schedule;
  }

 private:
  std::size_t row(int i) const { return at(i) * at(d_ + 1); }
  // Hops still ahead of `node`'s block from this level on, along its representative.
  int hops_from(const TreeNode& node, int level) const { return hops_from_[row(node.representative) + at(level)]; }
  BlockRef storage(const TreeNode& node, int level) const {
    if (node.zero_chain) return {Buffer::send, 0};
    return home(reach_, t_, d_, node.representative, hops_from(node, level), travel_);
  }
  bool any_target(const TreeNode& node, int level) const { return detail::any_target(reach_, node, level); }

  std::vector<Edge> edges_of(int level) const {
    std::vector<Edge> edges;
    const auto& below = tree_.levels[at(level) + 1];
    for (const TreeNode& node : tree_.levels[at(level)])
      for (int child : node.children)
        if (below[at(child)].value != 0)
          edges.push_back({&node, &below[at(child)], node.zero_chain || reach_.prefix_back(node.representative, level),
                           any_target(below[at(child)], level + 1)});
    return edges;
  }

  void plan_step(const Step& step, const std::vector<Edge>& edges, Phase& phase) const {
    std::vector<BlockRef> send, receive;
    Forwarded forwarded{travel_};
    const int behind = step.behind();
    for (const Edge& edge : edges) {
      const int c = edge.child->value;
      if (!step.moves(c) || !edge.origin || !edge.target) continue;
      const int left = std::abs(c) - step.hop + hops_from(*edge.child, step.level + 1);
      const int slot = edge.child->representative;
      if (ends_in_range(reach_, step.dim, behind, c - behind)) {
        send.push_back(step.hop == 0 ? storage(*edge.node, step.level) : home(reach_, t_, d_, slot, left, travel_));
        forwarded.send = forwarded.send || left > 1;
      }
      if (ends_in_range(reach_, step.dim, behind + step.sign, c - behind - step.sign)) {
        receive.push_back(home(reach_, t_, d_, slot, left - 1, travel_));
        forwarded.receive = forwarded.receive || left > 1;
      }
    }
    add_step_move(phase, grid_, coords_, step, std::move(send), std::move(receive), forwarded);
  }

  bool travel_;
  std::vector<int> hops_from_;  // t x (d+1): sum of |coordinate| over the levels from `level` on
};

Schedule plan_torus(const CartesianView& view, Collective collective) {
  if (collective == Collective::alltoall) {
    std::vector<int> order(at(view.grid.ndims()));
    std::iota(order.begin(), order.end(), 0);
    return TorusAlltoall(view, std::move(order)).plan();
  }
  return TorusAllgather(view, best_allgather_order(view.offsets)).plan();
}

}  // namespace

extern const PlannerEntry torus_planner{
    "torus",
    "the one-hop torus algorithm of Träff, Carpen-Amarie, Hunold and Rougier: blocks move one hop per "
    "phase along each dimension in turn",
    true, true, false, plan_torus, nullptr, nullptr, false, false, false, true};

}  // namespace cartcoll::detail
