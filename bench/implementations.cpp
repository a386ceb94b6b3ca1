// SPDX-License-Identifier: BSD-3-Clause
#include "implementations.hpp"

#include <algorithm>
#include <string_view>

#include "core/model/graph.hpp"
#include "cartcoll/neighbor.h"
#include "core/planning/plan.hpp"
#include "cartcoll/topology.hpp"
#include "core/model/neighborhoods.hpp"

#if defined(CARTCOLL_HAVE_MPI_NEIGHBOR_INIT)
#define NEIGHBOR_INIT(name) MPI_Neighbor_##name##_init
#elif defined(CARTCOLL_HAVE_MPIX_NEIGHBOR_INIT)
#include <mpi-ext.h>
#define NEIGHBOR_INIT(name) MPIX_Neighbor_##name##_init
#endif

namespace bench {

using AlltoallInit = int (*)(const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm, MPI_Info,
                             MPI_Request*);
using AlltoallvInit = int (*)(const void*, const int*, const int*, MPI_Datatype, void*, const int*, const int*,
                              MPI_Datatype, MPI_Comm, MPI_Info, MPI_Request*);
using AlltoallwInit = int (*)(const void*, const int*, const MPI_Aint*, const MPI_Datatype*, void*, const int*,
                              const MPI_Aint*, const MPI_Datatype*, MPI_Comm, MPI_Info, MPI_Request*);
using AllgathervInit = int (*)(const void*, int, MPI_Datatype, void*, const int*, const int*, MPI_Datatype,
                               MPI_Comm, MPI_Info, MPI_Request*);

struct NeighborCalls {
  decltype(&MPI_Neighbor_alltoall) alltoall;
  decltype(&MPI_Neighbor_alltoallv) alltoallv;
  decltype(&MPI_Neighbor_alltoallw) alltoallw;
  decltype(&MPI_Neighbor_allgather) allgather;
  decltype(&MPI_Neighbor_allgatherv) allgatherv;
  decltype(&MPI_Ineighbor_alltoall) ialltoall;
  decltype(&MPI_Ineighbor_alltoallv) ialltoallv;
  decltype(&MPI_Ineighbor_alltoallw) ialltoallw;
  decltype(&MPI_Ineighbor_allgather) iallgather;
  decltype(&MPI_Ineighbor_allgatherv) iallgatherv;
  AlltoallInit alltoall_init;  // nullptr where this MPI has no persistent neighborhood collectives
  AlltoallvInit alltoallv_init;
  AlltoallwInit alltoallw_init;
  AlltoallInit allgather_init;
  AllgathervInit allgatherv_init;
  decltype(&MPI_Start) start;
  decltype(&MPI_Wait) wait;
  decltype(&MPI_Request_free) request_free;
};

namespace {

#ifdef NEIGHBOR_INIT
#define MPI_INITS NEIGHBOR_INIT(alltoall), NEIGHBOR_INIT(alltoallv), NEIGHBOR_INIT(alltoallw), \
                  NEIGHBOR_INIT(allgather), NEIGHBOR_INIT(allgatherv)
#else
#define MPI_INITS nullptr, nullptr, nullptr, nullptr, nullptr
#endif

#ifdef CARTCOLL_HAVE_MPI_NEIGHBOR_COLLECTIVES
const NeighborCalls mpi_calls{MPI_Neighbor_alltoall, MPI_Neighbor_alltoallv, MPI_Neighbor_alltoallw,
                              MPI_Neighbor_allgather, MPI_Neighbor_allgatherv, MPI_Ineighbor_alltoall,
                              MPI_Ineighbor_alltoallv, MPI_Ineighbor_alltoallw, MPI_Ineighbor_allgather,
                              MPI_Ineighbor_allgatherv, MPI_INITS, MPI_Start, MPI_Wait, MPI_Request_free};
#endif
const NeighborCalls cc_calls{CC_Neighbor_alltoall, CC_Neighbor_alltoallv, CC_Neighbor_alltoallw,
                             CC_Neighbor_allgather, CC_Neighbor_allgatherv, CC_Ineighbor_alltoall,
                             CC_Ineighbor_alltoallv, CC_Ineighbor_alltoallw, CC_Ineighbor_allgather,
                             CC_Ineighbor_allgatherv, CC_Neighbor_alltoall_init, CC_Neighbor_alltoallv_init,
                             CC_Neighbor_alltoallw_init, CC_Neighbor_allgather_init, CC_Neighbor_allgatherv_init,
                             CC_Start, CC_Wait, CC_Request_free};

// The library algorithm an implementation runs ("cc-graph-combining-persistent": graph-combining),
// or nullopt for MPI's own, `ideal` and `direct`.
std::optional<std::string> library_algorithm(const std::string& impl) {
  const bool graph_face = impl.starts_with("cc-");
  if (!graph_face && !impl.starts_with("cart-")) return std::nullopt;
  const bool persistent = impl.ends_with("-persistent");
  const std::size_t prefix = graph_face ? 3 : 5;
  return impl.substr(prefix, impl.size() - prefix - (persistent ? 11 : 0));
}

bool requested(const Options& options, std::string_view algorithm) {
  return std::ranges::any_of(options.impls, [algorithm](const std::string& impl) {
    return library_algorithm(impl) == algorithm;
  });
}

// Whether an implementation of the face ("cart" or "cc") runs `algorithm`.
bool requested(const Options& options, std::string_view face, std::string_view algorithm) {
  return std::ranges::any_of(options.impls, [face, algorithm](const std::string& impl) {
    return impl.starts_with(std::string(face) + "-") && library_algorithm(impl) == algorithm;
  });
}

MPI_Info algorithm_info(const Options& options, const std::string& algorithm) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cartcoll_algorithm", algorithm.c_str());
  if (options.node_size > 0) MPI_Info_set(info, "cartcoll_node_size", std::to_string(options.node_size).c_str());
  return info;
}

MPI_Comm make_cart(const Options& options, const std::vector<int>& dims, const std::string& algorithm) {
  MPI_Info info = algorithm_info(options, algorithm);
  const std::vector<int> periods(dims.size(), 1);
  MPI_Comm cart = MPI_COMM_NULL;
  Cart_neighborhood_create(MPI_COMM_WORLD, options.d, dims.data(), periods.data(),
                           static_cast<int>(options.offsets.size()) / options.d, options.offsets.data(),
                           MPI_UNWEIGHTED, info, 0, &cart);
  MPI_Info_free(&info);
  return cart;
}

// --halo's cc- communicators: the stencil's graph on an MPI Cartesian communicator, whose errors
// return (an algorithm that does not serve it leaves MPI_COMM_NULL, and the implementation is skipped).
MPI_Comm make_stencil_graph(const Options& options, MPI_Comm cart, const std::vector<int>& sources,
                            const std::vector<int>& targets, const std::string& algorithm) {
  MPI_Info info = algorithm_info(options, algorithm);
  MPI_Comm comm = MPI_COMM_NULL;
  CC_Dist_graph_create_adjacent(cart, static_cast<int>(sources.size()), sources.data(), MPI_UNWEIGHTED,
                                static_cast<int>(targets.size()), targets.data(), MPI_UNWEIGHTED, info, 0, &comm);
  MPI_Info_free(&info);
  return comm;
}

MPI_Comm make_graph(const Options& options, const cartcoll::Graph& graph, int rank, const std::string& algorithm) {
  MPI_Info info = algorithm_info(options, algorithm);
  // Every block of a graph workload holds m elements of one type (workload.cpp), so the benchmark may
  // assert it: graph-routing needs that, and `auto` then weighs it too. Not where per-edge counts
  // size alltoallv/w blocks.
  MPI_Info_set(info, "cartcoll_assert_uniform_blocks", uniform_blocks(options) ? "true" : "false");
  const std::vector<int>& in = graph.sources(rank);
  const std::vector<int>& out = graph.destinations(rank);
  MPI_Comm comm = MPI_COMM_NULL;
  CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(in.size()), in.data(), MPI_UNWEIGHTED,
                                static_cast<int>(out.size()), out.data(), MPI_UNWEIGHTED, info, 0, &comm);
  MPI_Info_free(&info);
  return comm;
}

}  // namespace

