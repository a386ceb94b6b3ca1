// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// cartcoll-plan on a distributed graph: every registered planner that serves graphs, planned for
// every process, with each process's figures (a graph's schedules differ from process to process).
#include <optional>
#include <string>
#include <vector>

#include "core/planning/cost.hpp"
#include "core/model/graph.hpp"
#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/algorithms/graph_routing/graph_routing.hpp"
#include "core/simulation/replay.hpp"
#include "plan_figures.hpp"

namespace cartcoll::plan_tool {

struct ProcessFigures {
  int rank = 0;
  int in = 0, out = 0;  // degrees
  // Per graph planner (GraphFigures::algorithms), per collective; nullopt where it does not plan it.
  std::vector<std::optional<Figures>> alltoall, allgather;
};

// A distributed set-up that planners plan from (PlannerEntry::setup), run for
// every process over the simulated transport.
struct SetupFigures {
  CombiningParameters parameters;  // graph-combining's set-up
  std::vector<int> extents;        // the routing set-up's grid
  int rounds = 0;
  std::vector<SetupTraffic> traffic;            // per process
  long long path_messages = 0, path_bytes = 0;  // sums over the rounds of one process's most
  // Compute (CPU time): the sum over the rounds of the slowest process's (the lockstep bound), and
  // the most one process computes in all.
  double path_compute = 0, most_compute = 0;
  double wall_seconds = 0;  // the whole simulated run

  // The set-up's critical path under `model`: each round a sparse exchange whose nonblocking barrier
  // costs latency * ceil(log2 p), plus the most messages and bytes one process sends in the round,
  // plus the slowest process's compute in the round.
  double critical_path(const CostModel& model, int p) const;
};

struct GraphFigures {
  int size = 0;
  std::size_t edges = 0;
  int node_size = 0;  // --node-size: Figures::off_node counts sends that leave a node of this many ranks
  std::vector<std::string> algorithms;  // the registered planners that serve graphs, in registry order
  std::vector<ProcessFigures> processes;
  std::optional<SetupFigures> setup;          // when a planner needs it
  std::optional<SetupFigures> routing_setup;  // when a planner needs it
  // Per planner, [alltoall, allgather]: received bytes the simulator found different from the
  // reference model; -1 where not verified.
  std::vector<std::pair<long long, long long>> wrong_bytes;
  // Per planner, [alltoall, allgather]: the replayed call's time (the last process's completion) in
  // seconds with 4-byte blocks; -1 where not replayed.
  std::vector<std::pair<double, double>> replayed_seconds;
  std::optional<MessageTiming> replay;  // the machine replayed on
};

struct GraphOptions {
  CombiningParameters combining;
  bool verify = false;  // run every schedule in the simulator against the reference model
  int routing_dims = 0;  // graph-routing's grid (0: default_routing_dims)
  std::optional<MessageTiming> replay;  // replay every schedule on this machine (replay.hpp)
};

GraphFigures compute_graph_figures(const Graph& graph, const GraphOptions& options = {});
std::string to_json(const GraphFigures& figures);
// A summary per planner and collective (total, smallest and largest per process), then one row per process.
std::string to_table(const GraphFigures& figures);

}  // namespace cartcoll::plan_tool
