// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The reference model: the collectives' meaning, straight from the definition, for all processes at
// once. It is the oracle of every test; it shares no code with the planners or executors.
#include <cstddef>
#include <functional>
#include <vector>

#include "cartcoll/export.h"
#include "core/model/graph.hpp"
#include "core/model/schedule.hpp"
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

// A reduction operation on packed blocks, applied as MPI_Reduce_local applies one: inout = in op inout.
using ReduceOp = std::function<void(const Bytes& in, Bytes& inout)>;

// The unified-interfaces paper by Träff, Hunold, Mercier and Holmes, section 2: the collectives a
// distributed graph gives a meaning to, rooted ones in the root's neighborhood. Each takes every
// rank's buffers before the call and returns them after it; a rank the definition does not involve
// keeps its buffers. Every edge carries one block, a repeated edge too. The graph must be
// consistent; no_process neighbors are no edge.

// bcast: every process Q with an edge root -> Q gets the root's buffer (the same bytes on each edge).
CARTCOLL_API std::vector<Bytes> bcast(const Graph& graph, int root, std::vector<Bytes> buffers);
// gather: the root's receive block i gets the one send block of its source i (a process sends its
// block on each of its edges to the root; the root's own block arrives only through a self edge).
CARTCOLL_API Blocks gather(const Graph& graph, int root, const std::vector<Bytes>& send, Blocks recv);
// scatter: the root's send block j goes on the edge to its destination j; Q has one receive block per
// edge root -> Q, and its k-th one gets the block of the k-th occurrence of Q among the root's
// destinations.
CARTCOLL_API Blocks scatter(const Graph& graph, int root, const Blocks& send, Blocks recv);
// reduce: the root's receive buffer becomes s_0 op s_1 op ... op s_(n-1), s_i the send block of its
// source i, in source order; untouched where the root has no source.
CARTCOLL_API std::vector<Bytes> reduce(const Graph& graph, int root, const std::vector<Bytes>& send,
                                       std::vector<Bytes> recv, const ReduceOp& op);
// allreduce: every process is the root of the reduction over its own sources.
CARTCOLL_API std::vector<Bytes> allreduce(const Graph& graph, const std::vector<Bytes>& send, std::vector<Bytes> recv,
                                          const ReduceOp& op);

}  // namespace cartcoll::reference
