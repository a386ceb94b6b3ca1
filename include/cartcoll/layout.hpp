#pragma once
// Where the blocks of one collective call live. Each builder mirrors the MPI argument list of one
// neighborhood collective and checks it; t is the number of neighbors.
#include <mpi.h>

#include <span>
#include <vector>

#include "cartcoll/schedule.hpp"

namespace cartcoll {

// One block: `count` elements of `type` at an absolute address (as MPI_Get_address gives it).
struct BlockSpec {
  MPI_Aint address;
  int count;
  MPI_Datatype type;
};

struct Layout {
  Collective collective = Collective::alltoall;
  std::vector<BlockSpec> send;  // t blocks for alltoall, one for allgather
  std::vector<BlockSpec> recv;  // t blocks
};

namespace layout {

Layout alltoall(int t, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype);
Layout alltoallv(int t, const void* sendbuf, std::span<const int> sendcounts, std::span<const int> sdispls,
                 MPI_Datatype sendtype, void* recvbuf, std::span<const int> recvcounts,
                 std::span<const int> rdispls, MPI_Datatype recvtype);
Layout alltoallw(int t, const void* sendbuf, std::span<const int> sendcounts, std::span<const MPI_Aint> sdispls,
                 std::span<const MPI_Datatype> sendtypes, void* recvbuf, std::span<const int> recvcounts,
                 std::span<const MPI_Aint> rdispls, std::span<const MPI_Datatype> recvtypes);
Layout allgather(int t, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype);
Layout allgatherv(int t, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::span<const int> recvcounts, std::span<const int> displs, MPI_Datatype recvtype);
Layout allgatherw(int t, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::span<const int> recvcounts, std::span<const MPI_Aint> displs,
                  std::span<const MPI_Datatype> recvtypes);

}  // namespace layout
}  // namespace cartcoll