Communicators::Communicators(const Options& options) {
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<int> sources, targets;
  if (options.graph) {
    // Only the requested ones: graph-combining's set-up (and auto's) is collective work, which
    // under SimGrid takes minutes of the host's time at a few hundred processes.
    const cartcoll::Graph graph = cartcoll::Graph::from_edges(options.graph->size, options.graph->edges);
    for (const cartcoll::PlannerEntry& planner : cartcoll::planners())
      if (planner.serves(cartcoll::NeighborhoodKind::graph) && requested(options, planner.name))
        cc_library_[std::string(planner.name)] = make_graph(options, graph, rank, std::string(planner.name));
    if (requested(options, "auto")) cc_library_["auto"] = make_graph(options, graph, rank, "auto");
    sources = graph.sources(rank);
    targets = graph.destinations(rank);
    alltoall_plan_ = cartcoll::plan(cartcoll::Algorithm::named("trivial"), graph.view(rank), cartcoll::Collective::alltoall);
    gather_plan_ = cartcoll::plan(cartcoll::Algorithm::named("trivial"), graph.view(rank), cartcoll::Collective::allgather);
  } else {
    std::vector<int> dims(static_cast<std::size_t>(options.d), 0);
    MPI_Dims_create(p, options.d, dims.data());
    // Under --halo only the requested ones (trivial always: it lists the neighbors).
    const bool halo = options.halo_width > 0;
    for (const cartcoll::PlannerEntry& planner : cartcoll::planners()) {
      const std::string name(planner.name);
      if (planner.serves(cartcoll::NeighborhoodKind::cartesian) && (!halo || name == "trivial" || requested(options, "cart", name)))
        cart_library_[name] = make_cart(options, dims, name);
    }
    if (!halo || requested(options, "cart", "auto")) cart_library_["auto"] = make_cart(options, dims, "auto");
    const int t = static_cast<int>(options.offsets.size()) / options.d;
    sources.resize(static_cast<std::size_t>(t));
    targets.resize(sources.size());
    Cart_neighbor_get(cart_library_.at("trivial"), t, sources.data(), MPI_UNWEIGHTED, t, targets.data(), MPI_UNWEIGHTED);
    if (halo) make_stencil_graphs(options, dims, sources, targets);
    if (options.offsets == cartcoll::neighborhoods::cartesian_axes(options.d)) {
      const std::vector<int> periods(dims.size(), 1);
      MPI_Cart_create(MPI_COMM_WORLD, options.d, dims.data(), periods.data(), 0, &mpi_cart_);
    }
    const cartcoll::Grid grid(dims, std::vector<bool>(dims.size(), true));
    const cartcoll::Offsets offsets(options.d, options.offsets);
    const std::vector<int> coords = grid.coords_of(rank);
    for (auto [plan, collective] : {std::pair{&alltoall_plan_, cartcoll::Collective::alltoall},
                                    std::pair{&gather_plan_, cartcoll::Collective::allgather}})
      *plan = cartcoll::plan(cartcoll::Algorithm::named("combining"), {grid, offsets, coords}, collective);
  }
  source_ranks_ = sources;
  destination_ranks_ = targets;
#ifdef CARTCOLL_HAVE_MPI_NEIGHBOR_COLLECTIVES
  // On a Cartesian neighborhood the graph is made from an MPI Cartesian communicator, as stencil codes
  // make theirs: with libcartcoll_mpi preloaded, mpi-neighbor then runs on the detected stencil.
  MPI_Comm parent = MPI_COMM_WORLD;
  if (!options.graph) {
    std::vector<int> dims(static_cast<std::size_t>(options.d), 0);
    MPI_Dims_create(p, options.d, dims.data());
    const std::vector<int> periods(dims.size(), 1);
    MPI_Cart_create(MPI_COMM_WORLD, options.d, dims.data(), periods.data(), 0, &parent);
  }
  MPI_Dist_graph_create_adjacent(parent, static_cast<int>(sources.size()), sources.data(), MPI_UNWEIGHTED,
                                 static_cast<int>(targets.size()), targets.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &graph_);
  if (parent != MPI_COMM_WORLD) MPI_Comm_free(&parent);
#endif
  MPI_Comm_dup(MPI_COMM_WORLD, &world_);
}

