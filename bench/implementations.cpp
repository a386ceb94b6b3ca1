#include "implementations.hpp"

#include <algorithm>

#include "cartcoll/plan.hpp"
#include "cartcoll/topology.hpp"
#include "util/neighborhoods.hpp"

#if defined(CARTCOLL_HAVE_MPI_NEIGHBOR_INIT)
#define NEIGHBOR_INIT(name) MPI_Neighbor_##name##_init
#elif defined(CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT)
#include <mpi-ext.h>
#define NEIGHBOR_INIT(name) MPIX_Neighbor_##name##_init
#endif

namespace bench {
namespace {

MPI_Comm make_cart(const Options& options, const std::vector<int>& dims, const std::string& algorithm) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cartcoll_algorithm", algorithm.c_str());
  const std::vector<int> periods(dims.size(), 1);
  MPI_Comm cart = MPI_COMM_NULL;
  Cart_neighborhood_create(MPI_COMM_WORLD, options.d, dims.data(), periods.data(),
                           static_cast<int>(options.offsets.size()) / options.d, options.offsets.data(),
                           MPI_UNWEIGHTED, info, 0, &cart);
  MPI_Info_free(&info);
  return cart;
}

cartcoll::Schedule combining_plan(const Options& options, const std::vector<int>& dims, cartcoll::Collective c) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const cartcoll::Grid grid(dims, std::vector<bool>(dims.size(), true));
  const cartcoll::Offsets offsets(options.d, options.offsets);
  const std::vector<int> coords = grid.coords_of(rank);
  return cartcoll::plan(cartcoll::Algorithm::named("combining"), {grid, offsets, coords}, c);
}

}  // namespace

Communicators::Communicators(const Options& options, const std::vector<int>& dims) {
  for (const cartcoll::PlannerEntry& planner : cartcoll::planners()) {
    const std::string algorithm(planner.name);
    carts_[algorithm] = make_cart(options, dims, algorithm);
  }
  carts_["auto"] = make_cart(options, dims, "auto");
  const int t = static_cast<int>(options.offsets.size()) / options.d;
  std::vector<int> sources(static_cast<std::size_t>(t)), targets(sources.size());
  Cart_neighbor_get(carts_.at("trivial"), t, sources.data(), MPI_UNWEIGHTED, t, targets.data(), MPI_UNWEIGHTED);
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, t, sources.data(), MPI_UNWEIGHTED, t, targets.data(),
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_);
  if (options.offsets == cartcoll::neighborhoods::cartesian_axes(options.d)) {
    const std::vector<int> periods(dims.size(), 1);
    MPI_Cart_create(MPI_COMM_WORLD, options.d, dims.data(), periods.data(), 0, &mpi_cart_);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &world_);
  alltoall_plan_ = combining_plan(options, dims, cartcoll::Collective::alltoall);
  gather_plan_ = combining_plan(options, dims, cartcoll::Collective::allgather);
}

Communicators::~Communicators() {
  for (auto& [name, cart] : carts_) MPI_Comm_free(&cart);
  MPI_Comm_free(&graph_);
  if (mpi_cart_ != MPI_COMM_NULL) MPI_Comm_free(&mpi_cart_);
  MPI_Comm_free(&world_);
}

Implementations::~Implementations() {
  for (auto& request : cart_requests_) Cart_request_free(request.get());
  for (auto& request : mpi_requests_)
    if (*request != MPI_REQUEST_NULL) MPI_Request_free(request.get());
}

std::optional<Run> Implementations::make(const std::string& impl, std::string& why) {
  if (impl == "ideal") return ideal();
  if (impl == "mpi-neighbor") return mpi_blocking(comms_.graph());
  if (impl == "mpi-ineighbor") return mpi_nonblocking(comms_.graph());
  if (impl == "mpi-neighbor-persistent") return mpi_persistent(comms_.graph(), why);
  if (impl == "mpi-cart-neighbor") {
    if (comms_.mpi_cart() != MPI_COMM_NULL) return mpi_blocking(comms_.mpi_cart());
    why = "only for --axes D, the neighborhood of MPI's Cartesian topology";
    return std::nullopt;
  }
  const bool persistent = impl.ends_with("-persistent");
  const std::string algorithm = impl.substr(5, impl.size() - 5 - (persistent ? 11 : 0));
  const MPI_Comm cart = comms_.cart(algorithm);
  return persistent ? cart_persistent(cart) : cart_blocking(cart);
}

