// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// neighbor-relay's set-up as one process's round protocol, over its single edges:
//   round 0:       it tells each in-neighbor its out-neighbors (the receivers it could relay to);
//   per turn t, two rounds:
//     loads:       it tells each in-neighbor its phase-0 message count and its phase-1 blocks by
//                  receiver (its own direct ones and those it relays);
//     routes:      where (rank + t) % classes == 0 it reroutes its blocks against those counts
//                  (relay_loads.hpp); every process tells each out-neighbor how its block there
//                  travels and which of its blocks that neighbor relays;
//   a last loads round, from which each process orders its phase-0 sends.
// Every process starts with every block direct in phase 0.
#include <map>
#include <vector>

#include "core/model/graph.hpp"
#include "core/setup/transport.hpp"
#include "neighbor_relay.hpp"
#include "relay_loads.hpp"

namespace cartcoll::detail {

class RelaySetup final : public RoundProtocol {
 public:
  RelaySetup(const GraphView& view, const RelayParameters& parameters);

  int rounds() const override { return 2 + 2 * parameters_.iterations; }
  std::vector<Parcel> outgoing(int round) override;
  void incoming(int round, std::vector<Parcel> parcels) override;

  RelayPattern pattern() const;

  // A parcel's first value.
  static constexpr int out_list = 1, load_list = 2, route_list = 3;

 private:
  std::map<int, int> first_blocks() const;   // this process's phase-0 blocks by receiver
  std::map<int, int> second_blocks() const;  // its phase-1 blocks by receiver, relayed ones included
  void reroute();

  int rank_;
  RelayParameters parameters_;
  std::vector<int> out_, in_;                       // single neighbors, ascending
  std::vector<int> routes_;                         // per out_
  std::map<int, std::vector<int>> relays_of_;       // receiver -> out-neighbors that reach it
  std::map<int, NeighborLoads> loads_;              // by out-neighbor, as last reported
  std::map<int, std::vector<int>> relayed_;         // by in-neighbor: its receivers relayed here
  std::map<int, int> arrivals_;                     // by in-neighbor: the route of its block to here
};

}  // namespace cartcoll::detail
