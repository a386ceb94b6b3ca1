#include "neighborhood.hpp"

namespace cartcoll::detail {

Degrees Neighborhood::degrees() const {
  if (const auto* c = cartesian()) return {c->offsets.count(), c->offsets.count()};
  return {static_cast<int>(graph()->sources.size()), static_cast<int>(graph()->destinations.size())};
}

namespace {

std::vector<int> ranks_of(const std::vector<std::optional<int>>& peers) {
  std::vector<int> ranks;
  ranks.reserve(peers.size());
  for (const auto& peer : peers) ranks.push_back(peer ? *peer : no_process);
  return ranks;
}

// The user's receive block i is the schedule's block j with order[j] == i.
std::vector<int> in_user_order(const std::vector<int>& by_slot, const std::vector<int>& order) {
  if (order.empty()) return by_slot;
  std::vector<int> user(by_slot.size());
  for (std::size_t j = 0; j < order.size(); ++j) user[static_cast<std::size_t>(order[j])] = by_slot[j];
  return user;
}

}  // namespace

std::vector<int> Neighborhood::sources(int) const {
  if (const auto* c = cartesian()) return in_user_order(ranks_of(peers_of(c->grid, c->offsets, c->coords).sources), c->receive_order);
  return graph()->sources;
}

std::vector<int> Neighborhood::destinations(int) const {
  if (const auto* c = cartesian()) return ranks_of(peers_of(c->grid, c->offsets, c->coords).targets);
  return graph()->destinations;
}

Schedule Neighborhood::plan(Algorithm algorithm, Collective collective, int rank) const {
  if (const auto* g = graph())
    return cartcoll::plan(algorithm, GraphView{rank, g->size, g->sources, g->destinations, g->pattern.get()}, collective);
  const CartesianNeighborhood& c = *cartesian();
  Schedule schedule = cartcoll::plan(algorithm, CartesianView{c.grid, c.offsets, c.coords}, collective);
  if (!c.receive_order.empty()) schedule = relabel_receives(std::move(schedule), c.receive_order);
  return schedule;
}

Figures Neighborhood::figures(Algorithm algorithm, Collective collective, int rank) const {
  if (const auto* c = cartesian()) return neighborhood_figures(algorithm, c->offsets, collective);
  return figures_of(plan(algorithm, collective, rank));
}

}  // namespace cartcoll::detail
