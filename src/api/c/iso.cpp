// SPDX-License-Identifier: BSD-3-Clause
// C API of <cartcoll/iso.h>, the isomorphic-collectives paper's (Träff, Carpen-Amarie, Hunold and
// Rougier) persistent isomorphic interface, over the Cart_ engine: an isocomm is a communicator
// made as Cart_neighborhood_create makes one, on the grid of cartcomm's MPI Cartesian topology; the
// *_init calls are CartComm::exchange_init, Iso_start is start and wait.
#include <cstddef>
#include <vector>

#include "runtime/comm/attach.hpp"
#include "runtime/selection/policy.hpp"
#include "runtime/comm/create.hpp"
#include "runtime/comm/settings.hpp"
#include "c_layouts.hpp"
#include "cartcoll/iso.h"
#include "errors.hpp"
#include "request_handle.hpp"

using namespace cartcoll;

namespace {

// The grid of cartcomm's MPI Cartesian topology. A communicator's topology is the same on all its
// processes, so a communicator without one fails on every process without communicating.
Grid grid_of(MPI_Comm cartcomm) {
  if (cartcomm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  const detail::MpiCartesian topology = detail::mpi_cartesian_of(cartcomm);
  if (topology.dims.empty()) throw Error(Errc::dims, "a zero-dimensional Cartesian topology has no offsets to name");
  return Grid(topology.dims, std::vector<bool>(topology.periods.begin(), topology.periods.end()));
}

// This process's arguments of Iso_neighborhood_create; create_collectively agrees on them.
detail::NeighborhoodSpec parse(const Grid& grid, int s, const int relative_coordinates[], const MPI_Comm* isocomm) {
  if (isocomm == nullptr) throw Error(Errc::arg, "isocomm is NULL");
  if (s < 0) throw Error(Errc::arg, "s must not be negative");
  if (s > 0 && relative_coordinates == nullptr) throw Error(Errc::arg, "relative_coordinates is NULL");
  const std::size_t ints = static_cast<std::size_t>(s) * static_cast<std::size_t>(grid.ndims());
  std::vector<int> flat(relative_coordinates, relative_coordinates + (s > 0 ? ints : 0));
  return {grid, Offsets(grid.ndims(), std::move(flat)), std::nullopt,
          detail::effective_algorithm(MPI_INFO_NULL, Algorithm::automatic()), detail::node_size_setting(MPI_INFO_NULL)};
}

// The isomorphic-collectives paper has no info arguments: the algorithm is the communicator's
// (CARTCOLL_ALGORITHM, else auto).
template <typename MakeLayout>
int iso_init(MPI_Comm isocomm, Iso_request* request, MakeLayout&& make_layout) {
  return capi::persistent(isocomm, MPI_INFO_NULL, request, make_layout);
}

}  // namespace

extern "C" {

int Iso_neighborhood_create(MPI_Comm cartcomm, int s, const int relative_coordinates[], MPI_Comm* isocomm) {
  if (isocomm != nullptr) *isocomm = MPI_COMM_NULL;
  return capi::guarded(cartcomm, [&] {
    const Grid grid = grid_of(cartcomm);
    // Without reordering, MPI_Cart_create numbers the processes as cartcomm does: same ranks, same
    // coordinates.
    Communicator created = detail::create_collectively(
        cartcomm, [&] { return parse(grid, s, relative_coordinates, isocomm); }, false);
    *isocomm = created.release();
  });
}

int Iso_neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm isocomm, Iso_request* request) {
  return iso_init(isocomm, request,
                  CARTCOLL_LAYOUT_OF(alltoall_layout, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

int Iso_neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm isocomm, Iso_request* request) {
  return iso_init(isocomm, request,
                  CARTCOLL_LAYOUT_OF(allgather_layout, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype));
}

int Iso_neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const MPI_Aint senddispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                const MPI_Aint recvdispls[], MPI_Datatype recvtype, MPI_Comm isocomm,
                                Iso_request* request) {
  return iso_init(isocomm, request,
                  CARTCOLL_LAYOUT_OF(alltoallv_layout, sendbuf, sendcounts, senddispls, sendtype, recvbuf, recvcounts,
                                     recvdispls, recvtype));
}

int Iso_neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const MPI_Aint recvdispls[], MPI_Datatype recvtype,
                                 MPI_Comm isocomm, Iso_request* request) {
  return iso_init(isocomm, request,
                  CARTCOLL_LAYOUT_OF(allgatherv_layout, sendbuf, sendcount, sendtype, recvbuf, recvcounts, recvdispls,
                                     recvtype));
}

int Iso_neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint senddispls[],
                                const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                const MPI_Aint recvdispls[], const MPI_Datatype recvtypes[], MPI_Comm isocomm,
                                Iso_request* request) {
  return iso_init(isocomm, request,
                  CARTCOLL_LAYOUT_OF(alltoallw_layout, sendbuf, sendcounts, senddispls, sendtypes, recvbuf, recvcounts,
                                     recvdispls, recvtypes));
}

int Iso_neighbor_allgatherw_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const MPI_Aint recvdispls[], const MPI_Datatype recvtypes[],
                                 MPI_Comm isocomm, Iso_request* request) {
  return iso_init(isocomm, request,
                  CARTCOLL_LAYOUT_OF(allgatherw_layout, sendbuf, sendcount, sendtype, recvbuf, recvcounts, recvdispls,
                                     recvtypes));
}

// The isomorphic-collectives paper: "Collective communication is initiated and completed by the
// start call".
int Iso_start(Iso_request* request) {
  return capi::with_request(request, [](Request& handle) {
    handle.start();
    handle.wait();
  });
}

int Iso_request_free(Iso_request* request) { return capi::free_request(request); }

}  // extern "C"
