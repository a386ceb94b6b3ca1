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

// Each phase's count weighs 1.3 times, so that neither phase carries nearly all of a process's
// messages; the 12th power makes the busiest process's count dominate the sum (docs/neighbor-relay.md,
// "The penalty", has the figures behind both).
double penalty(double first, double second) {
  constexpr double weight = 1.3, power = 12;
  return std::pow(first + second, power) + std::pow(weight * first, power) + std::pow(weight * second, power);
}

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

double RelayLoads::cost(int route_a, int route_b) const {
  double sum = penalty(static_cast<double>(first_.size()), static_cast<double>(second_.size()));
  for (int route : {route_a, route_b}) {
    if (route < 0 || (route == route_b && route_a == route_b)) continue;
    const auto found = neighbors_.find(route);
    if (found != neighbors_.end())
      sum += penalty(found->second.first, static_cast<double>(found->second.second.size()));
  }
  return sum;
}

std::vector<int> rerouted(RelayLoads loads, std::span<const int> receivers, std::vector<int> routes,
                          const std::map<int, std::vector<int>>& relays_of) {
  for (std::size_t k = 0; k < receivers.size(); ++k) {
    const int receiver = receivers[k], current = routes[k];
    std::vector<int> options{relay_direct_first, relay_direct_second};
    if (const auto found = relays_of.find(receiver); found != relays_of.end())
      options.insert(options.end(), found->second.begin(), found->second.end());
    double least = std::numeric_limits<double>::infinity();
    loads.move(receiver, current, -1);
    for (int option : options) {
      loads.move(receiver, option, 1);
      const double cost = loads.cost(current, option);
      loads.move(receiver, option, -1);
      if (cost < least) least = cost, routes[k] = option;
    }
    loads.move(receiver, routes[k], 1);
  }
  return routes;
}

}  // namespace cartcoll::detail
