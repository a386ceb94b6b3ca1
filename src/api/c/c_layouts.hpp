// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The C collectives' argument lists as Layouts, for every C face (Cart_*, CC_*, Iso_*): one builder per
// collective, given the neighborhood's degrees (which size the count, displacement and type arrays).
#include <algorithm>
#include <span>

#include "cartcoll/layout.hpp"
#include "argument_names.hpp"
#include "runtime/exec/argument_print.hpp"

namespace cartcoll::capi {

template <typename T>
std::span<const T> array(const T* values, int n) {
  return values == nullptr ? std::span<const T>() : std::span<const T>(values, static_cast<std::size_t>(std::max(n, 0)));
}

inline Layout allgather_layout(Degrees n, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype) {
  return layout::allgather(n, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

// The v builders take int displacements (MPI) or MPI_Aint ones (the isomorphic-collectives paper's
// (Träff, Carpen-Amarie, Hunold and Rougier) Iso_), in extents either way.
template <typename Displacement>
Layout allgatherv_layout(Degrees n, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const Displacement displs[], MPI_Datatype recvtype) {
  return layout::allgatherv(n, sendbuf, sendcount, sendtype, recvbuf, array(recvcounts, n.sources),
                            array(displs, n.sources), recvtype);
}

inline Layout allgatherw_layout(Degrees n, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                const int recvcounts[], const MPI_Aint displs[], const MPI_Datatype recvtypes[]) {
  return layout::allgatherw(n, sendbuf, sendcount, sendtype, recvbuf, array(recvcounts, n.sources),
                            array(displs, n.sources), array(recvtypes, n.sources));
}

inline Layout alltoall_layout(Degrees n, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype) {
  return layout::alltoall(n, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

template <typename Displacement>
Layout alltoallv_layout(Degrees n, const void* sendbuf, const int sendcounts[], const Displacement sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const Displacement rdispls[],
                        MPI_Datatype recvtype) {
  return layout::alltoallv(n, sendbuf, array(sendcounts, n.destinations), array(sdispls, n.destinations), sendtype,
                           recvbuf, array(recvcounts, n.sources), array(rdispls, n.sources), recvtype);
}

inline Layout alltoallw_layout(Degrees n, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]) {
  return layout::alltoallw(n, sendbuf, array(sendcounts, n.destinations), array(sdispls, n.destinations),
                           array(sendtypes, n.destinations), recvbuf, array(recvcounts, n.sources),
                           array(rdispls, n.sources), array(recvtypes, n.sources));
}

// The v and w calls' prints (ArgumentPrint): every argument a layout builder above reads. Inlined
// into each call that takes them (a blocking and a nonblocking one each): a repeated call's own
// work is mostly its print (tests/perf).
template <typename Displacement>
[[gnu::always_inline]] inline ArgumentPrint allgatherv_print(Degrees n, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const int recvcounts[], const Displacement displs[], MPI_Datatype recvtype) {
  ArgumentPrint print(ArgumentPrint::Form::allgatherv);
  print.add(sendbuf).add(sendcount).add(sendtype).add(recvbuf).add(recvtype);
  print.add(array(recvcounts, n.sources)).add(array(displs, n.sources));
  return print;
}

[[gnu::always_inline]] inline ArgumentPrint allgatherw_print(Degrees n, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void* recvbuf, const int recvcounts[], const MPI_Aint displs[],
                                      const MPI_Datatype recvtypes[]) {
  ArgumentPrint print(ArgumentPrint::Form::allgatherw);
  print.add(sendbuf).add(sendcount).add(sendtype).add(recvbuf);
  print.add(array(recvcounts, n.sources)).add(array(displs, n.sources)).add(array(recvtypes, n.sources));
  return print;
}

template <typename Displacement>
[[gnu::always_inline]] inline ArgumentPrint alltoallv_print(Degrees n, const void* sendbuf, const int sendcounts[], const Displacement sdispls[],
                              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                              const Displacement rdispls[], MPI_Datatype recvtype) {
  ArgumentPrint print(ArgumentPrint::Form::alltoallv);
  print.add(sendbuf).add(sendtype).add(recvbuf).add(recvtype);
  print.add(array(sendcounts, n.destinations)).add(array(sdispls, n.destinations));
  print.add(array(recvcounts, n.sources)).add(array(rdispls, n.sources));
  return print;
}

[[gnu::always_inline]] inline ArgumentPrint alltoallw_print(Degrees n, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]) {
  ArgumentPrint print(ArgumentPrint::Form::alltoallw);
  print.add(sendbuf).add(recvbuf);
  print.add(array(sendcounts, n.destinations)).add(array(sdispls, n.destinations)).add(array(sendtypes, n.destinations));
  print.add(array(recvcounts, n.sources)).add(array(rdispls, n.sources)).add(array(recvtypes, n.sources));
  return print;
}

}  // namespace cartcoll::capi

// Each builder bound to the caller's arguments of the same names, as a function of the degrees.
#define CARTCOLL_LAYOUT_OF(builder, ...) [&](cartcoll::Degrees n) { return cartcoll::capi::builder(n, __VA_ARGS__); }
// A v or w call's print and layout builders, for blocking calls (see ArgumentPrint).
#define CARTCOLL_PRINTED(name, ARGS) CARTCOLL_LAYOUT_OF(name##_print, ARGS), CARTCOLL_LAYOUT_OF(name##_layout, ARGS)
// The blocking regular calls go as their arguments (see RegularArguments).
#define CARTCOLL_ALLGATHER_ARGUMENTS \
  cartcoll::RegularArguments { cartcoll::Collective::allgather, CARTCOLL_ALLGATHER_ARGS }
#define CARTCOLL_ALLTOALL_ARGUMENTS \
  cartcoll::RegularArguments { cartcoll::Collective::alltoall, CARTCOLL_ALLTOALL_ARGS }
