// SPDX-License-Identifier: BSD-3-Clause
#include "relay_loads.hpp"

#include <cmath>
#include <limits>

#include "neighbor_relay.hpp"

namespace cartcoll::detail {

namespace {

void add(std::map<int, int>& counts, int receiver, int delta) {
  if ((counts[receiver] += delta) == 0) counts.erase(receiver);
}

// A process's messages of both phases to the 8th power: convex, so that a move that relieves a busy
// process pays for a message more at a quieter one. Weighing each phase's count apart as well splits
// direct blocks over both phases where nothing is combined, which costs their receivers a latency
// (docs/neighbor-relay.md, "The penalty").
double penalty(double first, double second) { return std::pow(first + second, 8); }

}  // namespace

void RelayLoads::move(int receiver, int route, int delta) {
  if (route == relay_direct_first) {
    add(first_, receiver, delta);
  } else if (route == relay_direct_second) {
    add(second_, receiver, delta);
  } else {
    add(first_, route, delta);
    NeighborLoads& relay = neighbors_[route];
    add(relay.second, receiver, delta);
  }
}

double RelayLoads::penalty_of(int process) const {
  if (process == self_) return penalty(static_cast<double>(first_.size()), static_cast<double>(second_.size()));
  const auto found = neighbors_.find(process);
  if (found == neighbors_.end()) return penalty(0, 0);
  return penalty(found->second.first, static_cast<double>(found->second.second.size()));
}

double RelayLoads::added_cost(int receiver, int route) {
  const double self_before = penalty_of(self_), relay_before = route >= 0 ? penalty_of(route) : 0;
  move(receiver, route, 1);
  const double added = penalty_of(self_) - self_before + (route >= 0 ? penalty_of(route) - relay_before : 0);
  move(receiver, route, -1);
  return added;
}

std::vector<int> rerouted(RelayLoads loads, std::span<const int> receivers, std::vector<int> routes,
                          const std::map<int, std::vector<int>>& relays_of) {
  for (std::size_t k = 0; k < receivers.size(); ++k) {
    const int receiver = receivers[k];
    std::vector<int> options{relay_direct_first, relay_direct_second};
    if (const auto found = relays_of.find(receiver); found != relays_of.end())
      options.insert(options.end(), found->second.begin(), found->second.end());
    loads.move(receiver, routes[k], -1);
    double least = std::numeric_limits<double>::infinity();
    for (int option : options)
      if (const double added = loads.added_cost(receiver, option); added < least) least = added, routes[k] = option;
    loads.move(receiver, routes[k], 1);
  }
  return routes;
}

}  // namespace cartcoll::detail
