// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Distributed-graph neighborhoods as plain data (no MPI): one process's view, for the planners, and
// the whole graph of all processes, for the reference model, the simulator and the tools.
//
// MPI 4.1 semantics (section 8.6): process P sends its block j to destinations[j] and receives its
// block i from sources[i]. An edge may repeat: the k-th occurrence of Q among P's destinations is
// matched with the k-th occurrence of P among Q's sources. An edge from P to itself is allowed. An
// absent neighbor (MPI_PROC_NULL at a mesh border of an MPI Cartesian topology) is `no_process`:
// nothing is sent to it, and a receive block from it is left untouched.
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cartcoll/export.h"

namespace cartcoll {

inline constexpr int no_process = -1;

struct SetupResult;  // core/planning/setup.hpp

struct GraphView {
  int rank = 0;
  int size = 0;
  std::span<const int> sources;       // receive block i comes from sources[i]
  std::span<const int> destinations;  // send block j (alltoall) goes to destinations[j]
  // What the planner's distributed set-up learned about this process's neighborhood (PlannerEntry::
  // setup, opaque to all but the algorithm); null where none ran: the planner then plans without it.
  const SetupResult* setup = nullptr;
};

// Every process's lists.
class CARTCOLL_API Graph {
 public:
  Graph() = default;
  explicit Graph(int size);
  // From edges (source, destination), in the order given: each process's destinations in the order
  // of its edges, each process's sources in the order of the edges into it.
  static Graph from_edges(int size, std::span<const std::pair<int, int>> edges);

  int size() const noexcept { return static_cast<int>(sources_.size()); }
  GraphView view(int rank) const;
  std::vector<int>& sources(int rank) { return sources_.at(static_cast<std::size_t>(rank)); }
  std::vector<int>& destinations(int rank) { return destinations_.at(static_cast<std::size_t>(rank)); }
  const std::vector<int>& sources(int rank) const { return sources_.at(static_cast<std::size_t>(rank)); }
  const std::vector<int>& destinations(int rank) const { return destinations_.at(static_cast<std::size_t>(rank)); }

  // Empty if every edge P -> Q appears as often among P's destinations as P among Q's sources and
  // every neighbor is a rank or no_process; else what is wrong, for a message.
  std::string inconsistency() const;
  std::size_t edges() const;  // destinations over all processes, no_process entries excluded

 private:
  std::vector<std::vector<int>> sources_, destinations_;
};

}  // namespace cartcoll
