// SPDX-License-Identifier: BSD-3-Clause
// The set-ups of every process over the simulated transport: graph-combining's and graph-routing's.
#include <memory>

#include "cartcoll/error.hpp"
#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/algorithms/graph_routing/graph_routing.hpp"
#include "core/algorithms/graph_combining/combining_setup.hpp"
#include "core/algorithms/graph_routing/routing_setup.hpp"
#include "simulated_transport.hpp"

namespace cartcoll {

void validate(const CombiningParameters& parameters) {
  if (parameters.threshold < 2) throw Error(Errc::info_value, "the combining threshold must be at least 2");
  if (parameters.steps < 0) throw Error(Errc::info_value, "the number of combining steps must not be negative");
  if (parameters.candidates < 1 || parameters.matching_rounds < 1)
    throw Error(Errc::info_value, "friend matching needs at least one candidate and one round");
  if (parameters.phases < 2) throw Error(Errc::info_value, "combining needs at least two phases");
  if (parameters.node_size < 0) throw Error(Errc::info_value, "the node size must not be negative");
}

namespace {

// Every process's set-up (`make` builds one from its view) run over the simulated transport: the
// costs and each process's pattern.
template <typename Result, typename Make>
Result simulate_every_process(const Graph& graph, Make make) {
  using Setup = typename decltype(make(graph.view(0)))::element_type;
  std::vector<std::unique_ptr<Setup>> setups;
  std::vector<detail::RoundProtocol*> protocols;
  for (int rank = 0; rank < graph.size(); ++rank) {
    setups.push_back(make(graph.view(rank)));
    protocols.push_back(setups.back().get());
  }
  Result result{detail::run_simulated(protocols), {}};
  for (const auto& setup : setups) result.patterns.push_back(setup->pattern());
  return result;
}

}  // namespace

SimulatedSetup simulate_combining_setup(const Graph& graph, const CombiningParameters& parameters) {
  validate(parameters);
  return simulate_every_process<SimulatedSetup>(
      graph, [&](const GraphView& view) { return std::make_unique<detail::CombiningSetup>(view, parameters); });
}

SimulatedRouting simulate_routing_setup(const Graph& graph, int dims) {
  const std::vector<int> extents = routing_extents(graph.size(), dims);
  bool routes_alltoall = true;
  for (int rank = 0; rank < graph.size(); ++rank) routes_alltoall = routes_alltoall && detail::RoutingSetup::has_a_block(graph.view(rank));
  return simulate_every_process<SimulatedRouting>(graph, [&](const GraphView& view) {
    return std::make_unique<detail::RoutingSetup>(view, extents, routes_alltoall);
  });
}

}  // namespace cartcoll
