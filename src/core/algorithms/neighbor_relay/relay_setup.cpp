// SPDX-License-Identifier: BSD-3-Clause
#include "relay_setup.hpp"

#include <algorithm>

#include "cartcoll/error.hpp"
#include "core/setup/single_edges.hpp"

namespace cartcoll::detail {

RelaySetup::RelaySetup(const GraphView& view, const RelayParameters& parameters)
    : rank_(view.rank),
      parameters_(parameters),
      out_(single_neighbors(view.destinations, view.rank)),
      in_(single_neighbors(view.sources, view.rank)),
      routes_(out_.size(), relay_direct_first) {
  for (int from : in_) arrivals_[from] = relay_direct_first;
}

std::map<int, int> RelaySetup::first_blocks() const {
  std::map<int, int> blocks;
  for (std::size_t k = 0; k < out_.size(); ++k) ++blocks[routes_[k] == relay_direct_first ? out_[k] : routes_[k]];
  blocks.erase(relay_direct_second);
  return blocks;
}

std::map<int, int> RelaySetup::second_blocks() const {
  std::map<int, int> blocks;
  for (std::size_t k = 0; k < out_.size(); ++k)
    if (routes_[k] == relay_direct_second) ++blocks[out_[k]];
  for (const auto& [from, receivers] : relayed_)
    for (int receiver : receivers) ++blocks[receiver];
  return blocks;
}

void RelaySetup::reroute() {
  RelayLoads loads(rank_, first_blocks(), second_blocks(), loads_);
  routes_ = rerouted(std::move(loads), out_, routes_, relays_of_);
}

std::vector<Parcel> RelaySetup::outgoing(int round) {
  std::vector<Parcel> parcels;
  if (round == 0) {
    for (int to : in_) {
      parcels.push_back({to, {out_list}});
      parcels.back().values.insert(parcels.back().values.end(), out_.begin(), out_.end());
    }
  } else if (round % 2 == 1) {
    std::vector<int> values{load_list, static_cast<int>(first_blocks().size())};
    for (const auto& [receiver, count] : second_blocks()) values.insert(values.end(), {receiver, count});
    for (int to : in_) parcels.push_back({to, values});
  } else {
    const int turn = round / 2 - 1;
    if ((rank_ + turn) % parameters_.classes == 0) reroute();
    std::map<int, std::vector<int>> through;  // relay -> receivers relayed there
    for (std::size_t k = 0; k < out_.size(); ++k)
      if (routes_[k] >= 0) through[routes_[k]].push_back(out_[k]);
    for (std::size_t k = 0; k < out_.size(); ++k) {
      parcels.push_back({out_[k], {route_list, routes_[k]}});
      const std::vector<int>& relayed = through[out_[k]];
      parcels.back().values.insert(parcels.back().values.end(), relayed.begin(), relayed.end());
    }
  }
  return parcels;
}

void RelaySetup::incoming(int round, std::vector<Parcel> parcels) {
  for (Parcel& parcel : parcels) {
    const std::vector<int>& values = parcel.values;
    if (round == 0 && values.front() == out_list) {
      for (auto at = values.begin() + 1; at != values.end(); ++at)
        if (*at != rank_ && *at != parcel.peer && std::binary_search(out_.begin(), out_.end(), *at))
          relays_of_[*at].push_back(parcel.peer);
    } else if (round % 2 == 1 && values.size() >= 2 && values.front() == load_list) {
      NeighborLoads& loads = loads_[parcel.peer];
      loads = {values[1], {}};
      for (std::size_t k = 2; k + 1 < values.size(); k += 2) loads.second[values[k]] = values[k + 1];
    } else if (round % 2 == 0 && values.size() >= 2 && values.front() == route_list) {
      arrivals_[parcel.peer] = values[1];
      std::vector<int> relayed(values.begin() + 2, values.end());
      if (relayed.empty()) relayed_.erase(parcel.peer);
      else relayed_[parcel.peer] = std::move(relayed);
    } else {
      throw Error(Errc::intern, "neighbor-relay's set-up got a parcel out of turn");
    }
  }
}

RelayPattern RelaySetup::pattern() const {
  RelayPattern pattern;
  for (std::size_t k = 0; k < out_.size(); ++k) pattern.routes.emplace_back(out_[k], routes_[k]);
  pattern.relayed.assign(relayed_.begin(), relayed_.end());
  pattern.arrivals.assign(arrivals_.begin(), arrivals_.end());
  for (int to : out_) {
    const auto found = loads_.find(to);
    pattern.second_messages.emplace_back(to, found != loads_.end() ? static_cast<int>(found->second.second.size()) : 0);
  }
  return pattern;
}

}  // namespace cartcoll::detail
