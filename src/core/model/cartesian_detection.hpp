// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Cartesian detection (Träff and Hunold's Cartesian Collective Communication, section 2.2, the
// unified-interfaces paper by Träff, Hunold, Mercier and Holmes, section 3.2), its MPI-free part: a
// distributed graph read as relative offsets on a grid whose row-major numbering is the
// communicator's ranks; the offset list the processes agree on (a count per vector of a small box,
// maximized over the processes); and whether one process's neighbors are exactly that Cartesian
// neighborhood, with the block numbering between the graph's lists and the neighborhood's slots.
// The collective steps are src/runtime/comm/cartesian_detection.cpp; docs/neighbor.md ("Cartesian
// detection") proves that the renumbered Cartesian schedule delivers what MPI 4.1 prescribes for
// the graph.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cartcoll/export.h"
#include "cartcoll/topology.hpp"

namespace cartcoll {

// The vector v with `to` = `from` + v on grid: the difference of coordinates, on a periodic
// dimension of size n taken into (-n/2, n/2] (as CartesianNaming::relative_coordinates), so that
// two vectors reach the same process from every process exactly when they are equal.
CARTCOLL_API std::vector<int> relative_offset(const Grid& grid, std::span<const int> from, std::span<const int> to);

// One process's neighbors as relative offsets, d per neighbor, in the order of its graph lists.
struct RelativeNeighbors {
  std::vector<int> destinations, sources;
};

// nullopt where a neighbor is no_process or a rank beyond the grid.
CARTCOLL_API std::optional<RelativeNeighbors> relative_neighbors(const Grid& grid, int rank,
                                                                 std::span<const int> sources,
                                                                 std::span<const int> destinations);

// The largest |coordinate| of any offset (0 for none).
CARTCOLL_API int reach_of(const RelativeNeighbors& neighbors);

// The vectors of the box [-reach, reach]^d: (2 reach + 1)^d of them, or nullopt above `limit`.
CARTCOLL_API std::optional<int> box_size(int d, int reach, std::int64_t limit);

// How often each vector of the box is among `flat`'s offsets (d per offset, each within reach),
// the box in lexicographic order (last coordinate fastest).
CARTCOLL_API std::vector<int> offset_counts(std::span<const int> flat, int d, int reach);

// The offsets `counts` describes, in the box's order, each as often as counted.
CARTCOLL_API Offsets offsets_of_counts(std::span<const int> counts, int d, int reach);

// Whether the offsets hold a unit vector (+e_k or -e_k) for every dimension of more than one process,
// so that the neighborhood connects the grid; the detection leaves other stencils to the graph
// planners.
CARTCOLL_API bool connects_grid(const Grid& grid, const Offsets& offsets);

// Whether MPI's matching forces one block size on every process in a one-count alltoall or
// allgather over this neighborhood, as Träff and Hunold's contract promises and the forwarding
// planners need (a process forwards another's block in a temp sized like its own). Connectivity is
// not enough: MPI ties only the send counts of processes that send to a common process (each block
// meets that process's one receive count), so the senders fall into classes, and sizes are forced
// equal when every process sends and all are in one class. Von Neumann stencils on tori of even
// extent have two (the parities); Moore stencils one. O(p t d).
CARTCOLL_API bool block_sizes_forced_equal(const Grid& grid, const Offsets& offsets);

// Whether a planner may hand blocks on through processes that size them by their own one count
// without MPI forbidding those sizes to differ: some offset reaches a process from another in two or
// more dimensions of more than one process, or more than one step along one of more than two, and
// block_sizes_forced_equal does not hold.
CARTCOLL_API bool forwarding_may_mismatch(const Grid& grid, const Offsets& offsets);

inline constexpr int absent_block = -1;

// Where each slot of a Cartesian neighborhood lives in the graph's numbering: send[j] is the user's
// send block (destination index) of slot j, receive[j] the user's receive block (source index);
// absent_block where the slot's neighbor is off a mesh, and so is not in the graph.
struct BlockOrders {
  std::vector<int> send, receive;
};

// Whether `mine` (one process's relative neighbors, at `coords` on grid) is exactly the Cartesian
// neighborhood `common` there: the destinations are the offsets whose target is on the grid, the
// sources the negated offsets whose source is, each with the same multiplicity, in any order. Within
// a group of equal offsets, the k-th occurrence in the graph's list takes the k-th slot, which keeps
// MPI's k-th occurrence pairing (docs/neighbor.md). A process with a slot off the mesh needs at
// least one destination and one source (a temp block of an absent slot is shaped like those).
CARTCOLL_API std::optional<BlockOrders> match_offsets(const Grid& grid, std::span<const int> coords,
                                                      const Offsets& common, const RelativeNeighbors& mine);

}  // namespace cartcoll
