// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Routing over a virtual grid of the ranks (beyond Mirsadeghi et al.'s Exploiting Common
// Neighborhoods; docs/graph-routing.md): the p ranks are laid out on a grid of extents e0 x e1 x
// ... (row-major, as MPI_Cart_create numbers them), and a block travels from its origin to its
// destination correcting one coordinate per phase, dimension 0 first. A process then sends at most
// e_k - 1 messages in phase k, whoever its neighbors are. The processes a block passes through
// learn what they carry in a set-up of one round per dimension (each forwards the (origin,
// destination) pairs it holds one coordinate on); the planner `graph-routing` turns a process's
// result into its schedule.
//
// An intermediate holds blocks of processes it has no edge with, whose size MPI does not tie to its
// own: routing needs the user's assertion that every block of every call has one type signature
// (docs/semantics.md).
#include <compare>
#include <vector>

#include "cartcoll/export.h"
#include "core/model/graph.hpp"
#include "core/planning/setup.hpp"

namespace cartcoll {

// The grid's extents for p ranks in `dims` dimensions: MPI_Dims_create's balanced factorization,
// largest first, without the extents of 1 (which route nothing). Error(Errc::info_value) unless
// dims >= 1.
CARTCOLL_API std::vector<int> routing_extents(int size, int dims);

// The default number of dimensions: extents near 4, which at degree 51 and 1024 processes leave a
// process the fewest messages for the time (docs/graph-routing.md, "The grid").
CARTCOLL_API int default_routing_dims(int size);

// A block in transit: the one for the single edge origin -> destination (single_edges: repeated and
// self edges go direct).
struct RoutedBlock {
  int origin = 0;
  int destination = 0;
  friend auto operator<=>(const RoutedBlock&, const RoutedBlock&) = default;
};

// What a process receives from `from` in one phase: these blocks, ordered by (origin, destination).
// An allgather message carries each origin's block once, for all its destinations listed here.
struct RoutedArrival {
  int from = 0;
  std::vector<RoutedBlock> blocks;
  friend bool operator==(const RoutedArrival&, const RoutedArrival&) = default;
};

// One process's result of the routing set-up.
struct RoutingPattern : SetupResult {
  std::vector<int> extents;                          // the grid; phase k corrects coordinate k
  std::vector<std::vector<RoutedArrival>> arrivals;  // per phase, by sender ascending
  // Whether every process has a block in an alltoall (a send or a receive block), so that a
  // temporary block can be shaped like one of its own; agreed. Else alltoall goes direct.
  bool routes_alltoall = true;
};

// The rank that holds a block for `destination` at `self` after phase `phase`: self with
// coordinate `phase` replaced by the destination's.
CARTCOLL_API int next_hop(std::span<const int> extents, int self, int destination, int phase);

struct SimulatedRouting : SetupCosts {
  std::vector<RoutingPattern> patterns;  // per rank
};

// The routing set-up of every process of `graph` (consistent) on a grid of `dims` dimensions, run in
// lockstep rounds in this process.
CARTCOLL_API SimulatedRouting simulate_routing_setup(const Graph& graph, int dims);

namespace detail {
// graph-routing's set-up plug-in (setup_plugin.cpp).
extern const SetupPlugin routing_setup;
}  // namespace detail

}  // namespace cartcoll
