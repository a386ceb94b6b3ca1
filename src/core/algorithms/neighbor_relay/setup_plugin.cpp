// SPDX-License-Identifier: BSD-3-Clause
// neighbor-relay's set-up as its planner's plug-in (core/planning/setup.hpp).
#include <array>

#include "neighbor_relay.hpp"
#include "relay_setup.hpp"

namespace cartcoll::detail {

namespace {

// CARTCOLL_RELAY_ITERATIONS: the rerouting turns (docs/neighbor-relay.md).
constexpr RelayParameters defaults{};
constexpr std::array parameters{SetupParameter{"relay_iterations", defaults.iterations, 0}};

std::vector<long long> contributions(const GraphView&) { return {}; }

// One run where the algorithm is asked for; none under `auto`, which does not weigh it.
std::vector<std::unique_ptr<SetupRun>> runs(const SetupInput& input) {
  std::vector<std::unique_ptr<SetupRun>> made;
  if (input.automatic) return made;
  RelayParameters chosen;
  chosen.iterations = input.parameters[0];
  made.push_back(protocol_run<RelayPattern>(std::make_unique<RelaySetup>(input.view, chosen), "neighbor-relay", 2));
  return made;
}

// The relays expect every origin's blocks: all processes relay or none.
std::shared_ptr<const SetupResult> restricted(const SetupResult&, CombinedSides) { return nullptr; }

}  // namespace

extern const SetupPlugin relay_setup{parameters, contributions, runs, restricted};

}  // namespace cartcoll::detail
