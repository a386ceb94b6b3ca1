// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Planners: one process's view of a neighborhood + a collective -> Schedule. Pure code, no MPI.
//
// Every algorithm is one registered entry (src/core/planning/registry.cpp lists them); the rest of the
// library, the tools and the tests find planners through this table, by name or by what they serve,
// and never name an algorithm themselves.
#include <optional>
#include <span>
#include <string_view>

#include "cartcoll/algorithm.hpp"
#include "cartcoll/export.h"
#include "core/model/graph.hpp"
#include "core/model/schedule.hpp"
#include "core/model/shared_sends.hpp"
#include "core/planning/setup.hpp"
#include "cartcoll/topology.hpp"

namespace cartcoll {

// A Cartesian (isomorphic) neighborhood as one process sees it: process R sends block i to
// R + offsets[i] and receives block i from R - offsets[i] on `grid`; `coords` are R's.
struct CartesianView {
  const Grid& grid;
  const Offsets& offsets;
  std::span<const int> coords;
  // Processes whose ranks have equal rank / node_size share a node (0: all share one), for planners
  // that need it (PlannerEntry::needs_nodes).
  int node_size = 0;
  // Whether the call's forwarded blocks carry their sizes (Schedule::sizes_travel): a planner whose
  // PlannerEntry::cartesian_sizes_travel is set then keeps blocks in transit in temps only and marks
  // the messages that fill them (Message::carries_sizes).
  bool sizes_travel = false;
  // The call's send blocks cut into parts that several blocks share (a persistent alltoallw whose
  // blocks overlap, analysed by the runtime alike on every process): a planner whose
  // PlannerEntry::plans_shared_sends is set then plans send block a as part a and receive block k as
  // piece k of it (SharedSends::pieces); nullptr for every other call.
  const SharedSends* shared_sends = nullptr;
};

// The two kinds of neighborhood a planner can serve.
enum class NeighborhoodKind : std::uint8_t { cartesian, graph };

// A registered planner.
struct PlannerEntry {
  std::string_view name;     // the value of the cartcoll_algorithm info key / CARTCOLL_ALGORITHM
  std::string_view summary;  // one line, for tools and documentation
  bool serves_alltoall;
  bool serves_allgather;
  bool auto_candidate;       // whether `auto` chooses among it
  Schedule (*plan_cartesian)(const CartesianView&, Collective);  // nullptr: serves no Cartesian neighborhood
  Schedule (*plan_graph)(const GraphView&, Collective);          // nullptr: serves no distributed graph
  // The distributed set-up plan_graph plans from (GraphView::setup), which the runtime runs when a
  // graph communicator is made; nullptr: none.
  const SetupPlugin* setup = nullptr;
  // Whether it plans with nodes (CartesianView::node_size; on graphs, the set-up's node_size): `auto`
  // skips such a planner where the processes share one node (it would plan the direct exchange).
  bool needs_nodes = false;
  // Whether a process may hold blocks of processes it has no edge with, whose sizes MPI does not tie
  // to its own even in a one-count call: unless the user asserts that every block has one type
  // signature, its blocks' sizes then travel (Schedule::sizes_travel), and `auto` leaves it out.
  bool needs_uniform_blocks = false;
  // Whether its schedules on graphs, and on Cartesian neighborhoods, mark every message whose
  // receiver keeps blocks to forward (Message::carries_sizes), so that they can run with sizes that
  // travel: a v or w call, or a one-count call whose forwarders cannot know the sizes. Where it does
  // not, such a call runs the direct exchange.
  bool graph_sizes_travel = false;
  bool cartesian_sizes_travel = false;
  // Whether it plans the parts of overlapping send blocks (CartesianView::shared_sends) and only
  // them: the runtime gives it only calls whose analysis found shared bytes, and runs the direct
  // exchange for every other call.
  bool plans_shared_sends = false;

  bool serves(Collective collective) const {
    return collective == Collective::alltoall ? serves_alltoall : serves_allgather;
  }
  bool serves(NeighborhoodKind kind) const {
    return kind == NeighborhoodKind::cartesian ? plan_cartesian != nullptr : plan_graph != nullptr;
  }
  bool sizes_may_travel(NeighborhoodKind kind) const {
    return kind == NeighborhoodKind::cartesian ? cartesian_sizes_travel : graph_sizes_travel;
  }
};

// The registry, in registration order (the order is the same in every process of one build).
CARTCOLL_API std::span<const PlannerEntry> planners();

// Plans `algorithm` for the process `view` describes; Error(Errc::arg) for `auto` or a collective or
// neighborhood kind the planner does not serve.
CARTCOLL_API Schedule plan(Algorithm algorithm, const CartesianView& view, Collective collective);
CARTCOLL_API Schedule plan(Algorithm algorithm, const GraphView& view, Collective collective);

}  // namespace cartcoll
