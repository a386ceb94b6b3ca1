// SPDX-License-Identifier: BSD-3-Clause
// graph-routing's set-up for every process of a graph, over the simulated transport.
#include "core/setup/simulate_every_process.hpp"
#include "graph_routing.hpp"
#include "routing_setup.hpp"

namespace cartcoll {

SimulatedRouting simulate_routing_setup(const Graph& graph, int dims) {
  const std::vector<int> extents = routing_extents(graph.size(), dims);
  bool routes_alltoall = true;
  for (int rank = 0; rank < graph.size(); ++rank) routes_alltoall = routes_alltoall && detail::RoutingSetup::has_a_block(graph.view(rank));
  return detail::simulate_every_process<SimulatedRouting>(graph, [&](const GraphView& view) {
    return std::make_unique<detail::RoutingSetup>(view, extents, routes_alltoall);
  });
}

}  // namespace cartcoll
