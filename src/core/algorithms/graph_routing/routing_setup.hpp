// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The routing set-up (core/algorithms/graph_routing/graph_routing.hpp) as one process's round protocol: one round per
// grid dimension. In round k a process sends every block it holds whose destination differs from
// it in coordinate k to the process with that coordinate corrected, as (origin, destination) pairs
// in ascending order: exactly the messages of the schedule's phase k, carrying names instead of
// data. What arrives is the process's arrivals of phase k; the blocks not yet at their destination
// stay held. Only single edges (single_edges.hpp) are routed.
#include <vector>

#include "core/model/graph.hpp"
#include "graph_routing.hpp"
#include "core/setup/transport.hpp"

namespace cartcoll::detail {

class RoutingSetup final : public RoundProtocol {
 public:
  // routes_alltoall: RoutingPattern's, agreed by the caller.
  RoutingSetup(const GraphView& view, std::vector<int> extents, bool routes_alltoall);

  int rounds() const override { return static_cast<int>(pattern_.extents.size()); }
  std::vector<Parcel> outgoing(int round) override;
  void incoming(int round, std::vector<Parcel> parcels) override;

  const RoutingPattern& pattern() const { return pattern_; }

  // Whether the process has a block in an alltoall, a send or a receive block, to shape the temporary
  // blocks it forwards like: alltoall is routed only where every process has one (routes_alltoall).
  static bool has_a_block(const GraphView& view) { return !view.sources.empty() || !view.destinations.empty(); }

 private:
  int rank_;
  std::vector<RoutedBlock> held_;  // ascending: blocks here and not for this process
  RoutingPattern pattern_;
};

}  // namespace cartcoll::detail
