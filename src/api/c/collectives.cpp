// SPDX-License-Identifier: BSD-3-Clause
// C API: the six collectives in blocking, nonblocking and persistent form, each a layout builder
// handed to one of CartComm's three verbs.

#include "c_layouts.hpp"
#include "committed_types.hpp"
#include "errors.hpp"
#include "request_handle.hpp"

using namespace cartcoll;

namespace {

// The v and w forms: a call repeated with an equal print (ArgumentPrint) skips building its layout.
template <typename MakePrint, typename MakeLayout>
int blocking(MPI_Comm cartcomm, MakePrint&& make_print, MakeLayout&& make_layout) {
  return capi::guarded(cartcomm, [&] {
    CartComm cart(cartcomm);
    const Degrees degrees = cart.degrees();
    cart.exchange(make_print(degrees), [&] { return make_layout(degrees); });
  });
}

int blocking_regular(MPI_Comm cartcomm, const RegularArguments& arguments) {
  return capi::guarded(cartcomm, [&] { CartComm(cartcomm).exchange(arguments); });
}

template <typename MakeLayout>
int nonblocking(MPI_Comm cartcomm, Cart_request* request, std::initializer_list<MPI_Datatype> types, MakeLayout&& make_layout) {
  int raised_by_mpi = MPI_SUCCESS;
  const int code = capi::guarded(cartcomm, [&] {
    if (request == nullptr) throw Error(Errc::request, "request is NULL");
    *request = CART_REQUEST_NULL;
    CartComm cart(cartcomm);
    const Layout layout = make_layout(cart.degrees());
    raised_by_mpi = capi::check_committed(types, layout, cartcomm);
    if (raised_by_mpi == MPI_SUCCESS) *request = capi::make_handle<Cart_request>(cart.iexchange(layout));
  });
  return raised_by_mpi != MPI_SUCCESS ? raised_by_mpi : code;
}

}  // namespace

// Each collective's argument list, as a layout builder of the degrees; the three forms share it.
#define CARTCOLL_ALLGATHER_LAYOUT CARTCOLL_LAYOUT_OF(allgather_layout, CARTCOLL_ALLGATHER_ARGS)
#define CARTCOLL_ALLGATHERV_LAYOUT CARTCOLL_LAYOUT_OF(allgatherv_layout, CARTCOLL_ALLGATHERV_ARGS)
#define CARTCOLL_ALLGATHERW_LAYOUT CARTCOLL_LAYOUT_OF(allgatherw_layout, CARTCOLL_ALLGATHERW_ARGS)
#define CARTCOLL_ALLTOALL_LAYOUT CARTCOLL_LAYOUT_OF(alltoall_layout, CARTCOLL_ALLTOALL_ARGS)
#define CARTCOLL_ALLTOALLV_LAYOUT CARTCOLL_LAYOUT_OF(alltoallv_layout, CARTCOLL_ALLTOALLV_ARGS)
#define CARTCOLL_ALLTOALLW_LAYOUT CARTCOLL_LAYOUT_OF(alltoallw_layout, CARTCOLL_ALLTOALLW_ARGS)

extern "C" {

int Cart_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return blocking_regular(cartcomm, CARTCOLL_ALLGATHER_ARGUMENTS);
}
int Cart_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_PRINTED(allgatherv, CARTCOLL_ALLGATHERV_ARGS));
}
int Cart_allgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                    MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_PRINTED(allgatherw, CARTCOLL_ALLGATHERW_ARGS));
}
int Cart_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return blocking_regular(cartcomm, CARTCOLL_ALLTOALL_ARGUMENTS);
}
int Cart_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                   MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_PRINTED(alltoallv, CARTCOLL_ALLTOALLV_ARGS));
}
int Cart_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_PRINTED(alltoallw, CARTCOLL_ALLTOALLW_ARGS));
}

int Cart_iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm cartcomm, Cart_request* request) {
  return nonblocking(cartcomm, request, {sendtype, recvtype}, CARTCOLL_ALLGATHER_LAYOUT);
}
int Cart_iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm,
                     Cart_request* request) {
  return nonblocking(cartcomm, request, {sendtype, recvtype}, CARTCOLL_ALLGATHERV_LAYOUT);
}
int Cart_iallgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                     MPI_Comm cartcomm, Cart_request* request) {
  return nonblocking(cartcomm, request, {sendtype}, CARTCOLL_ALLGATHERW_LAYOUT);
}
int Cart_ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm cartcomm, Cart_request* request) {
  return nonblocking(cartcomm, request, {sendtype, recvtype}, CARTCOLL_ALLTOALL_LAYOUT);
}
int Cart_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                    MPI_Comm cartcomm, Cart_request* request) {
  return nonblocking(cartcomm, request, {sendtype, recvtype}, CARTCOLL_ALLTOALLV_LAYOUT);
}
int Cart_ialltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm cartcomm,
                    Cart_request* request) {
  return nonblocking(cartcomm, request, {}, CARTCOLL_ALLTOALLW_LAYOUT);
}

int Cart_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm cartcomm, MPI_Info info, Cart_request* request) {
  return capi::persistent(cartcomm, info, request, CARTCOLL_ALLGATHER_LAYOUT);
}
int Cart_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm,
                         MPI_Info info, Cart_request* request) {
  return capi::persistent(cartcomm, info, request, CARTCOLL_ALLGATHERV_LAYOUT);
}
int Cart_allgatherw_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                         MPI_Comm cartcomm, MPI_Info info, Cart_request* request) {
  return capi::persistent(cartcomm, info, request, CARTCOLL_ALLGATHERW_LAYOUT);
}
int Cart_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm cartcomm, MPI_Info info, Cart_request* request) {
  return capi::persistent(cartcomm, info, request, CARTCOLL_ALLTOALL_LAYOUT);
}
int Cart_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm cartcomm, MPI_Info info, Cart_request* request) {
  return capi::persistent(cartcomm, info, request, CARTCOLL_ALLTOALLV_LAYOUT);
}
int Cart_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm cartcomm,
                        MPI_Info info, Cart_request* request) {
  return capi::persistent(cartcomm, info, request, CARTCOLL_ALLTOALLW_LAYOUT);
}

}  // extern "C"
