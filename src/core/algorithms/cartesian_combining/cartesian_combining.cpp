// SPDX-License-Identifier: BSD-3-Clause
// Message combining with direct sends along each dimension (Träff and Hunold's Cartesian Collective
// Communication, section 3; the isomorphic-collectives paper's (Träff, Carpen-Amarie, Hunold and
// Rougier) "torus direct"): d phases, one round per distinct non-zero coordinate of the phase's
// dimension. Blocks alternate between the temp and the receive buffer (Träff and Hunold, Algorithm
// 1) and end in the receive buffer. On meshes only live blocks travel (see MeshReach), and a
// receive slot whose own source is missing is never used for blocks in transit: those go to the
// second temp slot t + i instead. Where sizes travel (CartesianView::sizes_travel: a v or w call
// under MPI's contract) a receive slot holds only its own block, so blocks in transit alternate
// between temps i and t + i, the messages into them carry sizes, a move onto the process itself is
// a message to itself, and the messages of a phase to one peer are joined (forwarding.hpp).
#include <numeric>

#include "core/planning/allgather_tree.hpp"
#include "core/planning/plan.hpp"
#include "core/planning/forwarding.hpp"
#include "core/planning/mesh_reach.hpp"

namespace cartcoll::detail {

namespace {

Schedule combining_alltoall(const CartesianView& view) {
  const Grid& grid = view.grid;
  const Offsets& offsets = view.offsets;
  const std::span<const int> coords = view.coords;
  const bool travel = view.sizes_travel;
  const int t = offsets.count(), d = grid.ndims(), self = grid.rank_of(coords);
  std::vector<int> order(static_cast<std::size_t>(d));
  std::iota(order.begin(), order.end(), 0);
  const MeshReach reach(grid, offsets, coords, order);
  std::vector<int> moves(static_cast<std::size_t>(t), 0), all(static_cast<std::size_t>(t));
  std::iota(all.begin(), all.end(), 0);
  for (int i = 0; i < t; ++i)
    for (int c : offsets[i]) moves[static_cast<std::size_t>(i)] += c != 0 ? 1 : 0;
  const std::vector<int> total = moves;
  Schedule schedule{Collective::alltoall, t, t, {}, std::vector<Phase>(static_cast<std::size_t>(d))};
  for (int k = 0; k < d; ++k) {
    const auto dim = static_cast<std::size_t>(k);
    Phase& phase = schedule.phases[dim];
    for (const auto& [c, members] : group_by(all, [&](int i) { return offsets[i][dim]; })) {
      if (c == 0) continue;
      std::vector<BlockRef> send, receive;
      Forwarded forwarded{travel};
      for (int i : members) {
        const auto slot = static_cast<std::size_t>(i);
        const bool first = moves[slot] == total[slot], onward = moves[slot] > 1;
        if (reach.prefix_back(i, k) && reach.suffix_ahead(i, k)) {
          send.push_back(first ? BlockRef{Buffer::send, i} : home(reach, t, d, i, moves[slot], travel));
          forwarded.send = forwarded.send || onward;
        }
        if (reach.prefix_back(i, k) && reach.in_range(k, -static_cast<long long>(c)) && reach.suffix_ahead(i, k + 1)) {
          receive.push_back(home(reach, t, d, i, moves[slot] - 1, travel));
          forwarded.receive = forwarded.receive || onward;
        }
      }
      add_move(phase, self, neighbor_along(grid, coords, k, c), neighbor_along(grid, coords, k, -c), std::move(send),
               std::move(receive), forwarded);
      for (int i : members) --moves[static_cast<std::size_t>(i)];
    }
  }
  for (int i = 0; i < t; ++i)
    if (total[static_cast<std::size_t>(i)] == 0) schedule.phases.back().copies.push_back({{Buffer::send, i}, {Buffer::recv, i}});
  if (travel) join_messages_per_peer(schedule);
  declare_home_temps(schedule);
  return schedule;
}

class AllgatherPlanner : TreeWalk {
 public:
  AllgatherPlanner(const CartesianView& view, std::vector<int> order)
      : TreeWalk(view.grid, view.offsets, view.coords, order),
        self_(view.grid.rank_of(view.coords)),
        travel_(view.sizes_travel),
        moves_ahead_(count_moves_ahead()) {}

