// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) collectives on a graph
// topology, as this process's part of them (section 2): a call of a neighborhood family (barrier,
// allgather(v,w), alltoall(v,w)) as the layout CC_Neighbor_* would run, or a schedule planned here
// (graph_collectives.hpp) for the rooted collectives, the reductions and MPI_IN_PLACE. Local: no
// communication.
#include <span>

#include "runtime/comm/verbs.hpp"
#include "core/model/graph.hpp"
#include "cartcoll/unified_collectives.hpp"

namespace cartcoll::detail {

// Error(Errc::topology) for reduce_scatter(_block), scan and exscan, which the unified-interfaces
// paper leaves undefined on graphs; bad arguments as the neighborhood collectives report them, an
// invalid root Errc::root.
GraphCall graph_call(const GraphView& view, const unified::Call& call);

// What *_init raises where GraphCall::must_match differs between processes: the root, then the bytes
// of a block where every process must pass the same (two values).
std::span<const Error> must_match_errors();

}  // namespace cartcoll::detail
