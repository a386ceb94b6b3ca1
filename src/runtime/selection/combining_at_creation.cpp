// SPDX-License-Identifier: BSD-3-Clause
#include "combining_at_creation.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/exec/mpi_check.hpp"
#include "core/algorithms/graph_combining/combining_setup.hpp"
#include "core/setup/lockstep.hpp"
#include "runtime/setup/mpi_transport.hpp"
#include "core/algorithms/graph_routing/routing_setup.hpp"
#include "core/setup/single_edges.hpp"
#include "core/planning/cost.hpp"
#include "runtime/comm/cartesian_detection.hpp"
#include "runtime/comm/collective.hpp"
#include "runtime/comm/library_comm.hpp"

namespace cartcoll::detail {

namespace {

// The first registered planner that serves graphs and needs `what` of the set-ups: graph-combining's
// pattern (node-combining, registered after it, is the same with friends within a node) or
// graph-routing's.
std::optional<Algorithm> first_planner(bool PlannerEntry::*what) {
  const auto table = planners();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i].*what && table[i].serves(NeighborhoodKind::graph)) return Algorithm::from_id(static_cast<int>(i));
  return std::nullopt;
}

// Whether the set-ups run: always for a forced planner that needs one; under `auto` where processes
// have on average 2Θ single out-neighbors or more, so that friends sharing Θ of them can be common
// (collective: one allreduce, so all decide alike). Sparser graphs (PETSc's, a ring) pay nothing.
bool runs_setup(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors, const Settings& settings) {
  if (!settings.algorithm.is_automatic())
    return settings.algorithm.planner().needs_setup || settings.algorithm.planner().needs_routing;
  if (!first_planner(&PlannerEntry::needs_setup)) return false;
  long long total = static_cast<long long>(single_neighbors(neighbors.destinations, rank).size());
  allreduce_sum(graph, std::span<long long>(&total, 1));
  return total >= 2LL * settings.combining.threshold * neighbors.size;
}

// The grids graph-routing may use: the one CARTCOLL_ROUTING_DIMS gives, or for a forced planner the
// default's; under `auto` without one, the default's and those of one dimension fewer and more, so
// that the model picks the balance of messages and phases (docs/graph-routing.md, "The grid"). A
// grid of one extent is the direct exchange with extra steps: never a candidate. Equal on all
// processes (from p and agreed settings).
std::vector<std::vector<int>> routing_grids(int size, const Settings& settings) {
  const int dims = settings.routing.dims > 0 ? settings.routing.dims : default_routing_dims(size);
  if (settings.routing.dims > 0 || !settings.algorithm.is_automatic()) return {routing_extents(size, dims)};
  std::vector<std::vector<int>> grids;
  for (int d = std::max(1, dims - 1); d <= dims + 1; ++d)
    if (auto extents = routing_extents(size, d); extents.size() > 1 && std::find(grids.begin(), grids.end(), extents) == grids.end())
      grids.push_back(std::move(extents));
  return grids;
}

// The routing set-up of this process on each of `grids`, with whether alltoall is routed (every
// process has a block: one allreduce).
std::vector<std::unique_ptr<RoutingSetup>> routing_setups(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors,
                                                          const std::vector<std::vector<int>>& grids) {
  if (grids.empty()) return {};
  const GraphView view{rank, neighbors.size, neighbors.sources, neighbors.destinations};
  int without_blocks = RoutingSetup::has_a_block(view) ? 0 : 1;
  allreduce_max(graph, std::span<int>(&without_blocks, 1));
  std::vector<std::unique_ptr<RoutingSetup>> setups;
  for (const std::vector<int>& extents : grids)
    setups.push_back(std::make_unique<RoutingSetup>(view, extents, without_blocks == 0));
  return setups;
}

// What the set-ups found: graph-combining's pattern per phase budget asked for, and the routing
// pattern per grid asked for.
struct SetupResults {
  std::vector<std::shared_ptr<const CombiningPattern>> patterns;
  std::vector<std::shared_ptr<const RoutingPattern>> routings;
};

// graph-combining's set-up once for each of `budgets` (phase budgets) and the routing set-up once for
// each of `grids`, all in lockstep: the rounds of the longest, at most one message a peer a round.
SetupResults run_setups(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors, const Settings& settings,
                        std::span<const int> budgets, const std::vector<std::vector<int>>& grids) {
  std::vector<std::unique_ptr<CombiningSetup>> setups;
  std::vector<RoundProtocol*> protocols;
  for (int budget : budgets) {
    CombiningParameters with_budget = settings.combining;
    with_budget.phases = budget;
    setups.push_back(std::make_unique<CombiningSetup>(
        GraphView{rank, neighbors.size, neighbors.sources, neighbors.destinations}, with_budget));
    protocols.push_back(setups.back().get());
  }
  const auto routings = routing_setups(graph, rank, neighbors, grids);
  for (const auto& routing : routings) protocols.push_back(routing.get());
  const LibraryComm scratch(graph);  // the set-up's messages never meet the user's
  if (protocols.size() == 1) {
    run_over_mpi(scratch.get(), *protocols.front());
  } else {
    LockstepProtocols lockstep(protocols);
    run_over_mpi(scratch.get(), lockstep);
  }
  SetupResults results;
  for (const auto& setup : setups) results.patterns.push_back(std::make_shared<const CombiningPattern>(setup->pattern()));
  for (const auto& routing : routings) results.routings.push_back(std::make_shared<const RoutingPattern>(routing->pattern()));
  return results;
}

