// SPDX-License-Identifier: BSD-3-Clause
#include "neighborhood.hpp"

#include <algorithm>

#include "runtime/selection/policy.hpp"

namespace cartcoll::detail {

namespace {

int blocks_of(const std::vector<int>& order, int slots) {
  if (order.empty()) return slots;
  return static_cast<int>(std::count_if(order.begin(), order.end(), [](int block) { return block >= 0; }));
}

}  // namespace

Degrees Neighborhood::degrees() const {
  if (const auto* c = cartesian())
    return {blocks_of(c->receive_order, c->offsets.count()), blocks_of(c->send_order, c->offsets.count())};
  return {static_cast<int>(graph()->sources.size()), static_cast<int>(graph()->destinations.size())};
}

namespace {

std::vector<int> ranks_of(const std::vector<std::optional<int>>& peers) {
  std::vector<int> ranks;
  ranks.reserve(peers.size());
  for (const auto& peer : peers) ranks.push_back(peer ? *peer : no_process);
  return ranks;
}

// The user's block i is the schedule's block j with order[j] == i (none for an absent slot).
std::vector<int> in_user_order(const std::vector<int>& by_slot, const std::vector<int>& order) {
  if (order.empty()) return by_slot;
  std::vector<int> user(static_cast<std::size_t>(blocks_of(order, static_cast<int>(order.size()))));
  for (std::size_t j = 0; j < order.size(); ++j)
    if (order[j] >= 0) user[static_cast<std::size_t>(order[j])] = by_slot[j];
  return user;
}

}  // namespace

std::vector<int> Neighborhood::sources(int) const {
  if (const auto* c = cartesian()) return in_user_order(ranks_of(peers_of(c->grid, c->offsets, c->coords).sources), c->receive_order);
  return graph()->sources;
}

std::vector<int> Neighborhood::destinations(int) const {
  if (const auto* c = cartesian()) return in_user_order(ranks_of(peers_of(c->grid, c->offsets, c->coords).targets), c->send_order);
  return graph()->destinations;
}

Schedule Neighborhood::plan(Algorithm algorithm, Collective collective, int rank, CombinedSides sides,
                            bool sizes_travel) const {
  if (const auto* g = graph()) {
    GraphView view{rank, g->size, g->sources, g->destinations, g->setup.get()};
    const SetupPlugin* setup = algorithm.planner().setup;
    if (g->setup == nullptr || sides == CombinedSides{} || setup == nullptr || setup->restricted == nullptr)
      return cartcoll::plan(algorithm, view, collective);
    const std::shared_ptr<const SetupResult> restricted = setup->restricted(*g->setup, sides);
    view.setup = restricted.get();
    return cartcoll::plan(algorithm, view, collective);
  }
  const CartesianNeighborhood& c = *cartesian();
  Schedule schedule = cartcoll::plan(algorithm, CartesianView{c.grid, c.offsets, c.coords, c.node_size, sizes_travel},
                                       collective);
  if (!c.receive_order.empty() || !c.send_order.empty())
    schedule = relabel_blocks(std::move(schedule), c.send_order, c.receive_order);
  return schedule;
}

Schedule Neighborhood::plan_shared_sends(Algorithm planner, const SharedSends& sends) const {
  const CartesianNeighborhood& c = *cartesian();
  CartesianView view{c.grid, c.offsets, c.coords, c.node_size};
  view.shared_sends = &sends;
  return cartcoll::plan(planner, view, Collective::alltoall);
}

void Neighborhood::list_auto_candidates() {
  for (const Collective collective : {Collective::alltoall, Collective::allgather})
    auto_candidates_[collective == Collective::alltoall ? 0 : 1] = candidates_for_auto(collective, *this);
}

const GraphNeighborhood* Neighborhood::graph_lists() const noexcept {
  if (const auto* c = cartesian()) return c->detected_from ? &*c->detected_from : nullptr;
  return graph();
}

Figures Neighborhood::figures(Algorithm algorithm, Collective collective, int rank) const {
  if (const auto* c = cartesian()) return neighborhood_figures(algorithm, c->offsets, collective);
  return figures_of(plan(algorithm, collective, rank));
}

}  // namespace cartcoll::detail
