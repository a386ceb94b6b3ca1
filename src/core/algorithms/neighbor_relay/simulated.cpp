// SPDX-License-Identifier: BSD-3-Clause
// neighbor-relay's set-up for every process of a graph, over the simulated transport.
#include "cartcoll/error.hpp"
#include "core/setup/simulate_every_process.hpp"
#include "neighbor_relay.hpp"
#include "relay_setup.hpp"

namespace cartcoll {

SimulatedRelaySetup simulate_relay_setup(const Graph& graph, const RelayParameters& parameters) {
  if (parameters.iterations < 0 || parameters.classes < 1)
    throw Error(Errc::info_value, "neighbor-relay needs no negative turns and at least one class");
  return detail::simulate_every_process<SimulatedRelaySetup>(
      graph, [&](const GraphView& view) { return std::make_unique<detail::RelaySetup>(view, parameters); });
}

}  // namespace cartcoll
