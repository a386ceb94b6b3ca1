// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// cartcoll's C++ API for the collectives by topology of the unified-interfaces paper (Träff,
// Hunold, Mercier and Holmes, section 2): one set of collectives whose meaning the communicator
// gives (the C functions CC_Barrier ... CC_Exscan of <cartcoll/unified_collectives.h> are a thin
// layer over it).
//
// - On a communicator with a graph topology (MPI_Dist_graph_create*, CC_Dist_graph_create*,
//   MPI_Graph_create) they act in neighborhoods, run by the library's engine: rooted collectives in
//   the root's neighborhood, neighbor order defines data order, the root's own block takes part only
//   through a self edge, every edge (a repeated one too) carries one block, allreduce reduces over
//   every process's in-neighborhood, barrier returns once all in-neighbors have entered it;
//   reduce_scatter(_block), scan and exscan are Error(Errc::topology) there.
// - On any other communicator (no topology, an inter-communicator, a Cartesian one: in the
//   unified-interfaces paper a Cartesian communicator names processes and carries no topology) they
//   are MPI's own collectives.
// See docs/unified.md for every rule.
#include <mpi.h>

#include <span>
#include <variant>

#include "cartcoll/cartcoll.hpp"
#include "cartcoll/export.h"

namespace cartcoll::unified {

// One collective call, with MPI's arguments (the communicator and, for the persistent form, the info
// apart). Arrays are sized by the communicator: on a graph by this process's in-degree (receive
// side) and out-degree (send side), elsewhere by the size of the (remote) group; significant only
// where MPI says so (the root's arrays at the root, for instance).
struct Barrier {};
struct Bcast {
  void* buffer;
  int count;
  MPI_Datatype type;
  int root;
};
struct Gather {
  const void* sendbuf;
  int sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  int recvcount;
  MPI_Datatype recvtype;
  int root;
};
struct Gatherv {
  const void* sendbuf;
  int sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  std::span<const int> recvcounts;
  std::span<const int> displs;
  MPI_Datatype recvtype;
  int root;
};
struct Scatter {
  const void* sendbuf;
  int sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  int recvcount;
  MPI_Datatype recvtype;
  int root;
};
struct Scatterv {
  const void* sendbuf;
  std::span<const int> sendcounts;
  std::span<const int> displs;
  MPI_Datatype sendtype;
  void* recvbuf;
  int recvcount;
  MPI_Datatype recvtype;
  int root;
};
struct Allgather {
  const void* sendbuf;
  int sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  int recvcount;
  MPI_Datatype recvtype;
};
struct Allgatherv {
  const void* sendbuf;
  int sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  std::span<const int> recvcounts;
  std::span<const int> displs;
  MPI_Datatype recvtype;
};
// The unified-interfaces paper's suggestion (section 2.1): allgatherv with a datatype per receive
// block, byte displacements.
struct Allgatherw {
  const void* sendbuf;
  int sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  std::span<const int> recvcounts;
  std::span<const MPI_Aint> displs;
  std::span<const MPI_Datatype> recvtypes;
};
struct Alltoall {
  const void* sendbuf;
  int sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  int recvcount;
  MPI_Datatype recvtype;
};
struct Alltoallv {
  const void* sendbuf;
  std::span<const int> sendcounts;
  std::span<const int> sdispls;
  MPI_Datatype sendtype;
  void* recvbuf;
  std::span<const int> recvcounts;
  std::span<const int> rdispls;
  MPI_Datatype recvtype;
};
// Byte displacements as MPI_Aint (the unified-interfaces paper, section 2: MPI_Alltoallw's int ones
// were a slip).
struct Alltoallw {
  const void* sendbuf;
  std::span<const int> sendcounts;
  std::span<const MPI_Aint> sdispls;
  std::span<const MPI_Datatype> sendtypes;
  void* recvbuf;
  std::span<const int> recvcounts;
  std::span<const MPI_Aint> rdispls;
  std::span<const MPI_Datatype> recvtypes;
};
struct Reduce {
  const void* sendbuf;
  void* recvbuf;
  int count;
  MPI_Datatype type;
  MPI_Op op;
  int root;
};
struct Allreduce {
  const void* sendbuf;
  void* recvbuf;
  int count;
  MPI_Datatype type;
  MPI_Op op;
};
struct ReduceScatter {
  const void* sendbuf;
  void* recvbuf;
  std::span<const int> recvcounts;
  MPI_Datatype type;
  MPI_Op op;
};
struct ReduceScatterBlock {
  const void* sendbuf;
  void* recvbuf;
  int recvcount;
  MPI_Datatype type;
  MPI_Op op;
};
struct Scan {
  const void* sendbuf;
  void* recvbuf;
  int count;
  MPI_Datatype type;
  MPI_Op op;
};
struct Exscan {
  const void* sendbuf;
  void* recvbuf;
  int count;
  MPI_Datatype type;
  MPI_Op op;
};

using Call =
    std::variant<Barrier, Bcast, Gather, Gatherv, Scatter, Scatterv, Allgather, Allgatherv, Allgatherw, Alltoall,
                 Alltoallv, Alltoallw, Reduce, Allreduce, ReduceScatter, ReduceScatterBlock, Scan, Exscan>;

// The three forms. Errors throw cartcoll::Error; where the call went to MPI, MPI has already raised
// the error on the communicator's error handler.
CARTCOLL_API void run(MPI_Comm comm, const Call& call);
// Never blocks; on a graph, never communicates before it returns.
CARTCOLL_API Request start(MPI_Comm comm, const Call& call);
// Collective. On a graph: a bad argument on any process, or processes passing different roots or
// different block sizes where every process must pass the same, fails every process alike.
CARTCOLL_API Request init(MPI_Comm comm, const Call& call, MPI_Info info = MPI_INFO_NULL);

}  // namespace cartcoll::unified
