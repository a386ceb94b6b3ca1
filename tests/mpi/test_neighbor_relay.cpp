// SPDX-License-Identifier: BSD-3-Clause
// neighbor-relay over MPI (docs/neighbor-relay.md): its set-up runs at CC_Dist_graph_create_adjacent
// over the MPI transport; all five operations in three forms on the halo graph of a mesh cut into
// as many parts as processes and on random graphs with repeated edges, self edges and isolated
// processes, against the graph reference model, with blocks of one size and with every edge sized
// apart (the sizes travelling with the relayed blocks); on the halo graph the busiest process sends
// fewer messages than directly, counted by the PMPI census.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "../support/cart_fixture.hpp"
#include "../support/graph_case.hpp"
#include "../support/graph_checks.hpp"
#include "../support/graph_traffic.hpp"
#include "../support/orders_and_leaks.hpp"
#include "../support/watchdog.hpp"
#include "util/graphs.hpp"

using namespace support;
using cartcoll::Graph;

namespace {

constexpr std::chrono::seconds deadline{240};

// The halo graph of 12^3 cells cut into one part per process.
Graph halo_graph() {
  const cartcoll::graphs::EdgeList edges = cartcoll::graphs::mesh_partition(world_size(), 3, 12, 1);
  return Graph::from_edges(edges.size, edges.edges);
}

TEST(NeighborRelay, HaloAndRandomGraphsEveryOperationAndForm) {
  const Watchdog watchdog("neighbor-relay on halo and random graphs", deadline);
  const AlgorithmInfo info("neighbor-relay");
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Graph graph = seed == 1 ? halo_graph() : seed == 2 ? shared_graph(seed, world_size() + 2) : dense_graph(seed);
    MPI_Comm comm = create_adjacent(graph, info.get());
    ASSERT_NE(comm, MPI_COMM_NULL);
    every_operation_and_form(comm, seed, Sizes::uniform);
    every_operation_and_form(comm, seed + 10, seed == 1 ? Sizes::per_edge_long : Sizes::per_edge);
    MPI_Comm_free(&comm);
    expect_no_leaks();
  }
}

// From 7 processes on the halo graph has processes of different degrees, and the busy ones relay
// through their neighbors: fewer messages than the direct exchange's busiest process sends.
TEST(NeighborRelay, TheBusiestProcessOfAHaloGraphSendsFewerMessages) {
  const Watchdog watchdog("neighbor-relay's messages", deadline);
  const Graph graph = halo_graph();
  const AlgorithmInfo relay("neighbor-relay"), trivial("trivial");
  MPI_Comm relayed = create_adjacent(graph, relay.get()), direct = create_adjacent(graph, trivial.get());
  ASSERT_NE(relayed, MPI_COMM_NULL);
  ASSERT_NE(direct, MPI_COMM_NULL);
  const Sent with_relays = regular_calls(graph, relayed), without = regular_calls(graph, direct);
  if (world_size() >= 7) EXPECT_LT(with_relays.most, without.most) << "alltoall and allgather";
  EXPECT_LE(with_relays.most, without.most);
  MPI_Comm_free(&relayed);
  MPI_Comm_free(&direct);
  expect_no_leaks();
}

}  // namespace
