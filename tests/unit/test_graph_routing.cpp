// SPDX-License-Identifier: BSD-3-Clause
// graph-routing without MPI: the grid, the routing set-up over the simulated transport, and the
// pipeline set-up -> schedules -> simulator checked against the reference model on random graphs
// with repeated edges, self edges, isolated processes and absent neighbors, and on Erdős–Rényi and
// stencil graphs, where the busiest process's messages are bounded by the grid, not by its degree.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/model/graph.hpp"
#include "core/algorithms/graph_routing/graph_routing.hpp"
#include "graph_support.hpp"
#include "test_support.hpp"
#include "throws.hpp"
#include "util/graphs.hpp"

namespace cartcoll {
namespace {

using test::Blocks;

const Algorithm graph_routing = Algorithm::named("graph-routing");

struct Proof {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  int most_messages = 0;  // the busiest process's, per call
  int most_phases = 0;
};

// Every process's set-up and schedule, then the simulator against the reference model, on blocks of
// one size (the assertion), or, where sizes travel, with every edge sized apart (test::graph_blocks).
Proof prove_routing(const Graph& graph, Collective collective, int dims, bool sizes_travel = false,
                    std::optional<long long> gate = {}) {
  const SimulatedRouting routing = simulate_routing_setup(graph, dims);
  Proof proof;
  std::vector<Schedule> schedules;
  for (int rank = 0; rank < graph.size(); ++rank) {
    GraphView view = graph.view(rank);
    view.setup = &routing.patterns[static_cast<std::size_t>(rank)];
    schedules.push_back(plan(graph_routing, view, collective));
    schedules.back().sizes_travel = sizes_travel;
    schedules.back().forward_up_to = gate;
    proof.most_messages = std::max(proof.most_messages, schedules.back().messages());
    proof.most_phases = std::max(proof.most_phases, static_cast<int>(schedules.back().phases.size()));
  }
  const auto [send, recv] = sizes_travel ? test::graph_blocks(graph, collective) : test::uniform_blocks(graph, collective, 3);
  const Blocks expected = reference::exchange(graph, collective, send, recv);
  proof.result = test::simulates_to(schedules, send, recv, expected);
  return proof;
}

Graph graph_of(const graphs::EdgeList& edges) { return Graph::from_edges(edges.size, edges.edges); }

TEST(RoutingGrid, BalancedExtentsWithoutOnes) {
  EXPECT_EQ(routing_extents(1024, 5), (std::vector<int>{4, 4, 4, 4, 4}));
  EXPECT_EQ(routing_extents(27, 3), (std::vector<int>{3, 3, 3}));
  EXPECT_EQ(routing_extents(7, 2), (std::vector<int>{7}));
  EXPECT_EQ(routing_extents(1, 3), (std::vector<int>{}));
  EXPECT_TRUE(throws_error([] { routing_extents(8, 0); }, Errc::info_value));
  EXPECT_EQ(default_routing_dims(1024), 5);
  EXPECT_EQ(default_routing_dims(4096), 6);
  EXPECT_EQ(default_routing_dims(2), 1);
}

TEST(RoutingGrid, NextHopCorrectsOneCoordinate) {
  const std::vector<int> extents{4, 3, 2};  // rank = 6 c0 + 2 c1 + c2
  EXPECT_EQ(next_hop(extents, 0, 23, 0), 18);  // (0,0,0) -> (3,0,0)
  EXPECT_EQ(next_hop(extents, 18, 23, 1), 22);  // (3,0,0) -> (3,2,0)
  EXPECT_EQ(next_hop(extents, 22, 23, 2), 23);
  EXPECT_EQ(next_hop(extents, 7, 1, 0), 1);  // (1,0,1) -> (0,0,1)
  EXPECT_EQ(next_hop(extents, 7, 7, 1), 7);
}

// On a 2 x 2 grid the block 0 -> 3 goes through 2 ((1,0)); 1 -> 2 through 3; 0 -> 1 directly in phase 1.
TEST(RoutingSetup, BlocksPassThroughTheProcessThatCorrectsTheirFirstCoordinate) {
  const std::pair<int, int> edges[] = {{0, 3}, {1, 2}, {0, 1}};
  const SimulatedRouting routing = simulate_routing_setup(Graph::from_edges(4, edges), 2);
  ASSERT_EQ(routing.patterns.size(), 4u);
  EXPECT_EQ(routing.patterns[2].extents, (std::vector<int>{2, 2}));
  EXPECT_EQ(routing.patterns[2].arrivals[0], (std::vector<RoutedArrival>{{0, {{0, 3}}}}));
  EXPECT_EQ(routing.patterns[3].arrivals[0], (std::vector<RoutedArrival>{{1, {{1, 2}}}}));
  EXPECT_EQ(routing.patterns[3].arrivals[1], (std::vector<RoutedArrival>{{2, {{0, 3}}}}));
  EXPECT_EQ(routing.patterns[2].arrivals[1], (std::vector<RoutedArrival>{{3, {{1, 2}}}}));
  EXPECT_EQ(routing.patterns[1].arrivals[1], (std::vector<RoutedArrival>{{0, {{0, 1}}}}));
  EXPECT_TRUE(routing.patterns[0].arrivals[0].empty() && routing.patterns[0].arrivals[1].empty());
  EXPECT_EQ(routing.round_messages, (std::vector<long long>{1, 1}));
}

class RoutingProof : public ::testing::TestWithParam<Collective> {};

// Random graphs with every kind of edge MPI allows, on grids of 1 to 4 dimensions.
TEST_P(RoutingProof, RandomGraphsWithRepeatedSelfAndAbsentEdges) {
  std::mt19937 rng(8765);
  for (int trial = 0; trial < 200; ++trial) {
    const test::GraphShape shape{1 + trial % 29, 2 + trial % 11, trial % 3 == 0};
    const Graph graph = test::random_graph(rng, shape);
    const Proof proof = prove_routing(graph, GetParam(), 1 + trial % 4);
    ASSERT_TRUE(proof.result) << "trial " << trial << ", p = " << shape.size;
  }
}

// Dense graphs: the busiest process sends at most sum(extent - 1) messages (where every edge is single),
// one phase per dimension.
TEST_P(RoutingProof, ErdosRenyiAndStencilGraphsSendAtMostTheGridsMessages) {
  for (const graphs::EdgeList& edges :
       {graphs::erdos_renyi(256, 0.2, 1), graphs::erdos_renyi(300, 0.05, 2), graphs::stencil_graph(216, 3, 1, true),
        graphs::stencil_graph(64, 2, 3, false), graphs::stencil_graph(12, 2, 2, true)}) {
    for (const int dims : {2, 3, 4}) {
      const Proof proof = prove_routing(graph_of(edges), GetParam(), dims);
      ASSERT_TRUE(proof.result) << edges.description << ", " << dims << " dimensions";
      int bound = 0;
      for (int extent : routing_extents(edges.size, dims)) bound += extent - 1;
      if (edges.size >= 64) {  // the 12-process Moore graph wraps onto repeated and self edges, which go direct
        EXPECT_LE(proof.most_messages, bound) << edges.description << ", " << dims << " dimensions";
      }
      EXPECT_EQ(proof.most_phases, static_cast<int>(routing_extents(edges.size, dims).size())) << edges.description;
    }
  }
}

// Without the assertion: every edge sized apart, zeros too, each hop learning the sizes of what it
// passes on from the message that brings it.
TEST_P(RoutingProof, SizesTravelWithEveryEdgeSizedApart) {
  std::mt19937 rng(5678);
  for (int trial = 0; trial < 200; ++trial) {
    const test::GraphShape shape{1 + trial % 29, 2 + trial % 11, trial % 3 == 0};
    const std::optional<long long> gate =
        GetParam() == Collective::alltoall && trial % 2 == 1 ? std::optional<long long>(trial % 8 - 1) : std::nullopt;
    const Proof proof = prove_routing(test::random_graph(rng, shape), GetParam(), 1 + trial % 4, true, gate);
    ASSERT_TRUE(proof.result) << "trial " << trial << ", p = " << shape.size << (gate ? ", gated" : "");
  }
  for (const int dims : {2, 3})
    ASSERT_TRUE(prove_routing(graph_of(graphs::erdos_renyi(256, 0.2, 1)), GetParam(), dims, true).result) << dims;
}

// At scale: the halo graph of a 3-D mesh of 64^3 cells cut into 4096 parts, every edge sized apart,
// on the default grid (6 dimensions of 4), proven in the simulator.
TEST_P(RoutingProof, SizesTravelOnAHaloGraphOf4096Processes) {
  const graphs::EdgeList halo = graphs::mesh_partition(4096, 3, 64, 1);
  const Proof proof = prove_routing(graph_of(halo), GetParam(), default_routing_dims(4096), true);
  ASSERT_TRUE(proof.result) << halo.description;
  EXPECT_EQ(proof.most_phases, static_cast<int>(routing_extents(4096, default_routing_dims(4096)).size()));
}

INSTANTIATE_TEST_SUITE_P(Collectives, RoutingProof, ::testing::Values(Collective::alltoall, Collective::allgather),
                         [](const auto& test_info) {
                           return std::string(test_info.param == Collective::allgather ? "allgather" : "alltoall");
                         });

// A process with no block at all has nothing to shape a temporary alltoall block like: alltoall then
// goes direct on every process, allgather (whose send block always exists) still routes.
TEST(RoutingProof, AnIsolatedProcessKeepsAlltoallDirect) {
  std::vector<std::pair<int, int>> edges;
  for (int from = 1; from < 16; ++from)
    for (int to = 1; to < 16; ++to)
      if (from != to) edges.emplace_back(from, to);
  const Graph graph = Graph::from_edges(16, edges);  // 0 has no edge
  const SimulatedRouting routing = simulate_routing_setup(graph, 2);
  EXPECT_FALSE(routing.patterns[5].routes_alltoall);
  const Proof alltoall = prove_routing(graph, Collective::alltoall, 2);
  EXPECT_TRUE(alltoall.result);
  EXPECT_EQ(alltoall.most_messages, 14) << "direct";
  const Proof allgather = prove_routing(graph, Collective::allgather, 2);
  EXPECT_TRUE(allgather.result);
  EXPECT_LE(allgather.most_messages, 6);
}

TEST(GraphRoutingPlanner, WithoutAPatternIsTheDirectExchange) {
  const Graph graph = graph_of(graphs::erdos_renyi(40, 0.3, 3));
  for (int rank = 0; rank < graph.size(); ++rank)
    for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
      const Schedule direct = plan(Algorithm::named("trivial"), graph.view(rank), collective);
      const Schedule routed = plan(graph_routing, graph.view(rank), collective);
      ASSERT_EQ(routed.phases.size(), 1u);
      EXPECT_EQ(routed.phases[0].sends, direct.phases[0].sends);
      EXPECT_EQ(routed.phases[0].recvs, direct.phases[0].recvs);
    }
  EXPECT_EQ(graph_routing.planner().setup, &detail::routing_setup);
  EXPECT_TRUE(graph_routing.planner().needs_uniform_blocks);
  EXPECT_FALSE(graph_routing.planner().auto_candidate) << "auto weighs it at creation (at_creation.cpp)";
}

}  // namespace
}  // namespace cartcoll
