// C API: the six collectives in blocking, nonblocking and persistent form, each a layout builder
// handed to one of CartComm's three verbs.
#include <memory>

#include "errors.hpp"
#include "request_handle.hpp"

using namespace cartcoll;

namespace {

template <typename T>
std::span<const T> array(const T* values, int t) {
  return values == nullptr ? std::span<const T>() : std::span<const T>(values, static_cast<std::size_t>(std::max(t, 0)));
}

template <typename MakeLayout>
int blocking(MPI_Comm cartcomm, MakeLayout&& make_layout) {
  return capi::guarded(cartcomm, [&] {
    CartComm cart(cartcomm);
    cart.exchange(make_layout(cart.neighbor_count()));
  });
}

template <typename MakeLayout>
int nonblocking(MPI_Comm cartcomm, Cart_request* request, MakeLayout&& make_layout) {
  return capi::guarded(cartcomm, [&] {
    if (request == nullptr) throw Error(Errc::request, "request is NULL");
    *request = CART_REQUEST_NULL;
    CartComm cart(cartcomm);
    auto handle = std::make_unique<Cart_request_s>(Cart_request_s{cart.iexchange(make_layout(cart.neighbor_count()))});
    *request = handle.release();
  });
}

template <typename MakeLayout>
int persistent(MPI_Comm cartcomm, MPI_Info info, Cart_request* request, MakeLayout&& make_layout) {
  return capi::guarded(cartcomm, [&] {
    if (request != nullptr) *request = CART_REQUEST_NULL;
    CartComm cart(cartcomm);
    Request made = cart.exchange_init(
        [&] {
          if (request == nullptr) throw Error(Errc::request, "request is NULL");
          return make_layout(cart.neighbor_count());
        },
        RequestOptions{std::nullopt, info});
    *request = std::make_unique<Cart_request_s>(Cart_request_s{std::move(made)}).release();
  });
}

}  // namespace

// Each collective's argument list, as a layout builder of t; the three forms below share it.
#define CARTCOLL_ALLGATHER_LAYOUT \
  [&](int t) { return layout::allgather(t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); }
#define CARTCOLL_ALLGATHERV_LAYOUT                                                                        \
  [&](int t) {                                                                                            \
    return layout::allgatherv(t, sendbuf, sendcount, sendtype, recvbuf, array(recvcounts, t), array(displs, t), \
                              recvtype);                                                                  \
  }
#define CARTCOLL_ALLGATHERW_LAYOUT                                                                        \
  [&](int t) {                                                                                            \
    return layout::allgatherw(t, sendbuf, sendcount, sendtype, recvbuf, array(recvcounts, t), array(displs, t), \
                              array(recvtypes, t));                                                       \
  }
#define CARTCOLL_ALLTOALL_LAYOUT \
  [&](int t) { return layout::alltoall(t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype); }
#define CARTCOLL_ALLTOALLV_LAYOUT                                                                          \
  [&](int t) {                                                                                             \
    return layout::alltoallv(t, sendbuf, array(sendcounts, t), array(sdispls, t), sendtype, recvbuf,         \
                             array(recvcounts, t), array(rdispls, t), recvtype);                          \
  }
#define CARTCOLL_ALLTOALLW_LAYOUT                                                                          \
  [&](int t) {                                                                                             \
    return layout::alltoallw(t, sendbuf, array(sendcounts, t), array(sdispls, t), array(sendtypes, t),       \
                             recvbuf, array(recvcounts, t), array(rdispls, t), array(recvtypes, t));        \
  }

extern "C" {

int Cart_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_ALLGATHER_LAYOUT);
}
int Cart_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_ALLGATHERV_LAYOUT);
}
int Cart_allgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                    MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_ALLGATHERW_LAYOUT);
}
int Cart_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_ALLTOALL_LAYOUT);
}
int Cart_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                   MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_ALLTOALLV_LAYOUT);
}
int Cart_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm cartcomm) {
  return blocking(cartcomm, CARTCOLL_ALLTOALLW_LAYOUT);
}

int Cart_iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm cartcomm, Cart_request* request) {
  return nonblocking(cartcomm, request, CARTCOLL_ALLGATHER_LAYOUT);
}
int Cart_iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm,
                     Cart_request* request) {
  return nonblocking(cartcomm, request, CARTCOLL_ALLGATHERV_LAYOUT);
}
int Cart_iallgatherw(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                     MPI_Comm cartcomm, Cart_request* request) {
  return nonblocking(cartcomm, request, CARTCOLL_ALLGATHERW_LAYOUT);
}
int Cart_ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm cartcomm, Cart_request* request) {
  return nonblocking(cartcomm, request, CARTCOLL_ALLTOALL_LAYOUT);
}
int Cart_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                    MPI_Comm cartcomm, Cart_request* request) {
  return nonblocking(cartcomm, request, CARTCOLL_ALLTOALLV_LAYOUT);
}
int Cart_ialltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm cartcomm,
                    Cart_request* request) {
  return nonblocking(cartcomm, request, CARTCOLL_ALLTOALLW_LAYOUT);
}

int Cart_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm cartcomm, MPI_Info info, Cart_request* request) {
  return persistent(cartcomm, info, request, CARTCOLL_ALLGATHER_LAYOUT);
}
int Cart_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm cartcomm,
                         MPI_Info info, Cart_request* request) {
  return persistent(cartcomm, info, request, CARTCOLL_ALLGATHERV_LAYOUT);
}
int Cart_allgatherw_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[],
                         MPI_Comm cartcomm, MPI_Info info, Cart_request* request) {
  return persistent(cartcomm, info, request, CARTCOLL_ALLGATHERW_LAYOUT);
}
int Cart_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm cartcomm, MPI_Info info, Cart_request* request) {
  return persistent(cartcomm, info, request, CARTCOLL_ALLTOALL_LAYOUT);
}
int Cart_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm cartcomm, MPI_Info info, Cart_request* request) {
  return persistent(cartcomm, info, request, CARTCOLL_ALLTOALLV_LAYOUT);
}
int Cart_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm cartcomm,
                        MPI_Info info, Cart_request* request) {
  return persistent(cartcomm, info, request, CARTCOLL_ALLTOALLW_LAYOUT);
}

}  // extern "C"
