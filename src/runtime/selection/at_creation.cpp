// SPDX-License-Identifier: BSD-3-Clause
// `auto` and forced planners at a graph's creation (policy.hpp): the set-ups the planners need, run
// in lockstep over MPI, and under `auto` the candidate the cost model prefers, agreed.
#include "policy.hpp"

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
#include "core/setup/lockstep.hpp"
#include "runtime/setup/mpi_transport.hpp"
#include "core/planning/cost.hpp"
#include "runtime/comm/cartesian_detection.hpp"
#include "runtime/comm/collective.hpp"
#include "runtime/comm/library_comm.hpp"

namespace cartcoll::detail {

namespace {

// The planners whose set-ups run at this creation: the forced one, if it has a set-up; under `auto`
// every planner that serves graphs with a set-up, that `auto` may run here (one needing uniform
// blocks only where they are asserted, one needing nodes never: it is forced or not run) and whose
// set-up an earlier one does not already run.
std::vector<Algorithm> planners_with_setups(const Settings& settings) {
  if (!settings.algorithm.is_automatic()) {
    if (settings.algorithm.planner().setup == nullptr) return {};
    return {settings.algorithm};
  }
  std::vector<Algorithm> chosen;
  std::vector<const SetupPlugin*> seen;
  const auto table = planners();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const PlannerEntry& planner = table[i];
    if (planner.setup == nullptr || !planner.serves(NeighborhoodKind::graph) || planner.needs_nodes) continue;
    if (planner.needs_uniform_blocks && !settings.uniform_blocks) continue;
    if (std::find(seen.begin(), seen.end(), planner.setup) != seen.end()) continue;
    seen.push_back(planner.setup);
    chosen.push_back(Algorithm::from_id(static_cast<int>(i)));
  }
  return chosen;
}

// One run of a planner's set-up, with the planner it serves.
struct PlannedRun {
  Algorithm algorithm;
  std::unique_ptr<SetupRun> run;
};

// Every run of the set-ups of `chosen` on this process, from their contributions' agreed totals
// (`totals`, per planner of planners()), so that each decides alike how many runs it makes.
std::vector<PlannedRun> setup_runs(const GraphView& view, const Settings& settings, std::span<const Algorithm> chosen,
                                   std::span<const std::vector<long long>> totals) {
  std::vector<PlannedRun> runs;
  for (const Algorithm algorithm : chosen) {
    const PlannerEntry& planner = algorithm.planner();
    const auto id = static_cast<std::size_t>(algorithm.id());
    const SetupInput input{view, settings.setup_parameters[id], planner.needs_nodes ? settings.graph_node_size : 0,
                           settings.algorithm.is_automatic(), totals[id]};
    for (std::unique_ptr<SetupRun>& run : planner.setup->runs(input)) runs.push_back({algorithm, std::move(run)});
  }
  return runs;
}

// Runs every set-up run in lockstep over MPI (the rounds of the longest, at most one message a peer a
// round); the results, in the order of `runs`. The messages never meet the user's: they go over
// `library` (the communicator's own, which carries nothing else before every process has received
// all of them), else over a duplicate of `graph`.
std::vector<std::shared_ptr<const SetupResult>> run_setups(MPI_Comm graph, std::span<const PlannedRun> runs,
                                                           LibraryComm* library) {
  std::vector<RoundProtocol*> protocols;
  for (const PlannedRun& planned : runs) protocols.push_back(&planned.run->protocol());
  std::optional<LibraryComm> scratch;
  if (library == nullptr) scratch.emplace(graph);
  const MPI_Comm comm = library != nullptr ? library->ready() : scratch->get();
  if (protocols.size() == 1) {
    run_over_mpi(comm, *protocols.front());
  } else {
    LockstepProtocols lockstep(protocols);
    run_over_mpi(comm, lockstep);
  }
  std::vector<std::shared_ptr<const SetupResult>> results;
  for (const PlannedRun& planned : runs) results.push_back(planned.run->result());
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

// The largest block worth forwarding, -1 where `combined` saves nothing against `direct` for the
// slowest process at no bytes. A forwarded block crosses the network twice and is copied three
// times (packed by its origin, into its forwarder's message, out by its receiver), where sent
// straight it leaves once from where it lies: four times its bytes at per_byte each (a copy costs
// about what the network does per byte, so the model needs no figure of its own for it). Sent
// straight it costs one message more, which both its ends pay for (the sender's overhead and the
// receiver's), and forwarding it saves at most that one: so a block is forwarded while four times
// its bytes cost less than two messages' overheads.
long long largest_block_combined(const GraphLoad& direct, const GraphLoad& combined, const CostModel& model) {
  constexpr double bytes_per_forwarded_byte = 4;
  if (predicted_seconds(direct, model, 0) <= predicted_seconds(combined, model, 0)) return -1;
  if (model.per_byte <= 0) return std::numeric_limits<long long>::max();
  return static_cast<long long>(std::min(2 * model.per_message / (bytes_per_forwarded_byte * model.per_byte), 0x1p62));
}

// The model's time for the slowest process, alltoall and allgather together, at 8-byte blocks (the
// smallest the trial measures), each collective run by the faster of `direct` and `combined` there.
double seconds_with_the_better_of(const std::array<GraphLoad, 2>& direct, const std::array<GraphLoad, 2>& combined,
                                  const CostModel& model) {
  double seconds = 0;
  for (std::size_t c = 0; c < 2; ++c)
    seconds += std::min(predicted_seconds(direct[c], model, 8), predicted_seconds(combined[c], model, 8));
  return seconds;
}

// CARTCOLL_VERBOSE_AUTO's line for the candidate chosen.
void report_candidates(std::span<const PlannedRun> runs, std::span<const double> predicted, std::size_t chosen) {
  std::ostringstream line;
  line << "cartcoll auto: on this graph by the model, slowest process at 8-byte blocks:";
  for (std::size_t c = 0; c < predicted.size(); ++c) line << ' ' << runs[c].run->label << ": " << predicted[c] * 1e6 << " us;";
  line << " chose " << runs[chosen].run->label << '\n';
  std::fputs(line.str().c_str(), stderr);
}

// `auto`'s decision on a graph where set-ups ran: one allreduce of every candidate schedule's load
// (each run's result planned by its planner). The schedule kept is the one the model predicts
// fastest (a tie keeps the earlier: registration order, then the set-up's order of its runs); the
// verdict per collective is the largest block for which the model predicts it faster than the direct
// exchange.
void decide_automatically(MPI_Comm graph, int rank, GraphNeighborhood& neighbors, const Settings& settings,
                          std::span<const PlannedRun> runs, std::span<const std::shared_ptr<const SetupResult>> results) {
  const Algorithm direct = direct_exchange();
  std::vector<std::array<GraphLoad, 2>> loads{loads_of(Neighborhood(neighbors), direct, rank)};
  int phases = 1;
  for (std::size_t c = 0; c < runs.size(); ++c) {
    neighbors.setup = results[c];
    loads.push_back(loads_of(Neighborhood(neighbors), runs[c].algorithm, rank));
    phases = std::max(phases, runs[c].run->most_phases);
  }
  agree_on_maxima(graph, loads, phases);
  const CostModel model = settings.profile.value_or(settings.machine.value_or(CostModel{}));
  std::vector<double> predicted;
  for (std::size_t c = 0; c < runs.size(); ++c) predicted.push_back(seconds_with_the_better_of(loads[0], loads[c + 1], model));
  std::size_t best = 0;  // a later candidate must be faster by more than rounding
  for (std::size_t c = 1; c < runs.size(); ++c)
    if (predicted[c] < predicted[best] * (1 - 1e-9)) best = c;
  if (rank == 0 && settings.verbose_auto && runs.size() > 1) report_candidates(runs, predicted, best);
  std::array<long long, 2> up_to{};
  for (std::size_t c = 0; c < 2; ++c) up_to[c] = largest_block_combined(loads[0][c], loads[best + 1][c], model);
  if (rank == 0 && settings.verbose_auto)
    std::fprintf(stderr, "cartcoll auto: forwards blocks of up to %lld bytes (alltoall), %lld (allgather)\n", up_to[0],
                 up_to[1]);
  neighbors.setup = results[best];
  neighbors.auto_verdict = ForwardingVerdict{direct, runs[best].algorithm, up_to};
}

}  // namespace

CreationSteps::CreationSteps(MPI_Comm parent, MPI_Comm graph, int rank, const GraphNeighborhood& neighbors,
                             const Settings& local)
    : detection_(parent, graph, neighbors, local.algorithm), rank_(rank) {
  const GraphView view{rank, neighbors.size, neighbors.sources, neighbors.destinations};
  for (const PlannerEntry& planner : planners())
    contributions_.push_back(planner.setup != nullptr ? planner.setup->contributions(view) : std::vector<long long>{});
}

void CreationSteps::put(Agreement& agreement) {
  detection_.put(agreement);
  for (const std::vector<long long>& mine : contributions_) {
    totals_.push_back(agreement.sum(0));
    for (long long value : mine) agreement.sum(value);
  }
}

Neighborhood CreationSteps::finish(MPI_Comm graph, const Agreement& agreed, GraphNeighborhood neighbors,
                                   const Settings& settings, LibraryComm* library) {
  Neighborhood detected = detection_.result(graph, agreed, neighbors);
  if (const CartesianNeighborhood* cartesian = detected.cartesian()) {
    if (settings.graph_node_size == 0) return detected;
    CartesianNeighborhood on_nodes = *cartesian;  // forced node-combining plans the Cartesian way
    on_nodes.node_size = settings.graph_node_size;
    return Neighborhood(std::move(on_nodes));
  }
  const std::vector<Algorithm> chosen = planners_with_setups(settings);
  if (chosen.empty()) return detected;
  std::vector<std::vector<long long>> totals;
  for (std::size_t p = 0; p < contributions_.size(); ++p) {
    totals.emplace_back();
    for (std::size_t i = 0; i < contributions_[p].size(); ++i) totals.back().push_back(agreed.summed(totals_[p] + 1 + i));
  }
  const GraphView view{rank_, neighbors.size, neighbors.sources, neighbors.destinations};
  const std::vector<PlannedRun> runs = setup_runs(view, settings, chosen, totals);
  if (runs.empty()) return detected;
  const auto results = run_setups(graph, runs, library);
  if (settings.algorithm.is_automatic())
    decide_automatically(graph, rank_, neighbors, settings, runs, results);
  else
    neighbors.setup = results.front();
  return Neighborhood(std::move(neighbors));
}

Neighborhood at_creation(MPI_Comm parent, MPI_Comm graph, int rank, GraphNeighborhood neighbors,
                         const Settings& settings) {
  CreationSteps steps(parent, graph, rank, neighbors, settings);
  Agreement agreement;
  steps.put(agreement);
  agreement.run(graph, std::nullopt);
  return steps.finish(graph, agreement, std::move(neighbors), settings);
}

}  // namespace cartcoll::detail
