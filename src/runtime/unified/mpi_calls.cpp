// SPDX-License-Identifier: BSD-3-Clause
#include "mpi_calls.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/exec/mpi_handles.hpp"
#include "peers.hpp"

// MPI-4's persistent collectives are found by symbol at configure time (CMakeLists.txt), not by
// MPI_VERSION: Open MPI 4.1 is MPI-3.1 and has them as MPIX_*_init in <mpi-ext.h>.
#if defined(CARTCOLL_HAVE_MPIX_PERSISTENT_COLLECTIVES) && !defined(CARTCOLL_HAVE_MPI_PERSISTENT_COLLECTIVES)
#include <mpi-ext.h>
#endif

// MPICH 4.0's persistent collectives are defective (measured with 4.0.2, 1-3 processes, each started
// several times): MPI_Gather_init copies the root's own block when the request is made, not at each
// start; MPI_Scatter_init and MPI_Allgather_init deliver nothing at the second start; at 3 processes
// a start fails with "Invalid communicator". There the library makes persistent requests of the
// nonblocking collectives, as where MPI has none.
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
#undef CARTCOLL_HAVE_MPI_PERSISTENT_COLLECTIVES
#endif

#if defined(CARTCOLL_HAVE_MPI_PERSISTENT_COLLECTIVES)
#define CARTCOLL_PERSISTENT(name, ...) \
  [=](MPI_Info info, MPI_Request* request) { return MPI_##name##_init(__VA_ARGS__ __VA_OPT__(, ) comm, info, request); }
#elif defined(CARTCOLL_HAVE_MPIX_PERSISTENT_COLLECTIVES)
#define CARTCOLL_PERSISTENT(name, ...)                                         \
  [=](MPI_Info info, MPI_Request* request) {                                   \
    return MPIX_##name##_init(__VA_ARGS__ __VA_OPT__(, ) comm, info, request); \
  }
#else
#define CARTCOLL_PERSISTENT(name, ...) nullptr
#endif

// MPI_<name>, MPI_<iname> and the persistent form, bound to the arguments (copied: pointers and
// scalars) and to `comm`.
#define CARTCOLL_BIND(name, iname, ...)                                                              \
  MpiCall {                                                                                          \
    [=] { return MPI_##name(__VA_ARGS__ __VA_OPT__(, ) comm); },                                     \
        [=](MPI_Request* request) { return MPI_##iname(__VA_ARGS__ __VA_OPT__(, ) comm, request); }, \
        CARTCOLL_PERSISTENT(name, __VA_ARGS__), nullptr                                              \
  }

namespace cartcoll::detail {

namespace {

using namespace unified;

// One side of MPI_Alltoallw: a count, an int byte displacement and a datatype per peer. A block
// whose MPI_Aint displacement does not fit in an int (an absolute address from MPI_BOTTOM, a buffer
// beyond 2 GiB) becomes one struct datatype placed at it, with count 1 and displacement 0.
class IntDisplacements {
 public:
  void add(int count, MPI_Aint displacement, MPI_Datatype type) {
    if (displacement >= std::numeric_limits<int>::min() && displacement <= std::numeric_limits<int>::max()) {
      push(count, static_cast<int>(displacement), type);
      return;
    }
    MPI_Datatype placed = MPI_DATATYPE_NULL;
    check(MPI_Type_create_struct(1, &count, &displacement, &type, &placed), "MPI_Type_create_struct");
    made_.emplace_back(placed);
    check(MPI_Type_commit(&placed), "MPI_Type_commit");
    push(1, 0, placed);
  }
  const int* counts() const noexcept { return counts_.data(); }
  const int* displs() const noexcept { return displs_.data(); }
  const MPI_Datatype* types() const noexcept { return types_.data(); }
  // Empty entries up to `entries` (see entries_mpi_may_read).
  void pad_to(std::size_t entries) {
    while (types_.size() < entries) push(0, 0, MPI_BYTE);
  }

 private:
  void push(int count, int displacement, MPI_Datatype type) {
    counts_.push_back(count);
    displs_.push_back(displacement);
    types_.push_back(type);
  }
  std::vector<int> counts_, displs_;
  std::vector<MPI_Datatype> types_;
  std::vector<Datatype> made_;
};

struct AlltoallwArrays {
  IntDisplacements send, recv;
};

// Open MPI 4.1's nonblocking and persistent MPI_Alltoallw read, to retain the datatypes, as many
// entries of each array as the communicator's topology has neighbors when it has one, not as many as
// it has processes (valgrind caught it): past the arrays on a Cartesian topology with a periodic
// dimension of size 1 or 2, where the neighbors outnumber the processes. The arrays are padded with
// empty entries up to the larger count.
std::size_t entries_mpi_may_read(MPI_Comm comm, int peers) {
  int kind = MPI_UNDEFINED, in = 0, out = 0;
  check(MPI_Topo_test(comm, &kind), "MPI_Topo_test");
  if (kind == MPI_CART) {
    check(MPI_Cartdim_get(comm, &in), "MPI_Cartdim_get");
    out = in = 2 * in;
  } else if (kind == MPI_GRAPH) {
    int rank = 0;
    check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    check(MPI_Graph_neighbors_count(comm, rank, &in), "MPI_Graph_neighbors_count");
    out = in;
  } else if (kind == MPI_DIST_GRAPH) {
    int weighted = 0;
    check(MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted), "MPI_Dist_graph_neighbors_count");
  }
  return static_cast<std::size_t>(std::max({peers, in, out}));
}

template <typename T>
void require_entries(std::span<const T> values, int n, const char* what) {
  if (n > 0 && (values.data() == nullptr || values.size() < static_cast<std::size_t>(n)))
    throw Error(Errc::arg, std::string(what) + " has fewer entries than the communicator has peers");
}

void add_side(IntDisplacements& side, int n, std::span<const int> counts, std::span<const MPI_Aint> displs,
              std::span<const MPI_Datatype> types) {
  require_entries(counts, n, "a counts array");
  require_entries(displs, n, "a displacements array");
  require_entries(types, n, "a datatypes array");
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) side.add(counts[i], displs[i], types[i]);
}

// `peers`: the processes of comm's group, the entries each side has.
MpiCall bind_alltoallw(MPI_Comm comm, int peers, const void* sendbuf, void* recvbuf,
                       std::shared_ptr<AlltoallwArrays> arrays, bool send_ignored) {
  const std::size_t entries = entries_mpi_may_read(comm, peers);
  arrays->send.pad_to(entries);
  arrays->recv.pad_to(entries);
  const IntDisplacements* send = send_ignored ? nullptr : &arrays->send;
  const int* scounts = send ? send->counts() : nullptr;
  const int* sdispls = send ? send->displs() : nullptr;
  const MPI_Datatype* stypes = send ? send->types() : nullptr;
  const IntDisplacements& recv = arrays->recv;
  const int *rcounts = recv.counts(), *rdispls = recv.displs();
  const MPI_Datatype* rtypes = recv.types();
  MpiCall call =
      CARTCOLL_BIND(Alltoallw, Ialltoallw, sendbuf, scounts, sdispls, stypes, recvbuf, rcounts, rdispls, rtypes);
  call.owned = std::move(arrays);
  return call;
}

MpiCall forward(MPI_Comm comm, const Barrier&) { return CARTCOLL_BIND(Barrier, Ibarrier); }
MpiCall forward(MPI_Comm comm, const Bcast& c) {
  return CARTCOLL_BIND(Bcast, Ibcast, c.buffer, c.count, c.type, c.root);
}
MpiCall forward(MPI_Comm comm, const Gather& c) {
  return CARTCOLL_BIND(Gather, Igather, c.sendbuf, c.sendcount, c.sendtype, c.recvbuf, c.recvcount, c.recvtype, c.root);
}
MpiCall forward(MPI_Comm comm, const Gatherv& c) {
  return CARTCOLL_BIND(Gatherv, Igatherv, c.sendbuf, c.sendcount, c.sendtype, c.recvbuf, c.recvcounts.data(),
                       c.displs.data(), c.recvtype, c.root);
}
MpiCall forward(MPI_Comm comm, const Scatter& c) {
  return CARTCOLL_BIND(Scatter, Iscatter, c.sendbuf, c.sendcount, c.sendtype, c.recvbuf, c.recvcount, c.recvtype,
                       c.root);
}
MpiCall forward(MPI_Comm comm, const Scatterv& c) {
  return CARTCOLL_BIND(Scatterv, Iscatterv, c.sendbuf, c.sendcounts.data(), c.displs.data(), c.sendtype, c.recvbuf,
                       c.recvcount, c.recvtype, c.root);
}
MpiCall forward(MPI_Comm comm, const Allgather& c) {
  return CARTCOLL_BIND(Allgather, Iallgather, c.sendbuf, c.sendcount, c.sendtype, c.recvbuf, c.recvcount, c.recvtype);
}
MpiCall forward(MPI_Comm comm, const Allgatherv& c) {
  return CARTCOLL_BIND(Allgatherv, Iallgatherv, c.sendbuf, c.sendcount, c.sendtype, c.recvbuf, c.recvcounts.data(),
                       c.displs.data(), c.recvtype);
}
MpiCall forward(MPI_Comm comm, const Alltoall& c) {
  return CARTCOLL_BIND(Alltoall, Ialltoall, c.sendbuf, c.sendcount, c.sendtype, c.recvbuf, c.recvcount, c.recvtype);
}
MpiCall forward(MPI_Comm comm, const Alltoallv& c) {
  return CARTCOLL_BIND(Alltoallv, Ialltoallv, c.sendbuf, c.sendcounts.data(), c.sdispls.data(), c.sendtype, c.recvbuf,
                       c.recvcounts.data(), c.rdispls.data(), c.recvtype);
}
MpiCall forward(MPI_Comm comm, const Reduce& c) {
  return CARTCOLL_BIND(Reduce, Ireduce, c.sendbuf, c.recvbuf, c.count, c.type, c.op, c.root);
}
MpiCall forward(MPI_Comm comm, const Allreduce& c) {
  return CARTCOLL_BIND(Allreduce, Iallreduce, c.sendbuf, c.recvbuf, c.count, c.type, c.op);
}
MpiCall forward(MPI_Comm comm, const ReduceScatter& c) {
  return CARTCOLL_BIND(Reduce_scatter, Ireduce_scatter, c.sendbuf, c.recvbuf, c.recvcounts.data(), c.type, c.op);
}
MpiCall forward(MPI_Comm comm, const ReduceScatterBlock& c) {
  return CARTCOLL_BIND(Reduce_scatter_block, Ireduce_scatter_block, c.sendbuf, c.recvbuf, c.recvcount, c.type, c.op);
}
MpiCall forward(MPI_Comm comm, const Scan& c) {
  return CARTCOLL_BIND(Scan, Iscan, c.sendbuf, c.recvbuf, c.count, c.type, c.op);
}
MpiCall forward(MPI_Comm comm, const Exscan& c) {
  return CARTCOLL_BIND(Exscan, Iexscan, c.sendbuf, c.recvbuf, c.count, c.type, c.op);
}

// MPI_Alltoallw with MPI_Aint displacements (MPI-4's MPI_Alltoallw_c is not in Open MPI 4.1).
MpiCall forward(MPI_Comm comm, const Alltoallw& c) {
  const int n = peer_count(comm);
  auto arrays = std::make_shared<AlltoallwArrays>();
  const bool in_place = c.sendbuf == MPI_IN_PLACE;
  if (!in_place) add_side(arrays->send, n, c.sendcounts, c.sdispls, c.sendtypes);
  add_side(arrays->recv, n, c.recvcounts, c.rdispls, c.recvtypes);
  return bind_alltoallw(comm, n, c.sendbuf, c.recvbuf, std::move(arrays), in_place);
}

// Allgatherw is not MPI's: MPI_Alltoallw sending the one block to every peer. With MPI_IN_PLACE the
// block is this process's own receive block, sent from its absolute address (MPI_BOTTOM, so that no
// buffer argument aliases another), and nothing goes from the process to itself.
MpiCall forward(MPI_Comm comm, const Allgatherw& c) {
  const int n = peer_count(comm);
  const bool in_place = c.sendbuf == MPI_IN_PLACE;
  int rank = 0, inter = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (in_place && inter) throw Error(Errc::buffer, "MPI_IN_PLACE on an inter-communicator");
  require_entries(c.recvcounts, n, "recvcounts");
  require_entries(c.displs, n, "displs");
  require_entries(c.recvtypes, n, "recvtypes");
  auto arrays = std::make_shared<AlltoallwArrays>();
  MPI_Aint own = 0;
  if (in_place) check(MPI_Get_address(c.recvbuf, &own), "MPI_Get_address");
  const auto me = static_cast<std::size_t>(rank);
  for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
    const bool self = in_place && i == me;
    if (in_place)
      arrays->send.add(self ? 0 : c.recvcounts[me], MPI_Aint_add(own, c.displs[me]), c.recvtypes[me]);
    else
      arrays->send.add(c.sendcount, 0, c.sendtype);
    arrays->recv.add(self ? 0 : c.recvcounts[i], c.displs[i], c.recvtypes[i]);
  }
  return bind_alltoallw(comm, n, in_place ? MPI_BOTTOM : c.sendbuf, c.recvbuf, std::move(arrays), false);
}

}  // namespace

MpiCall mpi_call(MPI_Comm comm, const unified::Call& call) {
  return std::visit([comm](const auto& c) { return forward(comm, c); }, call);
}

}  // namespace cartcoll::detail
