#pragma once
// The reference model: the collectives' meaning, straight from the definition, for all processes at
// once. It is the oracle of every test; it shares no code with the planners or executors.
#include <cstddef>
#include <vector>

#include "cartcoll/export.h"
#include "cartcoll/graph.hpp"
#include "cartcoll/schedule.hpp"
#include "cartcoll/topology.hpp"

namespace cartcoll::reference {

using Bytes = std::vector<std::byte>;
// Per rank, per block.
using Blocks = std::vector<std::vector<Bytes>>;

// send[r] holds rank r's send blocks (t for alltoall, 1 for allgather); recv[r] the initial contents
// of its t receive blocks. Returns the receive blocks after the collective: block i of rank r holds
// what rank r - offset i sent for offset i, or is unchanged where that source is outside the mesh.
CARTCOLL_API Blocks exchange(const Grid& grid, const Offsets& offsets, Collective collective, const Blocks& send,
                             Blocks recv);

// The same on a distributed graph (MPI 4.1): rank r's send block j (alltoall; its one block for
// allgather) lands in receive block i of q = destinations[j], where destinations[j] is the k-th
// occurrence of q among r's destinations and sources[i] of q the k-th occurrence of r among q's.
// Blocks from no_process neighbors leave the receive block unchanged. The graph must be consistent.
CARTCOLL_API Blocks exchange(const Graph& graph, Collective collective, const Blocks& send, Blocks recv);

}  // namespace cartcoll::reference
