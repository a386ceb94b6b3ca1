// The set-ups of every process over the simulated transport: graph-combining's and graph-routing's.
#include <memory>

#include "cartcoll/error.hpp"
#include "cartcoll/graph_combining.hpp"
#include "cartcoll/graph_routing.hpp"
#include "combining_setup.hpp"
#include "routing_setup.hpp"
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

SimulatedSetup simulate_combining_setup(const Graph& graph, const CombiningParameters& parameters) {
  validate(parameters);
  std::vector<std::unique_ptr<detail::CombiningSetup>> setups;
  std::vector<detail::RoundProtocol*> protocols;
  for (int rank = 0; rank < graph.size(); ++rank) {
    setups.push_back(std::make_unique<detail::CombiningSetup>(graph.view(rank), parameters));
    protocols.push_back(setups.back().get());
  }
  SimulatedSetup result{detail::run_simulated(protocols), {}};
  for (const auto& setup : setups) result.patterns.push_back(setup->pattern());
  return result;
}

SimulatedRouting simulate_routing_setup(const Graph& graph, int dims) {
  std::vector<int> extents = routing_extents(graph.size(), dims);
  bool routes_alltoall = true;  // every process has a block to shape temporary blocks like
  for (int rank = 0; rank < graph.size(); ++rank)
    routes_alltoall = routes_alltoall && !(graph.sources(rank).empty() && graph.destinations(rank).empty());
  std::vector<std::unique_ptr<detail::RoutingSetup>> setups;
  std::vector<detail::RoundProtocol*> protocols;
  for (int rank = 0; rank < graph.size(); ++rank) {
    setups.push_back(std::make_unique<detail::RoutingSetup>(graph.view(rank), extents, routes_alltoall));
    protocols.push_back(setups.back().get());
  }
  SimulatedRouting result{detail::run_simulated(protocols), {}};
  for (const auto& setup : setups) result.patterns.push_back(setup->pattern());
  return result;
}

}  // namespace cartcoll
