// SPDX-License-Identifier: BSD-3-Clause
// C API: the unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) collectives by topology
// (<cartcoll/unified_collectives.h>), each an argument list handed to one of the three forms of the
// C++ API (<cartcoll/unified_collectives.hpp>). Forwarded nonblocking and persistent calls hand
// MPI's own request back; the library's become MPI_Request values through the request table.
#include "cartcoll/unified_collectives.h"

#include "runtime/unified/dispatch.hpp"
#include "runtime/unified/mpi_calls.hpp"
#include "c_layouts.hpp"
#include "errors.hpp"
#include "request_table.hpp"

using namespace cartcoll;

namespace {

// An error MPI raised itself (in a call forwarded to it) is returned as it is; the library's own are
// raised through the communicator's error handler.
template <typename Body>
int unified_guarded(MPI_Comm comm, Body&& body) {
  int raised_by_mpi = MPI_SUCCESS;
  const int code = capi::guarded(comm, [&] {
    try {
      body();
    } catch (const detail::RaisedByMpi& error) {
      raised_by_mpi = error.mpi_code();
    }
  });
  return raised_by_mpi != MPI_SUCCESS ? raised_by_mpi : code;
}

MPI_Request handle_of(detail::Started started) {
  if (started.mpi != MPI_REQUEST_NULL) return started.mpi;
  return capi::register_request(std::move(started.library));
}

template <typename MakeCall>
int blocking(MPI_Comm comm, MakeCall&& make_call) {
  return unified_guarded(comm, [&] { unified::run(comm, make_call(detail::array_lengths(comm))); });
}

template <typename MakeCall>
int nonblocking(MPI_Comm comm, MPI_Request* request, MakeCall&& make_call) {
  return unified_guarded(comm, [&] {
    if (request == nullptr) throw Error(Errc::request, "request is NULL");
    *request = MPI_REQUEST_NULL;
    *request = handle_of(detail::start_call(comm, make_call(detail::array_lengths(comm))));
  });
}

// Collective: on a graph, a bad argument on any process (a NULL request included) fails every
// process alike.
template <typename MakeCall>
int persistent(MPI_Comm comm, MPI_Info info, MPI_Request* request, MakeCall&& make_call) {
  return unified_guarded(comm, [&] {
    if (request != nullptr) *request = MPI_REQUEST_NULL;
    detail::Started made = detail::init_call(
        comm,
        [&] {
          if (request == nullptr) throw Error(Errc::request, "request is NULL");
          return make_call(detail::array_lengths(comm));
        },
        info);
    *request = handle_of(std::move(made));
  });
}

}  // namespace

// The call's arguments as a unified::Call, given the lengths of its arrays (n).
#define CARTCOLL_CALL(...) [&]([[maybe_unused]] Degrees n) -> unified::Call { return __VA_ARGS__; }

