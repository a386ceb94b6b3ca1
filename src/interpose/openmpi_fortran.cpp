// SPDX-License-Identifier: BSD-3-Clause
// libcartcoll_mpi under Open MPI: its Fortran bindings. Open MPI 4.1's `mpif.h` and `use mpi`
// entry points (mpi_wait_, MPI_WAIT, ... all aliases of one C function per call, ompi_wait_f) and
// its `use mpi_f08` module (mpi_wait_f08_, which calls ompi_wait_f) reach MPI through PMPI_ and
// its internals, never through the MPI_ names the layer defines. So the layer defines those
// ompi_*_f functions, their mpif.h names and the profiling names mpi_f08 calls (pmpi_test_)
// itself, for what it takes over: the neighborhood collectives (blocking, nonblocking, MPIX_
// persistent), the distributed-graph constructors and the request functions, which must complete
// the library's requests. Each converts Open MPI's Fortran arguments (handles as integers,
// sentinels such as MPI_BOTTOM or MPI_STATUS_IGNORE as the addresses of libmpi's objects, indices
// from 1, logicals as integers 1 and 0) and calls the layer's C function. Everything else stays
// Open MPI's. docs/transparent.md, "Language bindings"; tests/mpi/interpose/fortran calls each.
#include <mpi.h>

#if defined(OPEN_MPI)

#include <span>
#include <vector>

#if CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT
#include <mpi-ext.h>
#endif

extern "C" {
// Open MPI's Fortran sentinels, objects of libmpi: a Fortran MPI_BOTTOM is their address.
extern MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_, mpi_fortran_status_ignore_,
    mpi_fortran_statuses_ignore_, mpi_fortran_unweighted_, mpi_fortran_weights_empty_;
}

namespace {

using Logical = MPI_Fint;  // gfortran's default LOGICAL; Open MPI's .TRUE. is 1
constexpr int status_size = 6;  // Open MPI's MPI_STATUS_SIZE (mpif-config.h)
static_assert(sizeof(MPI_Status) == status_size * sizeof(MPI_Fint));

void* buffer(void* fortran) {
  if (fortran == &mpi_fortran_bottom_) return MPI_BOTTOM;
  if (fortran == &mpi_fortran_in_place_) return MPI_IN_PLACE;
  return fortran;
}

const int* weights(const MPI_Fint* fortran) {
  if (fortran == &mpi_fortran_unweighted_) return MPI_UNWEIGHTED;
  if (fortran == &mpi_fortran_weights_empty_) return MPI_WEIGHTS_EMPTY;
  return fortran;
}

MPI_Comm comm(const MPI_Fint* fortran) { return MPI_Comm_f2c(*fortran); }
MPI_Datatype type(const MPI_Fint* fortran) { return MPI_Type_f2c(*fortran); }

void answer(MPI_Fint* ierr, int code) {
  if (ierr != nullptr) *ierr = code;
}

void status_out(const MPI_Status& status, MPI_Fint* fortran) {
  if (fortran != &mpi_fortran_status_ignore_) MPI_Status_c2f(&status, fortran);
}

// Whether a call's statuses (and indices) are answers: on success, and with MPI_ERR_IN_STATUS, where
// each status names its request's error.
bool statuses_written(int code) { return code == MPI_SUCCESS || code == MPI_ERR_IN_STATUS; }

void statuses_out(std::span<const MPI_Status> statuses, MPI_Fint* fortran) {
  if (fortran == &mpi_fortran_statuses_ignore_) return;
  for (std::size_t i = 0; i < statuses.size(); ++i) MPI_Status_c2f(&statuses[i], fortran + i * status_size);
}

// A Fortran request array as C handles for one call; back() writes the handles the call left
// (MPI_REQUEST_NULL for completed nonblocking requests) into the Fortran array.
class Requests {
 public:
  Requests(const MPI_Fint* count, MPI_Fint* fortran) : fortran_(fortran), c_(static_cast<std::size_t>(*count)) {
    for (std::size_t i = 0; i < c_.size(); ++i) c_[i] = MPI_Request_f2c(fortran[i]);
  }
  MPI_Request* data() { return c_.data(); }
  int count() const { return static_cast<int>(c_.size()); }
  void back() const {
    for (std::size_t i = 0; i < c_.size(); ++i) fortran_[i] = MPI_Request_c2f(c_[i]);
  }