void Communicators::make_stencil_graphs(const Options& options, const std::vector<int>& dims,
                                        const std::vector<int>& sources, const std::vector<int>& targets) {
  const std::vector<int> periods(dims.size(), 1);
  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, options.d, dims.data(), periods.data(), 0, &cart);
  MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
  std::vector<std::string> algorithms{"auto"};
  for (const cartcoll::PlannerEntry& planner : cartcoll::planners())
    if (planner.serves(cartcoll::NeighborhoodKind::cartesian)) algorithms.emplace_back(planner.name);
  for (const std::string& algorithm : algorithms)
    if (requested(options, "cc", algorithm))
      cc_library_[algorithm] = make_stencil_graph(options, cart, sources, targets, algorithm);
  MPI_Comm_free(&cart);
}

Communicators::~Communicators() {
  for (auto* library : {&cart_library_, &cc_library_})
    for (auto& [name, comm] : *library)
      if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  if (graph_ != MPI_COMM_NULL) MPI_Comm_free(&graph_);
  if (mpi_cart_ != MPI_COMM_NULL) MPI_Comm_free(&mpi_cart_);
  MPI_Comm_free(&world_);
}

MPI_Comm Communicators::library(const std::string& algorithm, bool graph_face) const {
  const auto& library = graph_face ? cc_library_ : cart_library_;
  const auto found = library.find(algorithm);
  return found == library.end() ? MPI_COMM_NULL : found->second;
}

