// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The schedules of the unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) collectives
// on a distributed graph (section 2), as one process plans them (no MPI). Rooted collectives act in
// the root's neighborhood; every edge, a repeated one too, carries one block; the root's own block
// takes part only through a self edge; reductions fold the blocks of a process's sources in source
// order.
//
// Between two processes every schedule here sends at most one message per call, in the order of the
// neighbors' first occurrence, so repeated edges need no matching rule: the blocks of all edges from
// P to Q travel in one message (scatter), or the one block P has travels once and Q copies it into
// every slot of an edge from P (gather, reductions; broadcast writes the same bytes anyway).
//
// Block numbering (send blocks / receive blocks of the process planning):
//   bcast      1 / 1: the buffer, both ways (only the root's send block and a receiver's receive block are used)
//   gather     1 (0 at the root with MPI_IN_PLACE) / the root's in-degree at the root, 0 elsewhere
//   scatter    the root's out-degree at the root, 0 elsewhere / one per edge from the root (none at
//              the root with MPI_IN_PLACE)
//   reduce     1 / 1 at the root, 0 elsewhere
//   allreduce  1 / 1
// The barrier and the neighborhood families (allgather, alltoall) are the registered planners' schedules
// (plan.hpp); with MPI_IN_PLACE, alltoall's send blocks are its receive blocks (stage_sends_in_temps).
#include "cartcoll/export.h"
#include "core/model/graph.hpp"
#include "core/model/schedule.hpp"

namespace cartcoll {

// Where a process's own contribution is: a send block of its own, or (MPI_IN_PLACE) already in its
// receive buffer: the root's self-edge blocks of gather and scatter stay as they are, and a
// reduction's input is the receive block before the call.
enum class Contribution : std::uint8_t { separate, in_place };

CARTCOLL_API Schedule plan_bcast(const GraphView& view, int root);
CARTCOLL_API Schedule plan_gather(const GraphView& view, int root, Contribution own);
CARTCOLL_API Schedule plan_scatter(const GraphView& view, int root, Contribution own);
CARTCOLL_API Schedule plan_reduce(const GraphView& view, int root, Contribution own);
CARTCOLL_API Schedule plan_allreduce(const GraphView& view, Contribution own);

// MPI_IN_PLACE for alltoall: send block j is receive block j as it was before the call. The send
// blocks a schedule reads are first copied into temp blocks (declared like receive block j) by a
// phase of its own, and read from there; the result has no send blocks. Error(Errc::buffer) where the
// schedule has more send blocks than receive blocks.
CARTCOLL_API Schedule stage_sends_in_temps(Schedule schedule);

}  // namespace cartcoll