int blocks_sent(const Figures& figures) {
  return std::accumulate(figures.sends_of_send_block.begin(), figures.sends_of_send_block.end(), 0) +
         std::accumulate(figures.sends_of_recv_block.begin(), figures.sends_of_recv_block.end(), 0);
}

// `algorithm`'s load for alltoall, then allgather, on this process: messages per phase and in all,
// blocks sent.
std::array<GraphLoad, 2> loads_of(const Neighborhood& neighborhood, Algorithm algorithm, int rank) {
  std::array<GraphLoad, 2> loads;
  for (Collective collective : {Collective::alltoall, Collective::allgather}) {
    Figures f = neighborhood.figures(algorithm, collective, rank);
    loads[static_cast<std::size_t>(collective)] = {std::move(f.messages_per_phase), f.messages, blocks_sent(f)};
  }
  return loads;
}

// Every load replaced by its maxima over processes, phase by phase (agreed: one allreduce). A
// schedule has at most `phases` phases (the largest budget: rule 67), which all processes know; were
// one longer, its extra phases would count into the last slot, rather than one process failing alone
// before a collective call.
void agree_on_maxima(MPI_Comm graph, std::span<std::array<GraphLoad, 2>> loads, int phases) {
  const auto slots = static_cast<std::size_t>(phases);
  std::vector<int> values;
  for (const auto& both : loads)
    for (const GraphLoad& load : both) {
      std::vector<int> padded = load.messages_per_phase;
      padded.resize(std::max(padded.size(), slots), 0);
      padded[slots - 1] = *std::max_element(padded.begin() + static_cast<std::ptrdiff_t>(slots - 1), padded.end());
      padded.resize(slots);
      values.insert(values.end(), padded.begin(), padded.end());
      values.insert(values.end(), {load.messages, load.blocks_sent});
    }
  allreduce_max(graph, values);
  auto value = values.begin();
  for (auto& both : loads)
    for (GraphLoad& load : both) {
      const auto end_of_phases = value + static_cast<std::ptrdiff_t>(slots);
      load.messages_per_phase.assign(value, end_of_phases);
      load.messages = end_of_phases[0];
      load.blocks_sent = end_of_phases[1];
      value = end_of_phases + 2;
    }
}

// The largest block for which the model predicts `combined` faster than `direct` for the slowest
// process: combining saves latencies and messages at no bytes and pays for the blocks it forwards
// per byte. -1 where it saves nothing.
long long largest_block_combined(const GraphLoad& direct, const GraphLoad& combined, const CostModel& model) {
  const double saved = predicted_seconds(direct, model, 0) - predicted_seconds(combined, model, 0);
  const double extra_bytes_per_block_byte = combined.blocks_sent - direct.blocks_sent;
  if (saved <= 0) return -1;
  if (extra_bytes_per_block_byte <= 0 || model.per_byte <= 0) return std::numeric_limits<long long>::max();
  return static_cast<long long>(std::min(saved / (extra_bytes_per_block_byte * model.per_byte), 0x1p62));
}

// The phase budgets `auto` chooses between when the user gave none: Mirsadeghi et al.'s (Exploiting
// Common Neighborhoods) combining and one round of cumulative combining. Their set-ups run in
// lockstep, so each costs bytes and compute, not rounds. 6 would save a process about a quarter as
// many messages again as 4 saves over 2, for two more phases (docs/graph-combining.md, "Choosing
// the phase budget").
constexpr std::array<int, 2> budget_candidates{2, 4};

// The model's time for the slowest process, alltoall and allgather together, at 8-byte blocks (the
// smallest the trial measures), each collective run by the faster of `direct` and `combined` there.
double seconds_with_the_better_of(const std::array<GraphLoad, 2>& direct, const std::array<GraphLoad, 2>& combined,
                                  const CostModel& model) {
  double seconds = 0;
  for (std::size_t c = 0; c < 2; ++c)
    seconds += std::min(predicted_seconds(direct[c], model, 8), predicted_seconds(combined[c], model, 8));
  return seconds;
}

// A schedule `auto` may keep on a graph: graph-combining with one phase budget's pattern, or
// graph-routing with the routing pattern.
struct Candidate {
  Algorithm algorithm;
  std::shared_ptr<const CombiningPattern> pattern;
  std::shared_ptr<const RoutingPattern> routing;
  std::string label;  // for CARTCOLL_VERBOSE_AUTO
};

