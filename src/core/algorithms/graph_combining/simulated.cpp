// SPDX-License-Identifier: BSD-3-Clause
// graph-combining's set-up for every process of a graph, over the simulated transport.
#include "cartcoll/error.hpp"
#include "combining_setup.hpp"
#include "core/setup/simulate_every_process.hpp"
#include "graph_combining.hpp"

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
  return detail::simulate_every_process<SimulatedSetup>(
      graph, [&](const GraphView& view) { return std::make_unique<detail::CombiningSetup>(view, parameters); });
}

}  // namespace cartcoll
