// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Relaying through common neighbors on distributed graphs (docs/neighbor-relay.md): the block for
// an out-neighbor D goes directly, in phase 0 or phase 1, or through a relay R, an out-neighbor of
// its origin that has D as an out-neighbor, in phase 0 to R and in phase 1 from R to D, combined
// with everything else R sends D then. Which way each block goes the processes settle in a set-up
// of rounds: each tells its in-neighbors its out-neighbors, then, a third of the processes at a
// time, each reroutes its own blocks against the message counts its neighbors last reported, so
// that no process sends many messages in either phase.
#include <utility>
#include <vector>

#include "cartcoll/export.h"
#include "core/model/graph.hpp"
#include "core/planning/setup.hpp"

namespace cartcoll {

// How the block for one out-edge travels: directly in phase 0 or in phase 1, or (a rank) through
// that relay.
inline constexpr int relay_direct_first = -1, relay_direct_second = -2;

// What the set-up settled for one process, over its single edges (single_edges.hpp; repeated and
// self edges go direct in phase 0).
struct RelayPattern final : SetupResult {
  std::vector<std::pair<int, int>> routes;                // (out-neighbor, route), ascending
  std::vector<std::pair<int, std::vector<int>>> relayed;  // (in-neighbor, its receivers it relays here, ascending)
  std::vector<std::pair<int, int>> arrivals;              // (in-neighbor, the route it chose to here), ascending
  // (out-neighbor, its phase-1 messages), ascending: phase 0 sends first to the busiest of phase 1,
  // whose phase 1 starts when its last phase-0 message is in.
  std::vector<std::pair<int, int>> second_messages;
};

struct RelayParameters {
  int iterations = 9;  // rerouting turns: each process reroutes in every `classes`-th
  int classes = 3;     // process R reroutes in turn t where (R + t) % classes == 0
};

struct SimulatedRelaySetup : SetupCosts {
  std::vector<RelayPattern> patterns;  // per rank
};

// The set-up for every process of `graph`, over the simulated transport.
CARTCOLL_API SimulatedRelaySetup simulate_relay_setup(const Graph& graph, const RelayParameters& parameters);

namespace detail {
// neighbor-relay's set-up plug-in (PlannerEntry::setup).
extern const SetupPlugin relay_setup;
}  // namespace detail

}  // namespace cartcoll
