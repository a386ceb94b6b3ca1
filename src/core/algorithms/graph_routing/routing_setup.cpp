// SPDX-License-Identifier: BSD-3-Clause
#include "routing_setup.hpp"

#include <algorithm>
#include <map>

#include "cartcoll/error.hpp"
#include "core/setup/single_edges.hpp"

namespace cartcoll::detail {

RoutingSetup::RoutingSetup(const GraphView& view, std::vector<int> extents, bool routes_alltoall)
    : rank_(view.rank) {
  for (int destination : single_neighbors(view.destinations, view.rank)) held_.push_back({view.rank, destination});
  pattern_.arrivals.resize(extents.size());
  pattern_.extents = std::move(extents);
  pattern_.routes_alltoall = routes_alltoall;
}

std::vector<Parcel> RoutingSetup::outgoing(int round) {
  std::map<int, std::vector<int>> by_hop;
  std::vector<RoutedBlock> staying;
  for (const RoutedBlock& block : held_) {
    const int hop = next_hop(pattern_.extents, rank_, block.destination, round);
    if (hop == rank_) {
      staying.push_back(block);
    } else {
      by_hop[hop].insert(by_hop[hop].end(), {block.origin, block.destination});
    }
  }
  held_ = std::move(staying);
  std::vector<Parcel> parcels;
  for (auto& [hop, values] : by_hop) parcels.push_back({hop, std::move(values)});
  return parcels;
}

void RoutingSetup::incoming(int round, std::vector<Parcel> parcels) {
  for (const Parcel& parcel : parcels) {
    if (parcel.values.size() % 2 != 0) throw Error(Errc::intern, "a routing parcel that is not (origin, destination) pairs");
    RoutedArrival arrival{parcel.peer, {}};
    for (std::size_t i = 0; i < parcel.values.size(); i += 2) {
      const RoutedBlock block{parcel.values[i], parcel.values[i + 1]};
      arrival.blocks.push_back(block);
      if (block.destination != rank_) held_.push_back(block);
    }
    pattern_.arrivals[static_cast<std::size_t>(round)].push_back(std::move(arrival));
  }
  std::sort(held_.begin(), held_.end());
}

}  // namespace cartcoll::detail
