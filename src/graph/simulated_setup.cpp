// simulate_combining_setup: every process's CombiningSetup over the simulated transport.
#include <memory>

#include "cartcoll/error.hpp"
#include "cartcoll/graph_combining.hpp"
#include "combining_setup.hpp"
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
  detail::SimulatedRun run = detail::run_simulated(protocols);
  SimulatedSetup result;
  for (const auto& setup : setups) result.patterns.push_back(setup->pattern());
  result.traffic = std::move(run.traffic);
  result.round_seconds = std::move(run.round_seconds);
  result.round_messages = std::move(run.round_messages);
  result.round_bytes = std::move(run.round_bytes);
  return result;
}

}  // namespace cartcoll