 private:
  MPI_Fint* fortran_;
  std::vector<MPI_Request> c_;
};

// Fortran counts from 1.
void from_one(int& index) {
  if (index != MPI_UNDEFINED) ++index;
}

// The datatypes of an alltoallw: as many as the communicator's topology has neighbors.
std::vector<MPI_Datatype> types(const MPI_Fint* fortran, MPI_Comm c, bool sources) {
  int kind = MPI_UNDEFINED, in = 0, out = 0, weighted = 0, rank = 0;
  MPI_Topo_test(c, &kind);
  if (kind == MPI_DIST_GRAPH) MPI_Dist_graph_neighbors_count(c, &in, &out, &weighted);
  if (kind == MPI_CART) MPI_Cartdim_get(c, &in);
  if (kind == MPI_CART) in = out = 2 * in;
  if (kind == MPI_GRAPH) MPI_Comm_rank(c, &rank);
  if (kind == MPI_GRAPH) MPI_Graph_neighbors_count(c, rank, &in);
  if (kind == MPI_GRAPH) out = in;
  std::vector<MPI_Datatype> c_types(static_cast<std::size_t>(sources ? in : out));
  for (std::size_t i = 0; i < c_types.size(); ++i) c_types[i] = MPI_Type_f2c(fortran[i]);
  return c_types;
}

// A call that makes a request: hands it to Fortran.
template <typename Call>
void with_request(MPI_Fint* request, MPI_Fint* ierr, const Call& call) {
  MPI_Request c_request = MPI_REQUEST_NULL;
  const int code = call(&c_request);
  if (code == MPI_SUCCESS) *request = MPI_Request_c2f(c_request);
  answer(ierr, code);
}

}  // namespace

// Open MPI's four mpif.h names of a call, all aliases of its ompi_*_f function.
#define CARTCOLL_FORTRAN_NAMES(impl, lower, upper)                  \
  extern "C" decltype(impl) lower __attribute__((alias(#impl)));    \
  extern "C" decltype(impl) lower##_ __attribute__((alias(#impl))); \
  extern "C" decltype(impl) lower##__ __attribute__((alias(#impl))); \
  extern "C" decltype(impl) upper __attribute__((alias(#impl)));

extern "C" {

// The collectives. A nonblocking or persistent one ends with the request; the others do not.
void ompi_neighbor_allgather_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                               MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* c, MPI_Fint* ierr) {
  answer(ierr, MPI_Neighbor_allgather(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), *recvcount,
                                      type(recvtype), comm(c)));
}

void ompi_neighbor_allgatherv_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                                MPI_Fint* recvcounts, MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* c, MPI_Fint* ierr) {
  answer(ierr, MPI_Neighbor_allgatherv(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), recvcounts,
                                       displs, type(recvtype), comm(c)));
}

void ompi_neighbor_alltoall_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                              MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* c, MPI_Fint* ierr) {
  answer(ierr, MPI_Neighbor_alltoall(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), *recvcount,
                                     type(recvtype), comm(c)));
}

void ompi_neighbor_alltoallv_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype,
                               char* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype, MPI_Fint* c,
                               MPI_Fint* ierr) {
  answer(ierr, MPI_Neighbor_alltoallv(buffer(sendbuf), sendcounts, sdispls, type(sendtype), buffer(recvbuf),
                                      recvcounts, rdispls, type(recvtype), comm(c)));
}

void ompi_neighbor_alltoallw_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Aint* sdispls, MPI_Fint* sendtypes,
                               char* recvbuf, MPI_Fint* recvcounts, MPI_Aint* rdispls, MPI_Fint* recvtypes, MPI_Fint* c,
                               MPI_Fint* ierr) {
  const std::vector<MPI_Datatype> send = types(sendtypes, comm(c), false), recv = types(recvtypes, comm(c), true);
  answer(ierr, MPI_Neighbor_alltoallw(buffer(sendbuf), sendcounts, sdispls, send.data(), buffer(recvbuf), recvcounts,
                                      rdispls, recv.data(), comm(c)));
}

void ompi_ineighbor_allgather_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                                MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* c, MPI_Fint* request, MPI_Fint* ierr) {
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPI_Ineighbor_allgather(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), *recvcount,
                                   type(recvtype), comm(c), r);
  });
}

void ompi_ineighbor_allgatherv_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                                 MPI_Fint* recvcounts, MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* c,
                                 MPI_Fint* request, MPI_Fint* ierr) {
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPI_Ineighbor_allgatherv(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), recvcounts, displs,
                                    type(recvtype), comm(c), r);
  });
}