Implementations::~Implementations() {
  for (auto& request : cart_requests_) Cart_request_free(request.get());
  for (auto& [calls, request] : requests_)
    if (*request != MPI_REQUEST_NULL) calls->request_free(request.get());
}

// cart-ALGORITHM[-persistent] (Cart_* on Cartesian neighborhoods), cc-ALGORITHM[-persistent] (CC_* on
// graphs), mpi-* (MPI's own), ideal.
std::optional<Run> Implementations::make(const std::string& impl, std::string& why) {
  if (impl == "ideal") return ideal();
  if (impl == "direct") return direct();
#ifndef CARTCOLL_HAVE_MPI_NEIGHBOR_COLLECTIVES
  if (impl.starts_with("mpi-")) {
    why = "this MPI has no usable MPI_Neighbor_* or MPI_Dist_graph_create_adjacent (configure-time detection, "
          "cmake/mpi_features.cmake); `direct` is the baseline";
    return std::nullopt;
  }
#else
  if (impl == "mpi-neighbor") return neighbor_blocking(mpi_calls, comms_.graph());
  if (impl == "mpi-ineighbor") return neighbor_nonblocking(mpi_calls, comms_.graph());
  if (impl == "mpi-neighbor-persistent") return neighbor_persistent(mpi_calls, comms_.graph(), why);
  if (impl == "mpi-cart-neighbor") {
    if (comms_.mpi_cart() != MPI_COMM_NULL) return neighbor_blocking(mpi_calls, comms_.mpi_cart());
    why = "only for --axes D, the neighborhood of MPI's Cartesian topology";
    return std::nullopt;
  }
#endif
  const bool persistent = impl.ends_with("-persistent");
  const bool graph_face = impl.starts_with("cc-");
  const std::string algorithm = library_algorithm(impl).value_or("");
  const MPI_Comm comm = comms_.library(algorithm, graph_face);
  if (comm == MPI_COMM_NULL) {
    why = "no " + algorithm + " planner for this kind of neighborhood";
    return std::nullopt;
  }
  if (graph_face) return persistent ? neighbor_persistent(cc_calls, comm, why) : neighbor_blocking(cc_calls, comm);
  return persistent ? cart_persistent(comm) : cart_blocking(comm);
}

Run Implementations::cart_blocking(MPI_Comm c) {
  Workload& w = work_;
  const void* s = w.send_base();
  void* r = w.recv_base();
  const MPI_Datatype y = w.type;
  const BlockSide &S = w.send, &R = w.recv;
  if (w.op == "alltoall") return [&w, s, r, y, c] { Cart_alltoall(s, w.m, y, r, w.m, y, c); };
  if (w.op == "alltoallv")
    return [&S, &R, s, r, y, c] {
      Cart_alltoallv(s, S.counts.data(), S.displs.data(), y, r, R.counts.data(), R.displs.data(), y, c);
    };
  if (w.op == "alltoallw")
    return [&S, &R, s, r, c] {
      Cart_alltoallw(s, S.ones.data(), S.byte_displs.data(), S.types.data(), r, R.ones.data(),
                     R.byte_displs.data(), R.types.data(), c);
    };
  if (w.op == "allgather") return [&w, s, r, y, c] { Cart_allgather(s, w.m, y, r, w.m, y, c); };
  if (w.op == "allgatherv")
    return [&w, &R, s, r, y, c] { Cart_allgatherv(s, w.m, y, r, R.counts.data(), R.displs.data(), y, c); };
  return [&w, &R, s, r, y, c] {
    Cart_allgatherw(s, w.m, y, r, R.ones.data(), R.byte_displs.data(), R.types.data(), c);
  };
}

