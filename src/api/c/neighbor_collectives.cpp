// SPDX-License-Identifier: BSD-3-Clause
// C API: CC_Neighbor_*, CC_Ineighbor_* and CC_Neighbor_*_init, each a layout builder (shared with
// Cart_*) handed to one of NeighborComm's three verbs; requests become MPI_Request values.
#include "c_layouts.hpp"
#include "cartcoll/neighbor.h"
#include "cartcoll/neighbor.hpp"
#include "committed_types.hpp"
#include "errors.hpp"
#include "request_table.hpp"

using namespace cartcoll;

namespace {

// The v and w forms: a call repeated with an equal print (ArgumentPrint) skips building its layout.
template <typename MakePrint, typename MakeLayout>
int blocking(MPI_Comm comm, MakePrint&& make_print, MakeLayout&& make_layout) {
  return capi::guarded(comm, [&] {
    const NeighborComm neighbors(comm);
    const Degrees degrees = neighbors.degrees();
    neighbors.exchange(make_print(degrees), [&] { return make_layout(degrees); });
  });
}

int blocking_regular(MPI_Comm comm, const RegularArguments& arguments) {
  return capi::guarded(comm, [&] { NeighborComm(comm).exchange(arguments); });
}

template <typename MakeLayout>
int nonblocking(MPI_Comm comm, MPI_Request* request, std::initializer_list<MPI_Datatype> types, MakeLayout&& make_layout) {
  int raised_by_mpi = MPI_SUCCESS;
  const int code = capi::guarded(comm, [&] {
    if (request == nullptr) throw Error(Errc::request, "request is NULL");
    *request = MPI_REQUEST_NULL;
    const NeighborComm neighbors(comm);
    const Layout layout = make_layout(neighbors.degrees());
    raised_by_mpi = capi::check_committed(types, layout, comm);
    if (raised_by_mpi == MPI_SUCCESS) *request = capi::register_request(neighbors.iexchange(layout));
  });
  return raised_by_mpi != MPI_SUCCESS ? raised_by_mpi : code;
}

// The v and w forms: a call repeated with an equal print reuses the last one's lowered messages
// without building its layout; its datatypes are predefined then (keeps_execution), so the
// committed-type check has nothing to find.
template <typename MakePrint, typename MakeLayout>
int nonblocking(MPI_Comm comm, MPI_Request* request, std::initializer_list<MPI_Datatype> types, MakePrint&& make_print,
                MakeLayout&& make_layout) {
  struct RaisedByMpi {};
  int raised_by_mpi = MPI_SUCCESS;
  const int code = capi::guarded(comm, [&] {
    if (request == nullptr) throw Error(Errc::request, "request is NULL");
    *request = MPI_REQUEST_NULL;
    const NeighborComm neighbors(comm);
    const Degrees degrees = neighbors.degrees();
    const auto checked_layout = [&] {
      Layout layout = make_layout(degrees);
      raised_by_mpi = capi::check_committed(types, layout, comm);
      if (raised_by_mpi != MPI_SUCCESS) throw RaisedByMpi{};
      return layout;
    };
    try {
      *request = capi::register_request(neighbors.iexchange(make_print(degrees), [&checked_layout] { return checked_layout(); }));
    } catch (const RaisedByMpi&) {
      // raised on the communicator's handler already
    }
  });
  return raised_by_mpi != MPI_SUCCESS ? raised_by_mpi : code;
}

// Collective: a bad argument on any process (a NULL request included) fails every process alike.
template <typename MakeLayout>
int persistent(MPI_Comm comm, MPI_Info info, MPI_Request* request, MakeLayout&& make_layout) {
  return capi::guarded(comm, [&] {
    if (request != nullptr) *request = MPI_REQUEST_NULL;
    const NeighborComm neighbors(comm);
    Request made = neighbors.exchange_init(
        [&] {
          if (request == nullptr) throw Error(Errc::request, "request is NULL");
          return make_layout(neighbors.degrees());
        },
        RequestOptions{std::nullopt, info});
    *request = capi::register_request(std::move(made));
  });
}

}  // namespace

// MPI's allgatherv names its displacements `displs`, as Cart_allgatherv does.
#define CARTCOLL_ALLGATHER_LAYOUT CARTCOLL_LAYOUT_OF(allgather_layout, CARTCOLL_ALLGATHER_ARGS)
#define CARTCOLL_ALLGATHERV_LAYOUT CARTCOLL_LAYOUT_OF(allgatherv_layout, CARTCOLL_ALLGATHERV_ARGS)
#define CARTCOLL_ALLTOALL_LAYOUT CARTCOLL_LAYOUT_OF(alltoall_layout, CARTCOLL_ALLTOALL_ARGS)
#define CARTCOLL_ALLTOALLV_LAYOUT CARTCOLL_LAYOUT_OF(alltoallv_layout, CARTCOLL_ALLTOALLV_ARGS)
#define CARTCOLL_ALLTOALLW_LAYOUT CARTCOLL_LAYOUT_OF(alltoallw_layout, CARTCOLL_ALLTOALLW_ARGS)

extern "C" {

int CC_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking_regular(comm, CARTCOLL_ALLGATHER_ARGUMENTS);
}
int CC_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking(comm, CARTCOLL_PRINTED(allgatherv, CARTCOLL_ALLGATHERV_ARGS));
}
int CC_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm) {
  return blocking_regular(comm, CARTCOLL_ALLTOALL_ARGUMENTS);
}
int CC_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                          void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                          MPI_Comm comm) {
  return blocking(comm, CARTCOLL_PRINTED(alltoallv, CARTCOLL_ALLTOALLV_ARGS));
}
int CC_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                          const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return blocking(comm, CARTCOLL_PRINTED(alltoallw, CARTCOLL_ALLTOALLW_ARGS));
}

int CC_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request, {sendtype, recvtype}, CARTCOLL_ALLGATHER_LAYOUT);
}
int CC_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  return nonblocking(comm, request, {sendtype, recvtype}, CARTCOLL_PRINTED(allgatherv, CARTCOLL_ALLGATHERV_ARGS));
}
int CC_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request, {sendtype, recvtype}, CARTCOLL_ALLTOALL_LAYOUT);
}
int CC_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm, MPI_Request* request) {
  return nonblocking(comm, request, {sendtype, recvtype}, CARTCOLL_PRINTED(alltoallv, CARTCOLL_ALLTOALLV_ARGS));
}
int CC_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                           MPI_Request* request) {
  return nonblocking(comm, request, {}, CARTCOLL_PRINTED(alltoallw, CARTCOLL_ALLTOALLW_ARGS));
}

int CC_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_ALLGATHER_LAYOUT);
}
int CC_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_ALLGATHERV_LAYOUT);
}
int CC_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_ALLTOALL_LAYOUT);
}
int CC_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_ALLTOALLV_LAYOUT);
}
int CC_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                               MPI_Info info, MPI_Request* request) {
  return persistent(comm, info, request, CARTCOLL_ALLTOALLW_LAYOUT);
}

}  // extern "C"
