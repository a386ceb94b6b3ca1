// SPDX-License-Identifier: BSD-3-Clause
// graph-routing over MPI (docs/graph-routing.md): the routing set-up runs at
// CC_Dist_graph_create_adjacent, over the MPI transport; all five operations in three forms on
// random graphs with repeated edges, self edges and isolated processes, against the graph reference
// model, with the assertion cartcoll_assert_uniform_blocks (blocks of one size) and without it
// (every edge sized apart, the sizes travelling with the blocks); the busiest process's messages,
// counted by the PMPI census, bounded by the grid; `auto` routes where the model prefers it (with
// the assertion only); a bad value is an info-value error everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"
#include "../support/graph_checks.hpp"
#include "../support/graph_traffic.hpp"
#include "../support/orders_and_leaks.hpp"
#include "../support/watchdog.hpp"
#include "core/algorithms/graph_routing/graph_routing.hpp"
#include "cartcoll/neighbor.h"
#include "util/graphs.hpp"

using namespace support;
using cartcoll::Graph;

namespace {

constexpr std::chrono::seconds deadline{240};

// Every process sends to every other.
Graph complete_graph(int p) {
  Graph graph(p);
  for (int from = 0; from < p; ++from)
    for (int to = 0; to < p; ++to)
      if (to != from) {
        graph.destinations(from).push_back(to);
        graph.sources(to).push_back(from);
      }
  return graph;
}

// The most messages a process sends per call on the grid: extent - 1 per dimension.
long long grid_bound(int p, int dims) {
  long long bound = 0;
  for (int extent : cartcoll::routing_extents(p, dims)) bound += extent - 1;
  return bound;
}

TEST(GraphRouting, RandomGraphsEveryOperationAndForm) {
  const Watchdog watchdog("graph-routing on random graphs", deadline);
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const RoutingInfo info(std::to_string(seed));  // grids of 1, 2 and 3 dimensions
    const Graph graph = seed == 3 ? dense_graph(seed) : shared_graph(seed, world_size() + 2);
    MPI_Comm comm = create_adjacent(graph, info.get());
    ASSERT_NE(comm, MPI_COMM_NULL);
    every_operation_and_form(comm, seed, Sizes::uniform);
    MPI_Comm_free(&comm);
    expect_no_leaks();
  }
}