void ompi_ineighbor_alltoall_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                               MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* c, MPI_Fint* request, MPI_Fint* ierr) {
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPI_Ineighbor_alltoall(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), *recvcount,
                                  type(recvtype), comm(c), r);
  });
}

void ompi_ineighbor_alltoallv_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype,
                                char* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype, MPI_Fint* c,
                                MPI_Fint* request, MPI_Fint* ierr) {
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPI_Ineighbor_alltoallv(buffer(sendbuf), sendcounts, sdispls, type(sendtype), buffer(recvbuf), recvcounts,
                                   rdispls, type(recvtype), comm(c), r);
  });
}

void ompi_ineighbor_alltoallw_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Aint* sdispls, MPI_Fint* sendtypes,
                                char* recvbuf, MPI_Fint* recvcounts, MPI_Aint* rdispls, MPI_Fint* recvtypes, MPI_Fint* c,
                                MPI_Fint* request, MPI_Fint* ierr) {
  const std::vector<MPI_Datatype> send = types(sendtypes, comm(c), false), recv = types(recvtypes, comm(c), true);
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPI_Ineighbor_alltoallw(buffer(sendbuf), sendcounts, sdispls, send.data(), buffer(recvbuf), recvcounts,
                                   rdispls, recv.data(), comm(c), r);
  });
}

#if CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT
void ompix_neighbor_allgather_init_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                                     MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* c, MPI_Fint* info,
                                     MPI_Fint* request, MPI_Fint* ierr) {
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPIX_Neighbor_allgather_init(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), *recvcount,
                                        type(recvtype), comm(c), MPI_Info_f2c(*info), r);
  });
}

void ompix_neighbor_allgatherv_init_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                                      MPI_Fint* recvcounts, MPI_Fint* displs, MPI_Fint* recvtype, MPI_Fint* c,
                                      MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr) {
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPIX_Neighbor_allgatherv_init(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), recvcounts,
                                         displs, type(recvtype), comm(c), MPI_Info_f2c(*info), r);
  });
}

void ompix_neighbor_alltoall_init_f(char* sendbuf, MPI_Fint* sendcount, MPI_Fint* sendtype, char* recvbuf,
                                    MPI_Fint* recvcount, MPI_Fint* recvtype, MPI_Fint* c, MPI_Fint* info,
                                    MPI_Fint* request, MPI_Fint* ierr) {
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPIX_Neighbor_alltoall_init(buffer(sendbuf), *sendcount, type(sendtype), buffer(recvbuf), *recvcount,
                                       type(recvtype), comm(c), MPI_Info_f2c(*info), r);
  });
}

void ompix_neighbor_alltoallv_init_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Fint* sdispls, MPI_Fint* sendtype,
                                     char* recvbuf, MPI_Fint* recvcounts, MPI_Fint* rdispls, MPI_Fint* recvtype,
                                     MPI_Fint* c, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr) {
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPIX_Neighbor_alltoallv_init(buffer(sendbuf), sendcounts, sdispls, type(sendtype), buffer(recvbuf),
                                        recvcounts, rdispls, type(recvtype), comm(c), MPI_Info_f2c(*info), r);
  });
}

void ompix_neighbor_alltoallw_init_f(char* sendbuf, MPI_Fint* sendcounts, MPI_Aint* sdispls, MPI_Fint* sendtypes,
                                     char* recvbuf, MPI_Fint* recvcounts, MPI_Aint* rdispls, MPI_Fint* recvtypes,
                                     MPI_Fint* c, MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierr) {
  const std::vector<MPI_Datatype> send = types(sendtypes, comm(c), false), recv = types(recvtypes, comm(c), true);
  with_request(request, ierr, [&](MPI_Request* r) {
    return MPIX_Neighbor_alltoallw_init(buffer(sendbuf), sendcounts, sdispls, send.data(), buffer(recvbuf), recvcounts,
                                        rdispls, recv.data(), comm(c), MPI_Info_f2c(*info), r);
  });
}
#endif

