// SPDX-License-Identifier: BSD-3-Clause
#include "attach.hpp"

#include <numeric>

#include "runtime/exec/mpi_check.hpp"
#include "core/model/neighborhoods.hpp"
#include "runtime/exec/mpi_handles.hpp"
#include "core/model/cartesian_detection.hpp"
#include "graph_create.hpp"
#include "settings.hpp"

namespace cartcoll::detail {

namespace {

Neighborhood dist_graph(MPI_Comm comm, int size, Weights& weights) {
  int in = 0, out = 0, weighted = 0;
  check(MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted), "MPI_Dist_graph_neighbors_count");
  GraphNeighborhood graph{size, std::vector<int>(static_cast<std::size_t>(in)), std::vector<int>(static_cast<std::size_t>(out))};
  if (weighted) weights = {std::vector<int>(static_cast<std::size_t>(in)), std::vector<int>(static_cast<std::size_t>(out))};
  check(MPI_Dist_graph_neighbors(comm, in, graph.sources.data(), weighted ? weights.sources->data() : MPI_UNWEIGHTED,
                                 out, graph.destinations.data(),
                                 weighted ? weights.destinations->data() : MPI_UNWEIGHTED),
        "MPI_Dist_graph_neighbors");
  return Neighborhood(std::move(graph));
}

// MPI_Graph_create's topology: the neighbors are sources and destinations alike.
Neighborhood old_graph(MPI_Comm comm, int rank, int size) {
  int count = 0;
  check(MPI_Graph_neighbors_count(comm, rank, &count), "MPI_Graph_neighbors_count");
  std::vector<int> neighbors(static_cast<std::size_t>(count));
  check(MPI_Graph_neighbors(comm, rank, count, neighbors.data()), "MPI_Graph_neighbors");
  return Neighborhood(GraphNeighborhood{size, neighbors, neighbors});
}

// MPI_Cart_create's topology: for each dimension k, the neighbors R - e_k and R + e_k, in that order,
// for sending and receiving alike (MPI_PROC_NULL off a mesh). MPI 4.1 section 8.6 (Example 8.10) sends
// block 2k to R - e_k, where it lands in block 2k+1, and block 2k+1 to R + e_k, into block 2k, also
// where R - e_k and R + e_k are one process (a periodic dimension of 1 or 2 processes): that is the
// Cartesian neighborhood with offsets -e0, +e0, -e1, ... whose receive blocks are renumbered
// (2k <-> 2k+1), block i coming from R + N[i]. A 0-dimensional topology has no neighbors.
Neighborhood cartesian_topology(MPI_Comm comm, int size) {
  auto [dims, periods, coords] = mpi_cartesian_of(comm);
  const int d = static_cast<int>(dims.size());
  if (d == 0) return Neighborhood(GraphNeighborhood{size, {}, {}});
  std::vector<int> order(2 * dims.size());
  std::iota(order.begin(), order.end(), 0);
  for (int& i : order) i ^= 1;
  std::vector<bool> periodic(periods.begin(), periods.end());
  CartesianNeighborhood axes{Grid(dims, periodic), Offsets(d, neighborhoods::cartesian_axes(d)), std::move(coords),
                             std::move(order)};
  axes.forwarding_may_mismatch = forwarding_may_mismatch(axes.grid, axes.offsets);
  return Neighborhood(std::move(axes));
}

// The communicator's hints (MPI_Comm_get_info), owned.
Info info_of(MPI_Comm comm) {
  MPI_Info handle = MPI_INFO_NULL;
  check(MPI_Comm_get_info(comm, &handle), "MPI_Comm_get_info");
  return Info(handle);
}

}  // namespace

int mpi_topology_of(MPI_Comm comm) {
  int topology = MPI_UNDEFINED;
#ifndef CARTCOLL_MPI_IS_SMPI
  check(MPI_Topo_test(comm, &topology), "MPI_Topo_test");
#else
  (void)comm;
#endif
  return topology;
}

MpiCartesian mpi_cartesian_of(MPI_Comm comm) {
  int d = 0;
  if (mpi_topology_of(comm) != MPI_CART) throw Error(Errc::topology, "the communicator has no Cartesian topology (MPI_Cart_create)");
  check(MPI_Cartdim_get(comm, &d), "MPI_Cartdim_get");
  MpiCartesian cartesian{std::vector<int>(static_cast<std::size_t>(d)), std::vector<int>(static_cast<std::size_t>(d)),
                         std::vector<int>(static_cast<std::size_t>(d))};
  if (d > 0)
    check(MPI_Cart_get(comm, d, cartesian.dims.data(), cartesian.periods.data(), cartesian.coords.data()),
          "MPI_Cart_get");
  return cartesian;
}

Neighborhood neighborhood_of_topology(MPI_Comm comm, Weights& weights) {
  const int topology = mpi_topology_of(comm);
  int rank = 0, size = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  switch (topology) {
    case MPI_DIST_GRAPH: return dist_graph(comm, size, weights);
    case MPI_GRAPH: return old_graph(comm, rank, size);
    case MPI_CART: return cartesian_topology(comm, size);
    default: throw Error(Errc::topology, "the communicator has no process topology");
  }
}

std::shared_ptr<CommState> state_for_collective(MPI_Comm comm, bool may_block, std::optional<Error>* unusable_settings) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  if (auto state = find_state(comm)) {
    if (state->freed()) throw Error(Errc::comm, "the communicator was freed");
    return state;
  }
  Weights weights;
  Neighborhood neighborhood = neighborhood_of_topology(comm, weights);
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  // Started, not made: a blocking call waits for it in the progress engine, which moves the
  // process's other operations on meanwhile (a peer may be waiting for one of them).
  auto library = LibraryComm::started(comm);
  // Settings agreed on the duplicate; a failure attaches nothing, so the next call agrees again.
  Settings settings;
  if (may_block) {
    const MPI_Comm library_comm = library->ready();
    const GraphNeighborhood* graph = neighborhood.graph();
    if (graph != nullptr && mpi_topology_of(comm) == MPI_DIST_GRAPH) {
      neighborhood = neighborhood_at_first_call(comm, library_comm, *graph, settings);
    } else {
      std::optional<int> node_size;  // node-combining's nodes are a graph setting: validated, unused here
      settings = agreed_settings(library_comm, info_of(comm).get(), node_size);
    }
  } else {
    const Info info = info_of(comm);
    try {
      settings = local_settings(info.get());  // no communication: a bad value fails where it is
    } catch (const Error& error) {
      // The idup above matched the other processes', which attach their states: attaching nothing
      // here would leave this process's next call an idup and an agreement no other process makes.
      if (unusable_settings == nullptr) throw;
      *unusable_settings = error;
      settings = Settings{};
    }
  }
  auto state = std::make_shared<CommState>(std::move(neighborhood), std::move(weights), rank, Origin::mpi_topology,
                                           std::move(settings), std::move(library));
  attach_state(comm, state);
  return state;
}

}  // namespace cartcoll::detail
