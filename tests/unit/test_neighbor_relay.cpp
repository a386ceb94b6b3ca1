// SPDX-License-Identifier: BSD-3-Clause
// neighbor-relay without MPI: the set-up over the simulated transport, and the pipeline set-up ->
// schedules -> simulator checked against the reference model on random graphs with repeated edges,
// self edges, isolated processes and absent neighbors, with blocks of one size and with every edge
// sized apart, alltoall and allgather; on a mesh-partition halo graph every relay is a neighbor of
// both ends and the replay beats the direct exchange's; on stencils no process sends more than
// directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/algorithms/neighbor_relay/neighbor_relay.hpp"
#include "core/model/graph.hpp"
#include "core/simulation/replay.hpp"
#include "graph_support.hpp"
#include "test_support.hpp"
#include "util/graphs.hpp"

namespace cartcoll {
namespace {

using test::Blocks;

const Algorithm neighbor_relay = Algorithm::named("neighbor-relay");

Graph graph_of(const graphs::EdgeList& edges) { return Graph::from_edges(edges.size, edges.edges); }

// Every process's schedule from its set-up result.
std::vector<Schedule> relay_schedules(const Graph& graph, const SimulatedRelaySetup& setup, Collective collective,
                                      bool sizes_travel = false, std::optional<long long> gate = {}) {
  std::vector<Schedule> schedules;
  for (int rank = 0; rank < graph.size(); ++rank) {
    GraphView view = graph.view(rank);
    view.setup = &setup.patterns[static_cast<std::size_t>(rank)];
    schedules.push_back(plan(neighbor_relay, view, collective));
    schedules.back().sizes_travel = sizes_travel;
    schedules.back().forward_up_to = gate;
  }
  return schedules;
}

// The simulator against the reference model, on blocks of one size, or, where sizes travel, with
// every edge sized apart (test::graph_blocks).
::testing::AssertionResult proven(const Graph& graph, Collective collective, const std::vector<Schedule>& schedules,
                                  bool sizes_travel) {
  const auto [send, recv] = sizes_travel ? test::graph_blocks(graph, collective) : test::uniform_blocks(graph, collective, 3);
  const Blocks expected = reference::exchange(graph, collective, send, recv);
  return test::simulates_to(schedules, send, recv, expected);
}

bool has_edge(const Graph& graph, int from, int to) {
  const std::vector<int>& destinations = graph.destinations(from);
  return std::find(destinations.begin(), destinations.end(), to) != destinations.end();
}

class RelayProof : public ::testing::TestWithParam<Collective> {};

// The blocks of every process routed through its out-neighbors.
int relayed_blocks(const SimulatedRelaySetup& setup) {
  int relayed = 0;
  for (const RelayPattern& pattern : setup.patterns)
    for (const auto& [receiver, route] : pattern.routes) relayed += route >= 0 ? 1 : 0;
  return relayed;
}

TEST_P(RelayProof, RandomGraphsWithRepeatedSelfAndAbsentEdges) {
  std::mt19937 rng(4321);
  int relayed = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const test::GraphShape shape{1 + trial % 29, 2 + trial % 11, trial % 3 == 0};
    const Graph graph = test::random_graph(rng, shape);
    const SimulatedRelaySetup setup = simulate_relay_setup(graph, RelayParameters{1 + trial % 9, 1 + trial % 3});
    relayed += relayed_blocks(setup);
    ASSERT_TRUE(proven(graph, GetParam(), relay_schedules(graph, setup, GetParam()), false))
        << "trial " << trial << ", p = " << shape.size;
  }
  EXPECT_GT(relayed, 50) << "the random graphs relay blocks, so the relays' schedules are proven too";
}

int most_messages(const std::vector<Schedule>& schedules) {
  int most = 0;
  for (const Schedule& schedule : schedules) most = std::max(most, schedule.messages());
  return most;
}

// Denser graphs: Erdős–Rényi graphs, whose degrees differ, relay many blocks; on Moore and von
// Neumann stencils every process has the same counts, and no process sends more than it would
// directly (the smallest stencil wraps onto repeated and self edges).
TEST_P(RelayProof, ErdosRenyiAndStencilGraphs) {
  for (const graphs::EdgeList& edges : {graphs::erdos_renyi(64, 0.3, 1), graphs::erdos_renyi(256, 0.1, 2),
                                        graphs::stencil_graph(216, 3, 1, true), graphs::stencil_graph(64, 2, 3, false),
                                        graphs::stencil_graph(12, 2, 2, true)}) {
    const Graph graph = graph_of(edges);
    const SimulatedRelaySetup setup = simulate_relay_setup(graph, RelayParameters{});
    for (const bool sizes_travel : {false, true})
      ASSERT_TRUE(proven(graph, GetParam(), relay_schedules(graph, setup, GetParam(), sizes_travel), sizes_travel))
          << edges.description << (sizes_travel ? ", sizes travelling" : "");
    std::vector<Schedule> direct;
    for (int rank = 0; rank < graph.size(); ++rank)
      direct.push_back(plan(Algorithm::named("trivial"), graph.view(rank), GetParam()));
    EXPECT_LE(most_messages(relay_schedules(graph, setup, GetParam())), most_messages(direct)) << edges.description;
    if (edges.label.rfind("er-", 0) == 0) {
      EXPECT_GT(relayed_blocks(setup), static_cast<int>(graph.edges() / 10)) << edges.description;
    }
  }
}

// A halo graph of 512 parts: blocks relayed through a neighbor of both ends, proven with every edge
// sized apart, two phases, and on the latency-only machine (0.5 us a message sent, 1 us on the way)
// at most 0.7 times the direct exchange's time (0.56 with the set-up's defaults).
TEST_P(RelayProof, MeshPartitionHaloRelaysThroughCommonNeighbors) {
  const Graph graph = graph_of(graphs::mesh_partition(512, 3, 64, 1));
  const SimulatedRelaySetup setup = simulate_relay_setup(graph, RelayParameters{});
  for (int rank = 0; rank < graph.size(); ++rank)
    for (const auto& [receiver, route] : setup.patterns[static_cast<std::size_t>(rank)].routes)
      if (route >= 0)
        ASSERT_TRUE(has_edge(graph, rank, route) && has_edge(graph, route, receiver)) << rank << " -> " << receiver;
  EXPECT_GT(relayed_blocks(setup), static_cast<int>(graph.edges() / 4));
  const std::vector<Schedule> schedules = relay_schedules(graph, setup, GetParam(), true);
  ASSERT_TRUE(proven(graph, GetParam(), schedules, true));
  std::vector<Schedule> direct;
  for (int rank = 0; rank < graph.size(); ++rank)
    direct.push_back(plan(Algorithm::named("trivial"), graph.view(rank), GetParam()));
  const MessageTiming timing{0.5e-6, 1e-6, 0};
  EXPECT_LE(replayed_call(schedules, timing, 4), 0.7 * replayed_call(direct, timing, 4));
  for (const Schedule& schedule : schedules) EXPECT_EQ(schedule.phases.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Collectives, RelayProof, ::testing::Values(Collective::alltoall, Collective::allgather),
                         [](const auto& test_info) {
                           return std::string(test_info.param == Collective::allgather ? "allgather" : "alltoall");
                         });

// The set-up's two ends agree: what an origin routes through a relay the relay expects, and the
// receiver expects it from that relay.
TEST(RelaySetup, OriginsRelaysAndReceiversAgree) {
  const Graph graph = graph_of(graphs::mesh_partition(256, 3, 51, 1));
  const SimulatedRelaySetup setup = simulate_relay_setup(graph, RelayParameters{});
  ASSERT_GT(relayed_blocks(setup), static_cast<int>(graph.edges() / 4));
  for (int rank = 0; rank < graph.size(); ++rank)
    for (const auto& [receiver, route] : setup.patterns[static_cast<std::size_t>(rank)].routes) {
      const RelayPattern& at_receiver = setup.patterns[static_cast<std::size_t>(receiver)];
      const auto arrival = std::find_if(at_receiver.arrivals.begin(), at_receiver.arrivals.end(),
                                        [&](const auto& entry) { return entry.first == rank; });
      ASSERT_NE(arrival, at_receiver.arrivals.end());
      EXPECT_EQ(arrival->second, route);
      if (route < 0) continue;
      const RelayPattern& at_relay = setup.patterns[static_cast<std::size_t>(route)];
      const auto relayed = std::find_if(at_relay.relayed.begin(), at_relay.relayed.end(),
                                        [&](const auto& entry) { return entry.first == rank; });
      ASSERT_NE(relayed, at_relay.relayed.end());
      EXPECT_TRUE(std::binary_search(relayed->second.begin(), relayed->second.end(), receiver));
    }
}

TEST(NeighborRelayPlanner, WithoutAPatternIsTheDirectExchange) {
  const Graph graph = graph_of(graphs::erdos_renyi(40, 0.3, 3));
  for (int rank = 0; rank < graph.size(); ++rank)
    for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
      const Schedule direct = plan(Algorithm::named("trivial"), graph.view(rank), collective);
      const Schedule relayed = plan(neighbor_relay, graph.view(rank), collective);
      ASSERT_EQ(relayed.phases.size(), 1u);
      EXPECT_EQ(relayed.phases[0].sends, direct.phases[0].sends);
      EXPECT_EQ(relayed.phases[0].recvs, direct.phases[0].recvs);
    }
  const PlannerEntry& entry = neighbor_relay.planner();
  EXPECT_EQ(entry.setup, &detail::relay_setup);
  EXPECT_FALSE(entry.needs_uniform_blocks) << "a relay holds blocks of its in-neighbors only";
  EXPECT_TRUE(entry.graph_sizes_travel);
  EXPECT_FALSE(entry.auto_candidate);
}

// Forced: one run with the parameter given; under `auto`: none.
TEST(NeighborRelayPlanner, SetupRunsOnceWhenAskedForAndNotUnderAuto) {
  const Graph graph = graph_of(graphs::erdos_renyi(8, 0.5, 2));
  const std::vector<int> values{4};
  EXPECT_EQ(detail::relay_setup.runs(SetupInput{graph.view(1), values, 0, false, {}}).size(), 1u);
  EXPECT_TRUE(detail::relay_setup.runs(SetupInput{graph.view(1), values, 0, true, {}}).empty());
  EXPECT_EQ(detail::relay_setup.restricted(RelayPattern{}, CombinedSides{}), nullptr) << "all relay or none";
}

}  // namespace
}  // namespace cartcoll