Run Implementations::cart_persistent(MPI_Comm c) {
  Workload& w = work_;
  const void* s = w.send_base();
  void* r = w.recv_base();
  const MPI_Datatype y = w.type;
  const BlockSide &S = w.send, &R = w.recv;
  Cart_request* q = cart_requests_.emplace_back(std::make_unique<Cart_request>(CART_REQUEST_NULL)).get();
  const MPI_Info i = MPI_INFO_NULL;
  if (w.op == "alltoall") Cart_alltoall_init(s, w.m, y, r, w.m, y, c, i, q);
  else if (w.op == "alltoallv")
    Cart_alltoallv_init(s, S.counts.data(), S.displs.data(), y, r, R.counts.data(), R.displs.data(), y, c, i, q);
  else if (w.op == "alltoallw")
    Cart_alltoallw_init(s, S.ones.data(), S.byte_displs.data(), S.types.data(), r, R.ones.data(),
                        R.byte_displs.data(), R.types.data(), c, i, q);
  else if (w.op == "allgather") Cart_allgather_init(s, w.m, y, r, w.m, y, c, i, q);
  else if (w.op == "allgatherv") Cart_allgatherv_init(s, w.m, y, r, R.counts.data(), R.displs.data(), y, c, i, q);
  else Cart_allgatherw_init(s, w.m, y, r, R.ones.data(), R.byte_displs.data(), R.types.data(), c, i, q);
  return [q] {
    Cart_start(q);
    Cart_wait(q);
  };
}

// MPI has no neighbor allgatherw: it is alltoallw sending the one block to every neighbor.
Run Implementations::neighbor_blocking(const NeighborCalls& f, MPI_Comm c) {
  Workload& w = work_;
  const void* s = w.send_base();
  void* r = w.recv_base();
  const MPI_Datatype y = w.type;
  const BlockSide &S = w.send, &R = w.recv;
  if (w.op == "alltoall") return [&f, &w, s, r, y, c] { f.alltoall(s, w.m, y, r, w.m, y, c); };
  if (w.op == "alltoallv")
    return [&f, &S, &R, s, r, y, c] {
      f.alltoallv(s, S.counts.data(), S.displs.data(), y, r, R.counts.data(), R.displs.data(), y, c);
    };
  if (w.op == "alltoallw")
    return [&f, &S, &R, s, r, c] {
      f.alltoallw(s, S.ones.data(), S.byte_displs.data(), S.types.data(), r, R.ones.data(), R.byte_displs.data(),
                  R.types.data(), c);
    };
  if (w.op == "allgather") return [&f, &w, s, r, y, c] { f.allgather(s, w.m, y, r, w.m, y, c); };
  if (w.op == "allgatherv")
    return [&f, &w, &R, s, r, y, c] { f.allgatherv(s, w.m, y, r, R.counts.data(), R.displs.data(), y, c); };
  return [&f, &w, &R, s, r, c] {
    f.alltoallw(s, w.gather_ones.data(), w.gather_displs.data(), w.gather_types.data(), r, R.ones.data(),
                R.byte_displs.data(), R.types.data(), c);
  };
}

Run Implementations::neighbor_nonblocking(const NeighborCalls& f, MPI_Comm c) {
  Workload& w = work_;
  const void* s = w.send_base();
  void* r = w.recv_base();
  const MPI_Datatype y = w.type;
  const BlockSide &S = w.send, &R = w.recv;
  MPI_Request* q = requests_.emplace_back(&f, std::make_unique<MPI_Request>(MPI_REQUEST_NULL)).second.get();
  std::function<void()> start;
  if (w.op == "alltoall") start = [&f, &w, s, r, y, c, q] { f.ialltoall(s, w.m, y, r, w.m, y, c, q); };
  else if (w.op == "alltoallv")
    start = [&f, &S, &R, s, r, y, c, q] {
      f.ialltoallv(s, S.counts.data(), S.displs.data(), y, r, R.counts.data(), R.displs.data(), y, c, q);
    };
  else if (w.op == "alltoallw")
    start = [&f, &S, &R, s, r, c, q] {
      f.ialltoallw(s, S.ones.data(), S.byte_displs.data(), S.types.data(), r, R.ones.data(), R.byte_displs.data(),
                   R.types.data(), c, q);
    };
  else if (w.op == "allgather") start = [&f, &w, s, r, y, c, q] { f.iallgather(s, w.m, y, r, w.m, y, c, q); };
  else if (w.op == "allgatherv")
    start = [&f, &w, &R, s, r, y, c, q] { f.iallgatherv(s, w.m, y, r, R.counts.data(), R.displs.data(), y, c, q); };
  else
    start = [&f, &w, &R, s, r, c, q] {
      f.ialltoallw(s, w.gather_ones.data(), w.gather_displs.data(), w.gather_types.data(), r, R.ones.data(),
                   R.byte_displs.data(), R.types.data(), c, q);
    };
  return [start, &f, q] {
    start();
    f.wait(q, MPI_STATUS_IGNORE);
  };
}