// The constructors, so that detection and the planners' set-ups run at creation (graph_calls.cpp).
void ompi_dist_graph_create_adjacent_f(MPI_Fint* comm_old, MPI_Fint* indegree, MPI_Fint* sources,
                                       MPI_Fint* sourceweights, MPI_Fint* outdegree, MPI_Fint* destinations,
                                       MPI_Fint* destweights, MPI_Fint* info, Logical* reorder, MPI_Fint* comm_graph,
                                       MPI_Fint* ierr) {
  MPI_Comm graph = MPI_COMM_NULL;
  const int code = MPI_Dist_graph_create_adjacent(comm(comm_old), *indegree, sources, weights(sourceweights), *outdegree,
                                                  destinations, weights(destweights), MPI_Info_f2c(*info),
                                                  *reorder != 0, &graph);
  if (code == MPI_SUCCESS) *comm_graph = MPI_Comm_c2f(graph);
  answer(ierr, code);
}

void ompi_dist_graph_create_f(MPI_Fint* comm_old, MPI_Fint* n, MPI_Fint* sources, MPI_Fint* degrees,
                              MPI_Fint* destinations, MPI_Fint* edge_weights, MPI_Fint* info, Logical* reorder,
                              MPI_Fint* comm_graph, MPI_Fint* ierr) {
  MPI_Comm graph = MPI_COMM_NULL;
  const int code = MPI_Dist_graph_create(comm(comm_old), *n, sources, degrees, destinations, weights(edge_weights),
                                         MPI_Info_f2c(*info), *reorder != 0, &graph);
  if (code == MPI_SUCCESS) *comm_graph = MPI_Comm_c2f(graph);
  answer(ierr, code);
}

// The request functions.
void ompi_wait_f(MPI_Fint* request, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  MPI_Status c_status{};  // no stack garbage in the fields MPI leaves alone (MPI_ERROR)
  const int code = MPI_Wait(&c_request, &c_status);
  if (code == MPI_SUCCESS) *request = MPI_Request_c2f(c_request);
  if (code == MPI_SUCCESS) status_out(c_status, status);
  answer(ierr, code);
}

void ompi_waitall_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierr) {
  Requests c_requests(count, requests);
  std::vector<MPI_Status> c_statuses(static_cast<std::size_t>(c_requests.count()));
  const int code = MPI_Waitall(c_requests.count(), c_requests.data(), c_statuses.data());
  c_requests.back();
  if (statuses_written(code)) statuses_out(c_statuses, statuses);
  answer(ierr, code);
}

void ompi_waitany_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status, MPI_Fint* ierr) {
  Requests c_requests(count, requests);
  MPI_Status c_status{};
  const int code = MPI_Waitany(c_requests.count(), c_requests.data(), index, &c_status);
  c_requests.back();
  if (code == MPI_SUCCESS) from_one(*index);
  if (code == MPI_SUCCESS) status_out(c_status, status);
  answer(ierr, code);
}

void ompi_waitsome_f(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                     MPI_Fint* statuses, MPI_Fint* ierr) {
  Requests c_requests(incount, requests);
  std::vector<MPI_Status> c_statuses(static_cast<std::size_t>(c_requests.count()));
  const int code = MPI_Waitsome(c_requests.count(), c_requests.data(), outcount, indices, c_statuses.data());
  c_requests.back();
  const int done = statuses_written(code) && *outcount != MPI_UNDEFINED ? *outcount : 0;
  for (int k = 0; k < done; ++k) from_one(indices[k]);
  statuses_out(std::span(c_statuses).first(static_cast<std::size_t>(done)), statuses);
  answer(ierr, code);
}

void ompi_test_f(MPI_Fint* request, Logical* flag, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  MPI_Status c_status{};
  int c_flag = 0;
  const int code = MPI_Test(&c_request, &c_flag, &c_status);
  if (code == MPI_SUCCESS) *request = MPI_Request_c2f(c_request);
  if (code == MPI_SUCCESS) *flag = c_flag != 0 ? 1 : 0;
  if (code == MPI_SUCCESS && c_flag != 0) status_out(c_status, status);
  answer(ierr, code);
}

void ompi_testall_f(MPI_Fint* count, MPI_Fint* requests, Logical* flag, MPI_Fint* statuses, MPI_Fint* ierr) {
  Requests c_requests(count, requests);
  std::vector<MPI_Status> c_statuses(static_cast<std::size_t>(c_requests.count()));
  int c_flag = 0;
  const int code = MPI_Testall(c_requests.count(), c_requests.data(), &c_flag, c_statuses.data());
  c_requests.back();
  if (statuses_written(code)) *flag = c_flag != 0 ? 1 : 0;
  if (statuses_written(code) && c_flag != 0) statuses_out(c_statuses, statuses);
  answer(ierr, code);
}

