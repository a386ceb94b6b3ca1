// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What a communicator's collectives exchange over: a Cartesian neighborhood (grid and offsets) or a
// distributed graph, as this process sees it, with the planning that depends on which.
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "core/planning/cost.hpp"
#include "core/model/graph.hpp"
#include "cartcoll/layout.hpp"
#include "core/planning/plan.hpp"
#include "cartcoll/topology.hpp"

namespace cartcoll::detail {

// `auto`'s verdict on a graph where a set-up ran, agreed at creation: a process runs `forwarding` on
// the sides of its exchange whose blocks hold at most up_to bytes (alltoall [0], allgather [1]; -1:
// none), else `direct`. Where the set-up has no restricted results (SetupPlugin::restricted), every
// process forwards or none does, by the one asserted block size. up_to comes from the cost model,
// until a call that may communicate measures it instead (policy.hpp).
struct ForwardingVerdict {
  Algorithm direct, forwarding;
  std::array<long long, 2> up_to;
};

struct GraphNeighborhood {
  int size = 0;
  std::vector<int> sources, destinations;  // no_process for MPI_PROC_NULL
  // The result of the set-up of the planner this graph runs (forced, or `auto`'s verdict), where one
  // ran at creation (PlannerEntry::setup); shared by duplicates.
  std::shared_ptr<const SetupResult> setup = nullptr;
  // Under `auto`, where a set-up ran: what `auto` forwards with (at_creation.hpp).
  std::optional<ForwardingVerdict> auto_verdict = std::nullopt;
};

struct CartesianNeighborhood {
  Grid grid;
  Offsets offsets;
  std::vector<int> coords;
  // Empty, or for an MPI Cartesian topology, whose receive block i comes from R + N[i] (MPI's order
  // -e0, +e0, -e1, ... for sources and destinations alike) where a Cartesian schedule receives
  // from R - N[i]: the user's receive block for the schedule's receive block j. For a detected
  // graph (cartesian_detection.hpp), the user's block of each slot, absent_block off a mesh.
  std::vector<int> receive_order;
  // Empty, or for a detected graph, the user's send block of each slot (absent_block off a mesh).
  std::vector<int> send_order = {};
  // The graph a detected neighborhood was read from: what MPI_Dist_graph_neighbors says.
  std::optional<GraphNeighborhood> detected_from = std::nullopt;
  // node-combining's nodes: ranks with equal rank / node_size share one (0: all share one).
  int node_size = 0;
  // Under MPI's contract (a detected graph, an MPI Cartesian topology), whether a planner that
  // forwards blocks could meet processes that size them differently (forwarding_may_mismatch):
  // then calls run the direct exchange. Never under Träff and Hunold's (Cartesian Collective
  // Communication) contract.
  bool forwarding_may_mismatch = false;
};

// Weights as the creating call gave them; nullopt where unweighted.
struct Weights {
  std::optional<std::vector<int>> sources, destinations;
};

class Neighborhood {
 public:
  explicit Neighborhood(CartesianNeighborhood cartesian) : value_(std::move(cartesian)) { list_auto_candidates(); }
  explicit Neighborhood(GraphNeighborhood graph) : value_(std::move(graph)) { list_auto_candidates(); }

  NeighborhoodKind kind() const noexcept {
    return std::holds_alternative<CartesianNeighborhood>(value_) ? NeighborhoodKind::cartesian : NeighborhoodKind::graph;
  }
  const CartesianNeighborhood* cartesian() const noexcept { return std::get_if<CartesianNeighborhood>(&value_); }
  const GraphNeighborhood* graph() const noexcept { return std::get_if<GraphNeighborhood>(&value_); }
  // The graph's lists of a graph topology, detected as Cartesian or not; nullptr for others.
  const GraphNeighborhood* graph_lists() const noexcept;

  Degrees degrees() const;
  // Ranks in receive-block and send-block order; no_process where a neighbor is missing.
  std::vector<int> sources(int rank) const;
  std::vector<int> destinations(int rank) const;

  // The registered planners `auto` chooses among for `collective` here: those that serve the
  // neighborhood's kind, less those that need nodes unless there are several of several processes.
  // Listed at construction, so that calls resolving `auto` allocate nothing.
  std::span<const Algorithm> auto_candidates(Collective collective) const {
    return auto_candidates_[collective == Collective::alltoall ? 0 : 1];
  }
  // This process's schedule, with the user's block numbering; on a graph, from the sides of the
  // set-up's pattern that `sides` names; on a Cartesian neighborhood, for a call whose forwarded
  // blocks carry their sizes where `sizes_travel` (CartesianView::sizes_travel).
  Schedule plan(Algorithm algorithm, Collective collective, int rank, CombinedSides sides = {},
                bool sizes_travel = false) const;
  // On a Cartesian neighborhood, the schedule of `planner` (PlannerEntry::plans_shared_sends) for
  // the parts of send blocks that share bytes, analysed in the neighborhood's slot order
  // (CartesianNeighborhood::send_order and receive_order).
  Schedule plan_shared_sends(Algorithm planner, const SharedSends& sends) const;
  // The figures `auto`'s cost model uses: on a Cartesian neighborhood those of the neighborhood
  // (equal on every process); on a graph those of this process's schedule.
  Figures figures(Algorithm algorithm, Collective collective, int rank) const;

 private:
  void list_auto_candidates();

  std::variant<CartesianNeighborhood, GraphNeighborhood> value_;
  std::array<std::vector<Algorithm>, 2> auto_candidates_;  // alltoall, allgather
};

}  // namespace cartcoll::detail