extern "C" {

int CC_Barrier(MPI_Comm comm) { return blocking(comm, CARTCOLL_CALL(unified::Barrier{})); }
int CC_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request, CARTCOLL_CALL(unified::Barrier{}));
}
int CC_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_CALL(unified::Barrier{}));
}
int CC_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Bcast{buffer, count, datatype, root}));
}
int CC_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request, CARTCOLL_CALL(unified::Bcast{buffer, count, datatype, root}));
}
int CC_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                  MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_CALL(unified::Bcast{buffer, count, datatype, root}));
}
int CC_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return blocking(comm,
                  CARTCOLL_CALL(unified::Gather{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root}));
}
int CC_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request,
                     CARTCOLL_CALL(unified::Gather{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root}));
}
int CC_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request,
                    CARTCOLL_CALL(unified::Gather{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root}));
}
int CC_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
               const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return blocking(
      comm, CARTCOLL_CALL(unified::Gatherv{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                           capi::array(displs, n.sources), recvtype, root}));
}
int CC_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(
      comm, request,
      CARTCOLL_CALL(unified::Gatherv{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                     capi::array(displs, n.sources), recvtype, root}));
}
int CC_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request* request) {
  return persistent(
      comm, info, request,
      CARTCOLL_CALL(unified::Gatherv{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                     capi::array(displs, n.sources), recvtype, root}));
}
int CC_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return blocking(comm,
                  CARTCOLL_CALL(unified::Scatter{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root}));
}
int CC_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request,
                     CARTCOLL_CALL(unified::Scatter{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root}));
}
int CC_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request,
                    CARTCOLL_CALL(unified::Scatter{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root}));
}
int CC_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Scatterv{sendbuf, capi::array(sendcounts, n.destinations),
                                                        capi::array(displs, n.destinations), sendtype, recvbuf,
                                                        recvcount, recvtype, root}));
}
int CC_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request,
                     CARTCOLL_CALL(unified::Scatterv{sendbuf, capi::array(sendcounts, n.destinations),
                                                     capi::array(displs, n.destinations), sendtype, recvbuf, recvcount,
                                                     recvtype, root}));
}
int CC_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
  return persistent(comm, info, request,
                    CARTCOLL_CALL(unified::Scatterv{sendbuf, capi::array(sendcounts, n.destinations),
                                                    capi::array(displs, n.destinations), sendtype, recvbuf, recvcount,
                                                    recvtype, root}));
}
int CC_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Allgather{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype}));
}
int CC_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request,
                     CARTCOLL_CALL(unified::Allgather{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype}));
}
int CC_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request,
                    CARTCOLL_CALL(unified::Allgather{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype}));
}
int CC_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking(
      comm, CARTCOLL_CALL(unified::Allgatherv{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                              capi::array(displs, n.sources), recvtype}));
}
int CC_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(
      comm, request,
      CARTCOLL_CALL(unified::Allgatherv{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                        capi::array(displs, n.sources), recvtype}));
}
int CC_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(
      comm, info, request,
      CARTCOLL_CALL(unified::Allgatherv{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                        capi::array(displs, n.sources), recvtype}));
}
int CC_Allgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                  const MPI_Aint displs[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return blocking(
      comm, CARTCOLL_CALL(unified::Allgatherw{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                              capi::array(displs, n.sources), capi::array(recvtypes, n.sources)}));
}
int CC_Iallgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const MPI_Aint displs[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
  return nonblocking(
      comm, request,
      CARTCOLL_CALL(unified::Allgatherw{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                        capi::array(displs, n.sources), capi::array(recvtypes, n.sources)}));
}
int CC_Allgatherw_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const MPI_Aint displs[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                       MPI_Request* request) {
  return persistent(
      comm, info, request,
      CARTCOLL_CALL(unified::Allgatherw{sendbuf, sendcount, sendtype, recvbuf, capi::array(recvcounts, n.sources),
                                        capi::array(displs, n.sources), capi::array(recvtypes, n.sources)}));
}
int CC_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Alltoall{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype}));
}
int CC_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request,
                     CARTCOLL_CALL(unified::Alltoall{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype}));
}
int CC_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request,
                    CARTCOLL_CALL(unified::Alltoall{sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype}));
}
int CC_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking(comm,
                  CARTCOLL_CALL(unified::Alltoallv{
                      sendbuf, capi::array(sendcounts, n.destinations), capi::array(sdispls, n.destinations), sendtype,
                      recvbuf, capi::array(recvcounts, n.sources), capi::array(rdispls, n.sources), recvtype}));
}
int CC_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                  MPI_Request* request) {
  return nonblocking(
      comm, request,
      CARTCOLL_CALL(unified::Alltoallv{sendbuf, capi::array(sendcounts, n.destinations),
                                       capi::array(sdispls, n.destinations), sendtype, recvbuf,
                                       capi::array(recvcounts, n.sources), capi::array(rdispls, n.sources), recvtype}));
}
int CC_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                      void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Info info, MPI_Request* request) {
  return persistent(
      comm, info, request,
      CARTCOLL_CALL(unified::Alltoallv{sendbuf, capi::array(sendcounts, n.destinations),
                                       capi::array(sdispls, n.destinations), sendtype, recvbuf,
                                       capi::array(recvcounts, n.sources), capi::array(rdispls, n.sources), recvtype}));
}
int CC_Alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                 void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                 MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Alltoallw{
                            sendbuf, capi::array(sendcounts, n.destinations), capi::array(sdispls, n.destinations),
                            capi::array(sendtypes, n.destinations), recvbuf, capi::array(recvcounts, n.sources),
                            capi::array(rdispls, n.sources), capi::array(recvtypes, n.sources)}));
}
int CC_Ialltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request,
                     CARTCOLL_CALL(unified::Alltoallw{
                         sendbuf, capi::array(sendcounts, n.destinations), capi::array(sdispls, n.destinations),
                         capi::array(sendtypes, n.destinations), recvbuf, capi::array(recvcounts, n.sources),
                         capi::array(rdispls, n.sources), capi::array(recvtypes, n.sources)}));
}
int CC_Alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request,
                    CARTCOLL_CALL(unified::Alltoallw{
                        sendbuf, capi::array(sendcounts, n.destinations), capi::array(sdispls, n.destinations),
                        capi::array(sendtypes, n.destinations), recvbuf, capi::array(recvcounts, n.sources),
                        capi::array(rdispls, n.sources), capi::array(recvtypes, n.sources)}));
}
int CC_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
              MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Reduce{sendbuf, recvbuf, count, datatype, op, root}));
}
int CC_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking(comm, request, CARTCOLL_CALL(unified::Reduce{sendbuf, recvbuf, count, datatype, op, root}));
}
int CC_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                   MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_CALL(unified::Reduce{sendbuf, recvbuf, count, datatype, op, root}));
}
int CC_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Allreduce{sendbuf, recvbuf, count, datatype, op}));
}
int CC_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Request* request) {
  return nonblocking(comm, request, CARTCOLL_CALL(unified::Allreduce{sendbuf, recvbuf, count, datatype, op}));
}
int CC_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_CALL(unified::Allreduce{sendbuf, recvbuf, count, datatype, op}));
}
int CC_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm) {
  return blocking(
      comm, CARTCOLL_CALL(unified::ReduceScatter{sendbuf, recvbuf, capi::array(recvcounts, n.sources), datatype, op}));
}
int CC_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Request* request) {
  return nonblocking(
      comm, request,
      CARTCOLL_CALL(unified::ReduceScatter{sendbuf, recvbuf, capi::array(recvcounts, n.sources), datatype, op}));
}
int CC_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                           MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(
      comm, info, request,
      CARTCOLL_CALL(unified::ReduceScatter{sendbuf, recvbuf, capi::array(recvcounts, n.sources), datatype, op}));
}
int CC_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::ReduceScatterBlock{sendbuf, recvbuf, recvcount, datatype, op}));
}
int CC_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request,
                     CARTCOLL_CALL(unified::ReduceScatterBlock{sendbuf, recvbuf, recvcount, datatype, op}));
}
int CC_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request,
                    CARTCOLL_CALL(unified::ReduceScatterBlock{sendbuf, recvbuf, recvcount, datatype, op}));
}
int CC_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Scan{sendbuf, recvbuf, count, datatype, op}));
}
int CC_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
             MPI_Request* request) {
  return nonblocking(comm, request, CARTCOLL_CALL(unified::Scan{sendbuf, recvbuf, count, datatype, op}));
}
int CC_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_CALL(unified::Scan{sendbuf, recvbuf, count, datatype, op}));
}
int CC_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return blocking(comm, CARTCOLL_CALL(unified::Exscan{sendbuf, recvbuf, count, datatype, op}));
}
int CC_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request* request) {
  return nonblocking(comm, request, CARTCOLL_CALL(unified::Exscan{sendbuf, recvbuf, count, datatype, op}));
}
int CC_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_CALL(unified::Exscan{sendbuf, recvbuf, count, datatype, op}));
}

}  // extern "C"