void ompi_testany_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, Logical* flag, MPI_Fint* status,
                    MPI_Fint* ierr) {
  Requests c_requests(count, requests);
  MPI_Status c_status{};
  int c_flag = 0;
  const int code = MPI_Testany(c_requests.count(), c_requests.data(), index, &c_flag, &c_status);
  c_requests.back();
  if (code == MPI_SUCCESS) from_one(*index);
  if (code == MPI_SUCCESS) *flag = c_flag != 0 ? 1 : 0;
  if (code == MPI_SUCCESS && c_flag != 0) status_out(c_status, status);
  answer(ierr, code);
}

void ompi_testsome_f(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                     MPI_Fint* statuses, MPI_Fint* ierr) {
  Requests c_requests(incount, requests);
  std::vector<MPI_Status> c_statuses(static_cast<std::size_t>(c_requests.count()));
  const int code = MPI_Testsome(c_requests.count(), c_requests.data(), outcount, indices, c_statuses.data());
  c_requests.back();
  const int done = statuses_written(code) && *outcount != MPI_UNDEFINED ? *outcount : 0;
  for (int k = 0; k < done; ++k) from_one(indices[k]);
  statuses_out(std::span(c_statuses).first(static_cast<std::size_t>(done)), statuses);
  answer(ierr, code);
}

void ompi_request_get_status_f(MPI_Fint* request, Logical* flag, MPI_Fint* status, MPI_Fint* ierr) {
  MPI_Status c_status{};
  int c_flag = 0;
  const int code = MPI_Request_get_status(MPI_Request_f2c(*request), &c_flag, &c_status);
  if (code == MPI_SUCCESS) *flag = c_flag != 0 ? 1 : 0;
  if (code == MPI_SUCCESS && c_flag != 0) status_out(c_status, status);
  answer(ierr, code);
}

void ompi_start_f(MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  answer(ierr, MPI_Start(&c_request));
}

void ompi_startall_f(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* ierr) {
  Requests c_requests(count, requests);
  answer(ierr, MPI_Startall(c_requests.count(), c_requests.data()));
}

void ompi_request_free_f(MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  const int code = MPI_Request_free(&c_request);
  if (code == MPI_SUCCESS) *request = MPI_Request_c2f(MPI_REQUEST_NULL);
  answer(ierr, code);
}

void ompi_cancel_f(MPI_Fint* request, MPI_Fint* ierr) {
  MPI_Request c_request = MPI_Request_f2c(*request);
  answer(ierr, MPI_Cancel(&c_request));
}

}  // extern "C"