std::optional<Run> Implementations::neighbor_persistent(const NeighborCalls& f, MPI_Comm c, std::string& why) {
  if (f.alltoall_init == nullptr) {
    why = "this MPI has neither MPI_Neighbor_alltoall_init nor MPIX_Neighbor_alltoall_init";
    return std::nullopt;
  }
  Workload& w = work_;
  const void* s = w.send_base();
  void* r = w.recv_base();
  const MPI_Datatype y = w.type;
  const BlockSide &S = w.send, &R = w.recv;
  const MPI_Info i = MPI_INFO_NULL;
  MPI_Request* q = requests_.emplace_back(&f, std::make_unique<MPI_Request>(MPI_REQUEST_NULL)).second.get();
  if (w.op == "alltoall") f.alltoall_init(s, w.m, y, r, w.m, y, c, i, q);
  else if (w.op == "alltoallv")
    f.alltoallv_init(s, S.counts.data(), S.displs.data(), y, r, R.counts.data(), R.displs.data(), y, c, i, q);
  else if (w.op == "alltoallw")
    f.alltoallw_init(s, S.ones.data(), S.byte_displs.data(), S.types.data(), r, R.ones.data(), R.byte_displs.data(),
                     R.types.data(), c, i, q);
  else if (w.op == "allgather") f.allgather_init(s, w.m, y, r, w.m, y, c, i, q);
  else if (w.op == "allgatherv") f.allgatherv_init(s, w.m, y, r, R.counts.data(), R.displs.data(), y, c, i, q);
  else
    f.alltoallw_init(s, w.gather_ones.data(), w.gather_displs.data(), w.gather_types.data(), r, R.ones.data(),
                     R.byte_displs.data(), R.types.data(), c, i, q);
  return Run([&f, q] {
    f.start(q);
    f.wait(q, MPI_STATUS_IGNORE);
  });
}

// The ideal schedule's messages (combining on a Cartesian neighborhood, trivial on a graph) as plain
// Irecv/Isend of contiguous buffers of the messages' byte counts, phase by phase, in the schedule's order (so the k-th message between two processes meets
// the k-th, as in the executor); no datatypes, no forwarding, no local copies; the payload is not
// meaningful.
Run Implementations::ideal() {
  struct Message {
    int peer;
    int bytes;
    char* buffer;
  };
  const cartcoll::Schedule& schedule = comms_.ideal_schedule(work_.gather());
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

// The direct exchange, as MPI libraries implement MPI_Neighbor_* (and the baseline where the MPI has
// none, as SimGrid's SMPI): one Irecv per source and one Isend per destination of the user's blocks
// with the workload's types, all posted at once, then one MPI_Waitall. Blocks to or from the same
// process are posted in block order, so the k-th send meets the k-th receive, as in MPI's rule.
Run Implementations::direct() {
  struct Message {
    int peer;
    char* address;
    int count;
    MPI_Datatype type;
  };
  Workload& w = work_;
  const bool typed = w.op.ends_with('w');
  auto block = [&w, typed](BlockSide& side, int i, int peer) {
    const auto at = static_cast<std::size_t>(i);
    char* base = &side == &w.send ? w.send_base() : w.recv_base();
    return Message{peer, base + side.byte_displs[at], typed ? 1 : side.counts[at],
                   typed ? side.types[at] : w.type};
  };
  auto messages = std::make_shared<std::pair<std::vector<Message>, std::vector<Message>>>();
  for (int i = 0; i < comms_.sources(); ++i)
    messages->first.push_back(block(w.recv, i, comms_.source_ranks()[static_cast<std::size_t>(i)]));
  for (int j = 0; j < comms_.destinations(); ++j)
    messages->second.push_back(block(w.send, w.gather() ? 0 : j, comms_.destination_ranks()[static_cast<std::size_t>(j)]));
  const MPI_Comm comm = comms_.world();
  return [messages, comm] {
    constexpr int tag = 1;  // `ideal` uses 0 on the same communicator
    std::vector<MPI_Request> requests;
    requests.reserve(messages->first.size() + messages->second.size());
    for (const Message& m : messages->first)
      MPI_Irecv(m.address, m.count, m.type, m.peer, tag, comm, &requests.emplace_back());
    for (const Message& m : messages->second)
      MPI_Isend(m.address, m.count, m.type, m.peer, tag, comm, &requests.emplace_back());
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  };
}

}  // namespace bench