std::vector<Candidate> candidates_of(const SetupResults& results, std::span<const int> budgets) {
  std::vector<Candidate> candidates;
  for (std::size_t b = 0; b < budgets.size(); ++b)
    candidates.push_back({*first_planner(&PlannerEntry::needs_setup), results.patterns[b], nullptr,
                          "graph-combining, budget " + std::to_string(budgets[b])});
  for (const auto& routing : results.routings) {
    std::string grid;
    for (int extent : routing->extents) grid += (grid.empty() ? "" : "x") + std::to_string(extent);
    candidates.push_back({*first_planner(&PlannerEntry::needs_routing), nullptr, routing, "graph-routing on " + grid});
  }
  return candidates;
}

// CARTCOLL_VERBOSE_AUTO's line for the candidate chosen.
void report_candidates(std::span<const Candidate> candidates, std::span<const double> predicted, std::size_t chosen) {
  std::ostringstream line;
  line << "cartcoll auto: on this graph by the model, slowest process at 8-byte blocks:";
  for (std::size_t c = 0; c < predicted.size(); ++c) line << ' ' << candidates[c].label << ": " << predicted[c] * 1e6 << " us;";
  line << " chose " << candidates[chosen].label << '\n';
  std::fputs(line.str().c_str(), stderr);
}

// The most phases any candidate's schedule may have: the largest budget (rule 67), the grids' dimensions.
int most_phases(std::span<const int> budgets, const SetupResults& results) {
  int phases = *std::max_element(budgets.begin(), budgets.end());
  for (const auto& routing : results.routings) phases = std::max(phases, static_cast<int>(routing->extents.size()));
  return phases;
}

// `auto`'s decision on a graph where the set-up runs: graph-combining's set-up for each phase budget
// (the one given, else each candidate) and, where blocks are asserted uniform, the routing set-up for
// each grid (routing_grids), in lockstep; then one allreduce of every schedule's load. The schedule kept is the one the model
// predicts fastest (a tie keeps the earlier: the smaller budget, combining before routing); the
// verdict per collective is the largest block for which the model predicts it faster than the direct
// exchange.
void decide_automatically(MPI_Comm graph, int rank, GraphNeighborhood& neighbors, const Settings& settings) {
  std::vector<int> budgets{settings.combining.phases};
  if (settings.choose_phase_budget) budgets.assign(budget_candidates.begin(), budget_candidates.end());
  const Algorithm direct = Algorithm::named("trivial");
  std::vector<std::array<GraphLoad, 2>> loads{loads_of(Neighborhood(neighbors), direct, rank)};
  const auto grids = settings.routing.uniform_blocks ? routing_grids(neighbors.size, settings) : std::vector<std::vector<int>>{};
  const SetupResults results = run_setups(graph, rank, neighbors, settings, budgets, grids);
  const std::vector<Candidate> candidates = candidates_of(results, budgets);
  for (const Candidate& candidate : candidates) {
    neighbors.pattern = candidate.pattern;
    neighbors.routing = candidate.routing;
    loads.push_back(loads_of(Neighborhood(neighbors), candidate.algorithm, rank));
  }
  agree_on_maxima(graph, loads, most_phases(budgets, results));
  const CostModel model = settings.profile.value_or(CostModel{});
  std::vector<double> predicted;
  for (std::size_t c = 0; c < candidates.size(); ++c)
    predicted.push_back(seconds_with_the_better_of(loads[0], loads[c + 1], model));
  std::size_t best = 0;  // a later candidate must be faster by more than rounding
  for (std::size_t c = 1; c < candidates.size(); ++c)
    if (predicted[c] < predicted[best] * (1 - 1e-9)) best = c;
  if (rank == 0 && settings.verbose_auto && candidates.size() > 1) report_candidates(candidates, predicted, best);
  std::array<long long, 2> up_to{};
  for (std::size_t c = 0; c < 2; ++c) up_to[c] = largest_block_combined(loads[0][c], loads[best + 1][c], model);
  neighbors.pattern = candidates[best].pattern;
  neighbors.routing = candidates[best].routing;
  neighbors.auto_combining = CombiningVerdict{direct, candidates[best].algorithm, up_to};
}

}  // namespace

Neighborhood neighborhood_at_creation(MPI_Comm parent, MPI_Comm graph, int rank, GraphNeighborhood neighbors,
                                      const Settings& settings) {
  Neighborhood detected = detected_or_graph(parent, graph, neighbors, settings.algorithm);
  if (const CartesianNeighborhood* cartesian = detected.cartesian()) {
    if (settings.combining.node_size == 0) return detected;
    CartesianNeighborhood on_nodes = *cartesian;  // forced node-combining plans the Cartesian way
    on_nodes.node_size = settings.combining.node_size;
    return Neighborhood(std::move(on_nodes));
  }
  if (!runs_setup(graph, rank, neighbors, settings)) return detected;
  if (settings.algorithm.is_automatic()) {
    decide_automatically(graph, rank, neighbors, settings);
  } else if (settings.algorithm.planner().needs_routing) {
    neighbors.routing = run_setups(graph, rank, neighbors, settings, {}, routing_grids(neighbors.size, settings)).routings.front();
  } else {
    const int given[] = {settings.combining.phases};
    neighbors.pattern = run_setups(graph, rank, neighbors, settings, given, {}).patterns.front();
  }
  return Neighborhood(std::move(neighbors));
}

}  // namespace cartcoll::detail
