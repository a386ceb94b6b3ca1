// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Where the blocks of one collective call live. Each builder mirrors the MPI argument list of one
// neighborhood collective and checks it; `degrees` says how many blocks each side has (receive
// blocks: one per source; send blocks: one per destination for alltoall, one for allgather).
#include <mpi.h>

#include <cstdint>
#include <span>
#include <vector>

#include "cartcoll/collective.hpp"
#include "cartcoll/export.h"

namespace cartcoll {

// One block: `count` elements of `type` at an absolute address (as MPI_Get_address gives it).
struct BlockSpec {
  MPI_Aint address;
  int count;
  MPI_Datatype type;
  friend bool operator==(const BlockSpec&, const BlockSpec&) = default;
};

struct Layout {
  Collective collective = Collective::alltoall;
  std::vector<BlockSpec> send;  // one per destination (alltoall) or one (allgather)
  std::vector<BlockSpec> recv;  // one per source
  // Set by alltoall and allgather: one count and datatype for every send block and one for every
  // receive block. MPI's pairwise matching then makes every block of every process the same size on
  // a connected neighborhood, which the v and w forms do not promise.
  bool one_block_size = false;
  // The operation of a reduction (reduce and allreduce on graphs, from the unified-interfaces
  // paper by Träff, Hunold, Mercier and Holmes), applied by the schedule's reduction steps; MPI_OP_NULL
  // for a call that reduces nothing.
  MPI_Op op = MPI_OP_NULL;
  friend bool operator==(const Layout&, const Layout&) = default;
};

// A neighborhood's in-degree (sources, receive blocks) and out-degree (destinations).
struct Degrees {
  int sources = 0;
  int destinations = 0;
};

// The arguments of an alltoall or allgather call (one count and one datatype a side), before they
// become a Layout. Equal arguments on the same communicator make equal layouts, so the library
// recognizes a repeated blocking call by them without building its layout again.
struct CARTCOLL_API RegularArguments {
  Collective collective = Collective::alltoall;
  const void* sendbuf = nullptr;
  int sendcount = 0;
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  void* recvbuf = nullptr;
  int recvcount = 0;
  MPI_Datatype recvtype = MPI_DATATYPE_NULL;

  Layout layout(Degrees degrees) const;  // layout::alltoall or layout::allgather
  friend bool operator==(const RegularArguments&, const RegularArguments&) = default;
};

// A v or w call's arguments flattened, by which a repeated blocking call skips building its layout:
// the library's own (CartComm::exchange and NeighborComm::exchange take it from the C API).
class ArgumentPrint;

namespace layout {

CARTCOLL_API Layout alltoall(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype);
CARTCOLL_API Layout alltoallv(Degrees degrees, const void* sendbuf, std::span<const int> sendcounts,
                              std::span<const int> sdispls, MPI_Datatype sendtype, void* recvbuf,
                              std::span<const int> recvcounts, std::span<const int> rdispls, MPI_Datatype recvtype);
CARTCOLL_API Layout alltoallw(Degrees degrees, const void* sendbuf, std::span<const int> sendcounts,
                              std::span<const MPI_Aint> sdispls, std::span<const MPI_Datatype> sendtypes,
                              void* recvbuf, std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
                              std::span<const MPI_Datatype> recvtypes);
CARTCOLL_API Layout allgather(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, int recvcount, MPI_Datatype recvtype);
CARTCOLL_API Layout allgatherv(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, std::span<const int> recvcounts, std::span<const int> displs,
                               MPI_Datatype recvtype);
// The v forms with MPI_Aint displacements, still counted in extents of the datatype, as the Iso_
// interface of the isomorphic-collectives paper by Träff, Carpen-Amarie, Hunold and Rougier (and
// MPI-4's large-count neighborhood collectives) takes them.
CARTCOLL_API Layout alltoallv(Degrees degrees, const void* sendbuf, std::span<const int> sendcounts,
                              std::span<const MPI_Aint> sdispls, MPI_Datatype sendtype, void* recvbuf,
                              std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
                              MPI_Datatype recvtype);
CARTCOLL_API Layout allgatherv(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, std::span<const int> recvcounts, std::span<const MPI_Aint> displs,
                               MPI_Datatype recvtype);
CARTCOLL_API Layout allgatherw(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, std::span<const int> recvcounts, std::span<const MPI_Aint> displs,
                               std::span<const MPI_Datatype> recvtypes);

}  // namespace layout

// The bytes of one block (MPI_Type_size times count): what is equal between sender and receiver
// whatever their datatypes, so decisions that must agree are made from it.
CARTCOLL_API long long bytes_of(const BlockSpec& block);
CARTCOLL_API long long bytes_of(std::span<const BlockSpec> blocks);  // summed

}  // namespace cartcoll