Run Implementations::cart_blocking(MPI_Comm c) {
  Workload& w = work_;
  const void* s = w.send.data();
  void* r = w.recv.data();
  const MPI_Datatype y = w.type;
  if (w.op == "alltoall") return [&w, s, r, y, c] { Cart_alltoall(s, w.m, y, r, w.m, y, c); };
  if (w.op == "alltoallv")
    return [&w, s, r, y, c] {
      Cart_alltoallv(s, w.counts.data(), w.displs.data(), y, r, w.counts.data(), w.displs.data(), y, c);
    };
  if (w.op == "alltoallw")
    return [&w, s, r, c] {
      Cart_alltoallw(s, w.ones.data(), w.byte_displs.data(), w.block_types.data(), r, w.ones.data(),
                     w.byte_displs.data(), w.block_types.data(), c);
    };
  if (w.op == "allgather") return [&w, s, r, y, c] { Cart_allgather(s, w.m, y, r, w.m, y, c); };
  if (w.op == "allgatherv")
    return [&w, s, r, y, c] { Cart_allgatherv(s, w.m, y, r, w.counts.data(), w.displs.data(), y, c); };
  return [&w, s, r, y, c] {
    Cart_allgatherw(s, w.m, y, r, w.ones.data(), w.byte_displs.data(), w.block_types.data(), c);
  };
}

Run Implementations::cart_persistent(MPI_Comm c) {
  Workload& w = work_;
  const void* s = w.send.data();
  void* r = w.recv.data();
  const MPI_Datatype y = w.type;
  Cart_request* q = cart_requests_.emplace_back(std::make_unique<Cart_request>(CART_REQUEST_NULL)).get();
  const MPI_Info i = MPI_INFO_NULL;
  if (w.op == "alltoall") Cart_alltoall_init(s, w.m, y, r, w.m, y, c, i, q);
  else if (w.op == "alltoallv")
    Cart_alltoallv_init(s, w.counts.data(), w.displs.data(), y, r, w.counts.data(), w.displs.data(), y, c, i, q);
  else if (w.op == "alltoallw")
    Cart_alltoallw_init(s, w.ones.data(), w.byte_displs.data(), w.block_types.data(), r, w.ones.data(),
                        w.byte_displs.data(), w.block_types.data(), c, i, q);
  else if (w.op == "allgather") Cart_allgather_init(s, w.m, y, r, w.m, y, c, i, q);
  else if (w.op == "allgatherv") Cart_allgatherv_init(s, w.m, y, r, w.counts.data(), w.displs.data(), y, c, i, q);
  else Cart_allgatherw_init(s, w.m, y, r, w.ones.data(), w.byte_displs.data(), w.block_types.data(), c, i, q);
  return [q] {
    Cart_start(q);
    Cart_wait(q);
  };
}

// MPI has no neighbor allgatherw: it is MPI_Neighbor_alltoallw sending the one block to every neighbor.
Run Implementations::mpi_blocking(MPI_Comm c) {
  Workload& w = work_;
  const void* s = w.send.data();
  void* r = w.recv.data();
  const MPI_Datatype y = w.type;
  if (w.op == "alltoall") return [&w, s, r, y, c] { MPI_Neighbor_alltoall(s, w.m, y, r, w.m, y, c); };
  if (w.op == "alltoallv")
    return [&w, s, r, y, c] {
      MPI_Neighbor_alltoallv(s, w.counts.data(), w.displs.data(), y, r, w.counts.data(), w.displs.data(), y, c);
    };
  if (w.op == "alltoallw")
    return [&w, s, r, c] {
      MPI_Neighbor_alltoallw(s, w.ones.data(), w.byte_displs.data(), w.block_types.data(), r, w.ones.data(),
                             w.byte_displs.data(), w.block_types.data(), c);
    };
  if (w.op == "allgather") return [&w, s, r, y, c] { MPI_Neighbor_allgather(s, w.m, y, r, w.m, y, c); };
  if (w.op == "allgatherv")
    return [&w, s, r, y, c] { MPI_Neighbor_allgatherv(s, w.m, y, r, w.counts.data(), w.displs.data(), y, c); };
  return [&w, s, r, c] {
    MPI_Neighbor_alltoallw(s, w.ones.data(), w.zero_displs.data(), w.block_types.data(), r, w.ones.data(),
                           w.byte_displs.data(), w.block_types.data(), c);
  };
}

Run Implementations::mpi_nonblocking(MPI_Comm c) {
  Workload& w = work_;
  const void* s = w.send.data();
  void* r = w.recv.data();
  const MPI_Datatype y = w.type;
  MPI_Request* q = mpi_requests_.emplace_back(std::make_unique<MPI_Request>(MPI_REQUEST_NULL)).get();
  std::function<void()> start;
  if (w.op == "alltoall") start = [&w, s, r, y, c, q] { MPI_Ineighbor_alltoall(s, w.m, y, r, w.m, y, c, q); };
  else if (w.op == "alltoallv")
    start = [&w, s, r, y, c, q] {
      MPI_Ineighbor_alltoallv(s, w.counts.data(), w.displs.data(), y, r, w.counts.data(), w.displs.data(), y, c,
                              q);
    };
  else if (w.op == "alltoallw")
    start = [&w, s, r, c, q] {
      MPI_Ineighbor_alltoallw(s, w.ones.data(), w.byte_displs.data(), w.block_types.data(), r, w.ones.data(),
                              w.byte_displs.data(), w.block_types.data(), c, q);
    };
  else if (w.op == "allgather")
    start = [&w, s, r, y, c, q] { MPI_Ineighbor_allgather(s, w.m, y, r, w.m, y, c, q); };
  else if (w.op == "allgatherv")
    start = [&w, s, r, y, c, q] {
      MPI_Ineighbor_allgatherv(s, w.m, y, r, w.counts.data(), w.displs.data(), y, c, q);
    };
  else
    start = [&w, s, r, c, q] {
      MPI_Ineighbor_alltoallw(s, w.ones.data(), w.zero_displs.data(), w.block_types.data(), r, w.ones.data(),
                              w.byte_displs.data(), w.block_types.data(), c, q);
    };
  return [start, q] {
    start();
    MPI_Wait(q, MPI_STATUS_IGNORE);
  };
}