// On the complete graph the busiest process sends at most the grid's sum(extent - 1) messages per
// call, against p - 1 directly, and fewer than directly where p is no prime; alltoallv with one
// count everywhere routes too (the assertion covers it).
TEST(GraphRouting, TheBusiestProcessSendsWhatTheGridAllows) {
  const Watchdog watchdog("graph-routing's messages", deadline);
  const int p = world_size();
  const Graph graph = complete_graph(p);
  const RoutingInfo info("2");
  MPI_Comm comm = create_adjacent(graph, info.get());
  ASSERT_NE(comm, MPI_COMM_NULL);
  const Sent sent = regular_calls(graph, comm);
  EXPECT_LE(sent.most, 2 * grid_bound(p, 2)) << "alltoall and allgather";
  if (cartcoll::routing_extents(p, 2).size() == 2) EXPECT_LT(sent.most, 2 * (p - 1)) << "a grid of two dimensions";
  const int rank = world_rank();
  const std::vector<int> ones(static_cast<std::size_t>(p - 1), 1), displs = [&] {
    std::vector<int> d(static_cast<std::size_t>(p - 1));
    for (std::size_t j = 0; j < d.size(); ++j) d[j] = static_cast<int>(j);
    return d;
  }();
  std::vector<int> send(ones.size()), recv(ones.size() + 1, -1);
  for (std::size_t j = 0; j < send.size(); ++j) send[j] = test_value(0, rank, static_cast<int>(j), 0);
  const Sent varied = sent_by_processes([&] {
    ASSERT_EQ(CC_Neighbor_alltoallv(send.data(), ones.data(), displs.data(), MPI_INT, recv.data(), ones.data(),
                                    displs.data(), MPI_INT, comm),
              MPI_SUCCESS);
  });
  for (std::size_t i = 0; i + 1 < recv.size(); ++i) {
    const int from = graph.sources(rank)[i];
    const std::vector<int>& out = graph.destinations(from);
    const auto block = static_cast<int>(std::find(out.begin(), out.end(), rank) - out.begin());
    EXPECT_EQ(recv[i], test_value(0, from, block, 0)) << "block " << i;
  }
  EXPECT_EQ(recv.back(), -1) << "past the last block";
  EXPECT_LE(varied.most, grid_bound(p, 2));
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// A communicator MPI made routes from its first blocking call on, with the settings of that moment,
// the environment's here (semantics rule 65): on the complete graph no process sends more than the
// grid allows, fewer than directly on a grid of two dimensions, and every operation and form is exact.
TEST(GraphRouting, CommunicatorsMpiMadeRouteFromTheirFirstBlockingCall) {
  const Watchdog watchdog("graph-routing on a communicator MPI made", deadline);
  const int p = world_size();
  const Graph graph = complete_graph(p);
  MPI_Comm comm = mpi_adjacent(graph);
  ASSERT_NE(comm, MPI_COMM_NULL);
  setenv("CARTCOLL_ALGORITHM", "graph-routing", 1);
  setenv("CARTCOLL_ASSERT_UNIFORM_BLOCKS", "true", 1);
  setenv("CARTCOLL_ROUTING_DIMS", "2", 1);
  regular_calls(graph, comm);  // the set-up runs here
  for (const char* name : {"CARTCOLL_ALGORITHM", "CARTCOLL_ASSERT_UNIFORM_BLOCKS", "CARTCOLL_ROUTING_DIMS"}) unsetenv(name);
  const Sent sent = regular_calls(graph, comm);
  EXPECT_LE(sent.most, 2 * grid_bound(p, 2)) << "alltoall and allgather";
  if (cartcoll::routing_extents(p, 2).size() == 2) EXPECT_LT(sent.most, 2 * (p - 1)) << "a grid of two dimensions";
  every_operation_and_form(comm, 5, Sizes::uniform);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// Under `auto` with the assertion, a model in which messages cost far more than phases keeps a
// routed schedule on an Erdős–Rényi graph of 16 processes with δ = 0.8: of the grids it weighs
// without a given one (4 x 4 and 4 x 2 x 2), the one whose busiest process sends fewest messages,
// 4 x 2 x 2 (5 messages a call, against 6, about 9 with graph-combining and 15 directly). It sends
// what graph-routing forced on that grid sends. Given a grid (2 dimensions), it keeps that one.
// Without the assertion it keeps graph-combining or the direct exchange, whose busiest process sends
// more. (A complete graph would not do: it is Cartesian, a torus with every offset.) Results are
// exact at every process count.
TEST(GraphRouting, AutoRoutesWhereTheModelPrefersIt) {
  const Watchdog watchdog("auto and graph-routing", deadline);
  const Profile profile("1e-9 1e-5 1e-12");
  const cartcoll::graphs::EdgeList edges = cartcoll::graphs::erdos_renyi(world_size(), 0.8, 1);
  const Graph graph = Graph::from_edges(edges.size, edges.edges);
  auto sent_with = [&](const RoutingInfo& info) {
    MPI_Comm comm = create_adjacent(graph, info.get());
    const Sent sent = regular_calls(graph, comm);
    MPI_Comm_free(&comm);
    return sent;
  };
  const Sent on_two = sent_with(RoutingInfo("2")), on_three = sent_with(RoutingInfo("3"));
  const Sent chosen = sent_with(RoutingInfo("", "")), chosen_on_two = sent_with(RoutingInfo("2", ""));
  const Sent combined = sent_with(RoutingInfo("", "graph-combining")), without = sent_with(RoutingInfo("", "", "false"));
  if (world_size() == 16) {
    EXPECT_LT(on_three.most, on_two.most) << "the grids should tell themselves apart";
    EXPECT_LT(on_two.most, combined.most) << "the graph should tell routing and graph-combining apart";
    EXPECT_EQ(chosen.total, on_three.total);
    EXPECT_EQ(chosen.most, on_three.most);
    EXPECT_EQ(chosen_on_two.total, on_two.total) << "a grid given is kept";
    EXPECT_GT(without.most, on_two.most) << "without the assertion auto never routes";
  }
  expect_no_leaks();
}

// Without the assertion every edge may be sized apart, zeros included: the blocks' sizes travel
// with them through the grid (rule 72), every operation and form exact, and alltoallv on the
// complete graph still sends the grid's messages.
TEST(GraphRouting, WithoutTheAssertionSizesTravelWithTheBlocks) {
  const Watchdog watchdog("graph-routing without the assertion", deadline);
  for (unsigned seed = 1; seed <= 2; ++seed) {
    const RoutingInfo info(std::to_string(seed + 1), "graph-routing", "false");
    const Graph graph = seed == 2 ? dense_graph(seed) : shared_graph(seed, world_size() + 2);
    MPI_Comm comm = create_adjacent(graph, info.get());
    ASSERT_NE(comm, MPI_COMM_NULL);
    every_operation_and_form(comm, seed, Sizes::per_edge);
    MPI_Comm_free(&comm);
  }
  const Graph graph = complete_graph(world_size());
  const RoutingInfo info("2", "graph-routing", "false");
  MPI_Comm comm = create_adjacent(graph, info.get());
  const Sent sent = sent_by_processes([&] { checked_messages(comm, graph, Op::alltoallv, 3, Sizes::per_edge); });
  EXPECT_LE(sent.most, grid_bound(world_size(), 2));
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

TEST(GraphRouting, BadValuesFailEverywhere) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const Graph graph = shared_graph(5);
  for (const auto& [dims, uniform] : {std::pair{"2", "yes"}, std::pair{"-1", "true"},
                                      std::pair{"two", "true"}}) {
    const RoutingInfo info(dims, "graph-routing", uniform);
    int code = MPI_SUCCESS;
    MPI_Comm comm = create_adjacent(graph, info.get(), &code);
    expect_everywhere(code, MPI_ERR_INFO_VALUE, &comm);
  }
  if (world_size() > 1) {  // valid but different on one process
    const bool last = world_rank() == world_size() - 1;
    const RoutingInfo info(last ? "3" : "2");
    int code = MPI_SUCCESS;
    MPI_Comm comm = create_adjacent(graph, info.get(), &code);
    expect_everywhere(code, MPI_ERR_ARG, &comm);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

}  // namespace
