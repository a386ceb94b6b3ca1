// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A set-up of every process of a graph run over the simulated transport, for the tools and tests:
// the costs, and each process's result.
#include <memory>
#include <vector>

#include "core/model/graph.hpp"
#include "core/planning/setup.hpp"
#include "simulated_transport.hpp"

namespace cartcoll::detail {

// `Result` holds SetupCosts and `patterns`, one per rank; `make` builds a process's set-up protocol
// (with a pattern()) from its view.
template <typename Result, typename Make>
Result simulate_every_process(const Graph& graph, Make make) {
  using Setup = typename decltype(make(graph.view(0)))::element_type;
  std::vector<std::unique_ptr<Setup>> setups;
  std::vector<RoundProtocol*> protocols;
  for (int rank = 0; rank < graph.size(); ++rank) {
    setups.push_back(make(graph.view(rank)));
    protocols.push_back(setups.back().get());
  }
  Result result{run_simulated(protocols), {}};
  for (const auto& setup : setups) result.patterns.push_back(setup->pattern());
  return result;
}

}  // namespace cartcoll::detail
