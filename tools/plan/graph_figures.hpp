#pragma once
// cartcoll-plan on a distributed graph: every registered planner that serves graphs, planned for
// every process, with each process's figures (a graph's schedules differ from process to process).
#include <optional>
#include <string>
#include <vector>

#include "cartcoll/graph.hpp"
#include "plan_figures.hpp"

namespace cartcoll::plan_tool {

struct ProcessFigures {
  int rank = 0;
  int in = 0, out = 0;  // degrees
  // Per graph planner (GraphFigures::algorithms), per collective; nullopt where it does not plan it.
  std::vector<std::optional<Figures>> alltoall, allgather;
};

struct GraphFigures {
  int size = 0;
  std::size_t edges = 0;
  std::vector<std::string> algorithms;  // the registered planners that serve graphs, in registry order
  std::vector<ProcessFigures> processes;
};

GraphFigures compute_graph_figures(const Graph& graph);
std::string to_json(const GraphFigures& figures);
// A summary per planner and collective (total, smallest and largest per process), then one row per process.
std::string to_table(const GraphFigures& figures);

}  // namespace cartcoll::plan_tool