std::optional<Run> Implementations::mpi_persistent(MPI_Comm c, std::string& why) {
#ifdef NEIGHBOR_INIT
  (void)why;
  Workload& w = work_;
  const void* s = w.send.data();
  void* r = w.recv.data();
  const MPI_Datatype y = w.type;
  const MPI_Info i = MPI_INFO_NULL;
  MPI_Request* q = mpi_requests_.emplace_back(std::make_unique<MPI_Request>(MPI_REQUEST_NULL)).get();
  if (w.op == "alltoall") NEIGHBOR_INIT(alltoall)(s, w.m, y, r, w.m, y, c, i, q);
  else if (w.op == "alltoallv")
    NEIGHBOR_INIT(alltoallv)(s, w.counts.data(), w.displs.data(), y, r, w.counts.data(), w.displs.data(), y, c, i,
                             q);
  else if (w.op == "alltoallw")
    NEIGHBOR_INIT(alltoallw)(s, w.ones.data(), w.byte_displs.data(), w.block_types.data(), r, w.ones.data(),
                             w.byte_displs.data(), w.block_types.data(), c, i, q);
  else if (w.op == "allgather") NEIGHBOR_INIT(allgather)(s, w.m, y, r, w.m, y, c, i, q);
  else if (w.op == "allgatherv")
    NEIGHBOR_INIT(allgatherv)(s, w.m, y, r, w.counts.data(), w.displs.data(), y, c, i, q);
  else
    NEIGHBOR_INIT(alltoallw)(s, w.ones.data(), w.zero_displs.data(), w.block_types.data(), r, w.ones.data(),
                             w.byte_displs.data(), w.block_types.data(), c, i, q);
  return Run([q] {
    MPI_Start(q);
    MPI_Wait(q, MPI_STATUS_IGNORE);
  });
#else
  (void)c;
  why = "this MPI has neither MPI_Neighbor_alltoall_init nor MPIX_Neighbor_alltoall_init";
  return std::nullopt;
#endif
}

// The combining schedule's messages as plain Irecv/Isend of contiguous buffers of the messages' byte
// counts, phase by phase, in the schedule's order (so the k-th message between two processes meets
// the k-th, as in the executor); no datatypes, no forwarding, no local copies; the payload is not
// meaningful.
Run Implementations::ideal() {
  struct Message {
    int peer;
    int bytes;
    char* buffer;
  };
  const cartcoll::Schedule& schedule = comms_.combining_schedule(work_.gather());
  auto bytes_of = [this, &schedule](const cartcoll::Message& message) {
    long long bytes = 0;
    for (const cartcoll::BlockRef& ref : message.blocks) {
      const cartcoll::BlockRef block = schedule.shape_of(ref);
      bytes += block.buffer == cartcoll::Buffer::send ? work_.send_block_bytes(block.block)
                                                      : work_.recv_block_bytes(block.block);
    }
    return static_cast<int>(bytes);
  };
  auto phases = std::make_shared<std::vector<std::pair<std::vector<Message>, std::vector<Message>>>>();
  for (const cartcoll::Phase& phase : schedule.phases) {
    auto& [sends, recvs] = phases->emplace_back();
    for (auto [messages, list] : {std::pair{&phase.sends, &sends}, std::pair{&phase.recvs, &recvs}})
      for (const cartcoll::Message& message : *messages) {
        const int bytes = bytes_of(message);
        auto& buffer = ideal_buffers_.emplace_back(std::make_unique<std::vector<char>>(std::max(bytes, 1), 1));
        list->push_back({message.peer, bytes, buffer->data()});
      }
    if (sends.empty() && recvs.empty()) phases->pop_back();
  }
  const MPI_Comm comm = comms_.world();
  return [phases, comm] {
    std::vector<MPI_Request> requests;
    for (const auto& [sends, recvs] : *phases) {
      requests.clear();
      for (const Message& m : recvs) MPI_Irecv(m.buffer, m.bytes, MPI_BYTE, m.peer, 0, comm, &requests.emplace_back());
      for (const Message& m : sends) MPI_Isend(m.buffer, m.bytes, MPI_BYTE, m.peer, 0, comm, &requests.emplace_back());
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    }
  };
}

}  // namespace bench