  Schedule plan() {
    Schedule schedule{Collective::allgather, 1, t_, {}, std::vector<Phase>(static_cast<std::size_t>(d_))};
    for (int level = 0; level < d_; ++level) plan_level(level, schedule.phases[static_cast<std::size_t>(level)]);
    add_leaf_copies(schedule.phases.back(), tree_, reach_, d_);
    if (travel_) join_messages_per_peer(schedule);
    declare_home_temps(schedule);
    return schedule;
  }

 private:
  // moves_ahead_[i * (d+1) + level]: non-zero coordinates of offset i from `level` on, in visiting
  // order: the moves still ahead of a block held in slot i.
  std::vector<int> count_moves_ahead() const {
    const auto levels = static_cast<std::size_t>(d_) + 1;
    std::vector<int> moves(static_cast<std::size_t>(t_) * levels, 0);
    for (int i = 0; i < t_; ++i)
      for (int level = d_ - 1; level >= 0; --level) {
        const auto at = static_cast<std::size_t>(i) * levels + static_cast<std::size_t>(level);
        moves[at] = moves[at + 1] + (offsets_[i][static_cast<std::size_t>(tree_.order[static_cast<std::size_t>(level)])] != 0);
      }
    return moves;
  }
  int moves_from(const TreeNode& node, int level) const {
    return moves_ahead_[static_cast<std::size_t>(node.representative) * (static_cast<std::size_t>(d_) + 1) +
                        static_cast<std::size_t>(level)];
  }
  BlockRef storage(const TreeNode& node, int level) const {
    if (node.zero_chain) return {Buffer::send, 0};
    return home(reach_, t_, d_, node.representative, moves_from(node, level), travel_);
  }
  bool any_target(const TreeNode& node, int level) const { return detail::any_target(reach_, node, level); }

  void plan_level(int level, Phase& phase) {
    const int dim = tree_.order[static_cast<std::size_t>(level)];
    const auto& nodes = tree_.levels[static_cast<std::size_t>(level)];
    const auto& below = tree_.levels[static_cast<std::size_t>(level) + 1];
    std::vector<std::pair<int, int>> edges;  // (node, child) with a non-zero coordinate
    for (int n = 0; n < static_cast<int>(nodes.size()); ++n)
      for (int child : nodes[static_cast<std::size_t>(n)].children)
        if (below[static_cast<std::size_t>(child)].value != 0) edges.push_back({n, child});
    std::vector<int> edge_ids(edges.size());
    std::iota(edge_ids.begin(), edge_ids.end(), 0);
    for (const auto& [c, ids] : group_by(edge_ids, [&](int e) { return below[static_cast<std::size_t>(edges[static_cast<std::size_t>(e)].second)].value; })) {
      std::vector<BlockRef> send, receive;
      Forwarded forwarded{travel_};
      for (int e : ids) {
        const auto& node = nodes[static_cast<std::size_t>(edges[static_cast<std::size_t>(e)].first)];
        const auto& child = below[static_cast<std::size_t>(edges[static_cast<std::size_t>(e)].second)];
        const bool origin = node.zero_chain || reach_.prefix_back(node.representative, level);
        const bool onward = moves_from(child, level + 1) > 0;
        if (origin && any_target(child, level)) {
          send.push_back(storage(node, level));
          forwarded.send = forwarded.send || onward;
        }
        if (origin && reach_.in_range(dim, -static_cast<long long>(c)) && any_target(child, level + 1)) {
          receive.push_back(storage(child, level + 1));
          forwarded.receive = forwarded.receive || onward;
        }
      }
      add_move(phase, self_, neighbor_along(grid_, coords_, dim, c), neighbor_along(grid_, coords_, dim, -c),
               std::move(send), std::move(receive), forwarded);
    }
  }

  int self_;
  bool travel_;
  std::vector<int> moves_ahead_;
};

Schedule plan_combining(const CartesianView& view, Collective collective) {
  if (collective == Collective::alltoall) return combining_alltoall(view);
  return AllgatherPlanner(view, best_allgather_order(view.offsets)).plan();
}

}  // namespace

extern const PlannerEntry combining_planner{
    "combining",
    "Träff and Hunold's message combining (torus direct in Träff, Carpen-Amarie, Hunold and Rougier): "
    "d phases, one message per distinct non-zero coordinate",
    true, true, true, plan_combining, nullptr, nullptr, false, false, false, true};

}  // namespace cartcoll::detail
