// SPDX-License-Identifier: BSD-3-Clause
// What the user asked for and what a request or a call allows (policy.hpp); the direct exchange, the
// one planner the policy names.
#include <cstdlib>
#include <string>

#include "cartcoll/error.hpp"
#include "policy.hpp"

namespace cartcoll::detail {

namespace {

Algorithm parse_or_throw(const std::string& name, const char* source) {
  auto algorithm = Algorithm::parse(name);
  if (!algorithm) throw Error(Errc::info_value, std::string(source) + ": unknown algorithm '" + name + "'");
  return *algorithm;
}

}  // namespace

std::optional<Algorithm> algorithm_from_environment() {
  const char* name = std::getenv("CARTCOLL_ALGORITHM");
  if (name == nullptr || *name == '\0') return std::nullopt;
  return parse_or_throw(name, "CARTCOLL_ALGORITHM");
}

std::optional<Algorithm> algorithm_from_info(MPI_Info info) {
  const auto value = info_value(info, "cartcoll_algorithm");
  if (!value) return std::nullopt;
  return parse_or_throw(*value, "info key cartcoll_algorithm");
}

Algorithm effective_algorithm(MPI_Info info, Algorithm fallback) {
  if (auto chosen = algorithm_from_environment()) return *chosen;
  if (auto chosen = algorithm_from_info(info)) return *chosen;
  return fallback;
}

std::vector<Algorithm> candidates_for_auto(Collective collective, const Neighborhood& neighborhood) {
  const CartesianNeighborhood* c = neighborhood.cartesian();
  // Nodes of one process each (one rank per cluster node) pool nothing worth a trial.
  const bool several_nodes = c != nullptr && c->node_size > 1 && c->node_size < c->grid.size();
  std::vector<Algorithm> candidates;
  for (Algorithm candidate : auto_candidates(collective, neighborhood.kind()))
    if (several_nodes || !candidate.planner().needs_nodes) candidates.push_back(candidate);
  return candidates;
}

bool may_use_nodes(Algorithm requested) { return requested.is_automatic() || requested.planner().needs_nodes; }

bool forces_nodes(Algorithm requested) { return !requested.is_automatic() && requested.planner().needs_nodes; }

bool may_run_on(Algorithm requested, NeighborhoodKind kind) {
  return requested.is_automatic() || requested.planner().serves(kind);
}

// Planners that forward (Cartesian combining, the graph set-ups') pass blocks through processes that
// size them by their own arguments: Träff and Hunold's contract makes those sizes agree. Under
// MPI's, a v or w call may size each edge differently, and a one-count alltoall or allgather ties
// only the sizes of processes that send to a common process: on a graph a set-up with restricted
// results forwards only between such processes, but a Cartesian neighborhood found in a graph or an
// MPI topology may leave classes of processes free to differ
// (CartesianNeighborhood::forwarding_may_mismatch), and a planner that needs_uniform_blocks forwards
// between processes with no edge at all. There the forwarded blocks' sizes travel with them, unless
// the user asserted that all blocks have one signature (Settings::uniform_blocks).
bool forwarded_sizes_may_differ(const CommState& state, const Layout& layout, Contract contract, Algorithm algorithm) {
  if (state.settings.uniform_blocks) return false;
  if (!algorithm.is_automatic() && algorithm.planner().needs_uniform_blocks) return true;
  const CartesianNeighborhood* cartesian = state.neighborhood.cartesian();
  const bool classes_may_differ = cartesian != nullptr && cartesian->forwarding_may_mismatch;
  return contract == Contract::mpi && (!layout.one_block_size || classes_may_differ);
}

// A planner whose schedules cannot carry sizes gives way to the direct exchange where they would
// have to. `auto` chooses there only on a graph whose verdict forwards with a planner that carries
// sizes, for the alltoall family (graph_choice gates its blocks by size); elsewhere it runs direct.
Algorithm requested_for_call(const CommState& state, const Layout& layout, Contract contract, Algorithm requested) {
  // The planner of parts plans only calls whose send blocks the init found to share bytes
  // (shared_sends_planner); everything else of such a request runs direct.
  if (!requested.is_automatic() && requested.planner().plans_shared_sends) return direct_exchange();
  if (!forwarded_sizes_may_differ(state, layout, contract, requested)) return requested;
  if (!requested.is_automatic()) return requested.planner().sizes_may_travel(state.neighborhood.kind()) ? requested : direct_exchange();
  const GraphNeighborhood* graph = state.neighborhood.graph();
  const bool gates = graph != nullptr && graph->auto_verdict && layout.collective == Collective::alltoall &&
                     graph->auto_verdict->forwarding.planner().sizes_may_travel(NeighborhoodKind::graph);
  return gates ? requested : direct_exchange();
}

bool sizes_travel(const CommState& state, const Layout& layout, Contract contract, Algorithm algorithm) {
  return !algorithm.is_automatic() && algorithm.planner().sizes_may_travel(state.neighborhood.kind()) &&
         forwarded_sizes_may_differ(state, layout, contract, algorithm);
}

bool wants_machine_profile(const Settings& settings, int processes) {
  return settings.algorithm.is_automatic() && !settings.profile && settings.machine_profile && processes > 1;
}

std::optional<Algorithm> shared_sends_planner(const CommState& state, Algorithm requested, const Layout& layout) {
  if (layout.collective != Collective::alltoall || layout.one_block_size || state.neighborhood.cartesian() == nullptr)
    return std::nullopt;
  if (!requested.is_automatic()) {
    if (requested.planner().plans_shared_sends) return requested;
    return std::nullopt;
  }
  const auto table = planners();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i].plans_shared_sends) return Algorithm::from_id(static_cast<int>(i));
  return std::nullopt;
}

std::optional<Choice> shared_sends_choice(const CommState& state, Algorithm planner, Algorithm requested,
                                          double plain_seconds, double shared_seconds) {
  if (!requested.is_automatic()) return Choice{planner, {}, DecidedBy::forced};
  if (shared_seconds < plain_seconds)
    return Choice{planner, {}, state.settings.profile ? DecidedBy::profile : DecidedBy::model};
  return std::nullopt;
}

Algorithm direct_exchange() {
  static const Algorithm direct = Algorithm::named("trivial");
  return direct;
}

}  // namespace cartcoll::detail