CARTCOLL_FORTRAN_NAMES(ompi_neighbor_allgather_f, mpi_neighbor_allgather, MPI_NEIGHBOR_ALLGATHER)
CARTCOLL_FORTRAN_NAMES(ompi_neighbor_allgatherv_f, mpi_neighbor_allgatherv, MPI_NEIGHBOR_ALLGATHERV)
CARTCOLL_FORTRAN_NAMES(ompi_neighbor_alltoall_f, mpi_neighbor_alltoall, MPI_NEIGHBOR_ALLTOALL)
CARTCOLL_FORTRAN_NAMES(ompi_neighbor_alltoallv_f, mpi_neighbor_alltoallv, MPI_NEIGHBOR_ALLTOALLV)
CARTCOLL_FORTRAN_NAMES(ompi_neighbor_alltoallw_f, mpi_neighbor_alltoallw, MPI_NEIGHBOR_ALLTOALLW)
CARTCOLL_FORTRAN_NAMES(ompi_ineighbor_allgather_f, mpi_ineighbor_allgather, MPI_INEIGHBOR_ALLGATHER)
CARTCOLL_FORTRAN_NAMES(ompi_ineighbor_allgatherv_f, mpi_ineighbor_allgatherv, MPI_INEIGHBOR_ALLGATHERV)
CARTCOLL_FORTRAN_NAMES(ompi_ineighbor_alltoall_f, mpi_ineighbor_alltoall, MPI_INEIGHBOR_ALLTOALL)
CARTCOLL_FORTRAN_NAMES(ompi_ineighbor_alltoallv_f, mpi_ineighbor_alltoallv, MPI_INEIGHBOR_ALLTOALLV)
CARTCOLL_FORTRAN_NAMES(ompi_ineighbor_alltoallw_f, mpi_ineighbor_alltoallw, MPI_INEIGHBOR_ALLTOALLW)
#if CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT
CARTCOLL_FORTRAN_NAMES(ompix_neighbor_allgather_init_f, mpix_neighbor_allgather_init, MPIX_NEIGHBOR_ALLGATHER_INIT)
CARTCOLL_FORTRAN_NAMES(ompix_neighbor_allgatherv_init_f, mpix_neighbor_allgatherv_init, MPIX_NEIGHBOR_ALLGATHERV_INIT)
CARTCOLL_FORTRAN_NAMES(ompix_neighbor_alltoall_init_f, mpix_neighbor_alltoall_init, MPIX_NEIGHBOR_ALLTOALL_INIT)
CARTCOLL_FORTRAN_NAMES(ompix_neighbor_alltoallv_init_f, mpix_neighbor_alltoallv_init, MPIX_NEIGHBOR_ALLTOALLV_INIT)
CARTCOLL_FORTRAN_NAMES(ompix_neighbor_alltoallw_init_f, mpix_neighbor_alltoallw_init, MPIX_NEIGHBOR_ALLTOALLW_INIT)
#endif
CARTCOLL_FORTRAN_NAMES(ompi_dist_graph_create_adjacent_f, mpi_dist_graph_create_adjacent, MPI_DIST_GRAPH_CREATE_ADJACENT)
CARTCOLL_FORTRAN_NAMES(ompi_dist_graph_create_f, mpi_dist_graph_create, MPI_DIST_GRAPH_CREATE)
CARTCOLL_FORTRAN_NAMES(ompi_wait_f, mpi_wait, MPI_WAIT)
CARTCOLL_FORTRAN_NAMES(ompi_waitall_f, mpi_waitall, MPI_WAITALL)
CARTCOLL_FORTRAN_NAMES(ompi_waitany_f, mpi_waitany, MPI_WAITANY)
CARTCOLL_FORTRAN_NAMES(ompi_waitsome_f, mpi_waitsome, MPI_WAITSOME)
CARTCOLL_FORTRAN_NAMES(ompi_test_f, mpi_test, MPI_TEST)
CARTCOLL_FORTRAN_NAMES(ompi_testall_f, mpi_testall, MPI_TESTALL)
CARTCOLL_FORTRAN_NAMES(ompi_testany_f, mpi_testany, MPI_TESTANY)
CARTCOLL_FORTRAN_NAMES(ompi_testsome_f, mpi_testsome, MPI_TESTSOME)
CARTCOLL_FORTRAN_NAMES(ompi_request_get_status_f, mpi_request_get_status, MPI_REQUEST_GET_STATUS)
CARTCOLL_FORTRAN_NAMES(ompi_start_f, mpi_start, MPI_START)
CARTCOLL_FORTRAN_NAMES(ompi_startall_f, mpi_startall, MPI_STARTALL)
CARTCOLL_FORTRAN_NAMES(ompi_request_free_f, mpi_request_free, MPI_REQUEST_FREE)
CARTCOLL_FORTRAN_NAMES(ompi_cancel_f, mpi_cancel, MPI_CANCEL)

// Open MPI 4.1's mpi_f08 module calls some of these by their Fortran profiling names (mpi_test_f08
// calls pmpi_test_): those names must reach the layer too, or MPI_Test on a library request from
// `use mpi_f08` would never see it complete.
#define CARTCOLL_F08_PROFILING_NAME(impl, name) extern "C" decltype(impl) name __attribute__((alias(#impl)));
CARTCOLL_F08_PROFILING_NAME(ompi_test_f, pmpi_test_)
CARTCOLL_F08_PROFILING_NAME(ompi_testall_f, pmpi_testall_)
CARTCOLL_F08_PROFILING_NAME(ompi_testany_f, pmpi_testany_)
CARTCOLL_F08_PROFILING_NAME(ompi_testsome_f, pmpi_testsome_)
CARTCOLL_F08_PROFILING_NAME(ompi_request_get_status_f, pmpi_request_get_status_)
CARTCOLL_F08_PROFILING_NAME(ompi_dist_graph_create_adjacent_f, pmpi_dist_graph_create_adjacent_)
CARTCOLL_F08_PROFILING_NAME(ompi_dist_graph_create_f, pmpi_dist_graph_create_)

#endif  // OPEN_MPI
