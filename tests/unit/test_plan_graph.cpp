// SPDX-License-Identifier: BSD-3-Clause
// cartcoll-plan on distributed graphs: the generators and the edge file (src/util/graphs), and the
// per-process figures (tools/plan/graph_figures).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "core/model/graph.hpp"
#include "graph_figures.hpp"
#include "util/graphs.hpp"

namespace cartcoll {
namespace {

TEST(GraphGenerators, RandomDegreeNamesDistinctOtherProcesses) {
  const graphs::EdgeList graph = graphs::random_degree(50, 7, 3);
  std::vector<std::set<int>> named(50);
  for (const auto& [from, to] : graph.edges) {
    EXPECT_NE(from, to);
    EXPECT_TRUE(named[static_cast<std::size_t>(from)].insert(to).second) << "a repeated destination";
  }
  for (const auto& destinations : named) EXPECT_EQ(destinations.size(), 7u);
  EXPECT_EQ(graphs::random_degree(50, 7, 3).edges, graph.edges) << "the same seed, the same graph";
  EXPECT_NE(graphs::random_degree(50, 7, 4).edges, graph.edges);
}

// Every process names K distinct others; within each group of 8 consecutive processes every pair
// shares at least round(OVERLAP x K) out-neighbors (more by chance); same seed, same graph.
TEST(GraphGenerators, OverlapGraphSharesWhatItPromises) {
  for (double overlap : {0.0, 0.5, 1.0}) {
    const graphs::EdgeList graph = graphs::overlap_graph(61, 20, overlap, 5);
    std::vector<std::set<int>> named(61);
    for (const auto& [from, to] : graph.edges) {
      EXPECT_NE(from, to);
      EXPECT_TRUE(named[static_cast<std::size_t>(from)].insert(to).second) << "a repeated destination";
    }
    for (const auto& destinations : named) EXPECT_EQ(destinations.size(), 20u);
    const auto promised = static_cast<std::size_t>(std::lround(overlap * 20));
    for (std::size_t a = 0; a < 61; ++a)
      for (std::size_t b = a + 1; b < 61 && b / graphs::overlap_group == a / graphs::overlap_group; ++b) {
        std::vector<int> common;
        std::set_intersection(named[a].begin(), named[a].end(), named[b].begin(), named[b].end(),
                              std::back_inserter(common));
        EXPECT_GE(common.size(), promised) << "processes " << a << " and " << b << ", overlap " << overlap;
      }
    EXPECT_EQ(graphs::overlap_graph(61, 20, overlap, 5).edges, graph.edges) << "the same seed, the same graph";
  }
  EXPECT_NE(graphs::overlap_graph(61, 20, 0.5, 6).edges, graphs::overlap_graph(61, 20, 0.5, 5).edges);
}

TEST(GraphGenerators, ErdosRenyiHasAboutTheDensityAsked) {
  EXPECT_TRUE(graphs::erdos_renyi(40, 0.0, 1).edges.empty());
  EXPECT_EQ(graphs::erdos_renyi(40, 1.0, 1).edges.size(), 40u * 39u);
  const auto edges = graphs::erdos_renyi(200, 0.1, 9).edges.size();
  EXPECT_NEAR(static_cast<double>(edges) / (200.0 * 199.0), 0.1, 0.01);  // 3980 expected, sd ~ 60
  for (const auto& [from, to] : graphs::erdos_renyi(30, 0.5, 2).edges) EXPECT_NE(from, to);
}

// Mirsadeghi et al.'s (Exploiting Common Neighborhoods) Moore and von Neumann neighborhoods as
// plain graphs: 3^D - 1 and 2D distinct neighbors at radius 1 on a torus large enough; on a short
// dimension offsets wrap onto repeated (or self) edges.
TEST(GraphGenerators, MooreAndVonNeumannGraphs) {
  for (const auto& [graph, degree] : {std::pair{graphs::stencil_graph(64, 2, 1, true), 8u},
                                      std::pair{graphs::stencil_graph(64, 3, 1, true), 26u},
                                      std::pair{graphs::stencil_graph(64, 2, 1, false), 4u}}) {
    std::vector<std::set<int>> named(64);
    for (const auto& [from, to] : graph.edges) {
      EXPECT_NE(from, to);
      EXPECT_TRUE(named[static_cast<std::size_t>(from)].insert(to).second) << graph.description;
    }
    for (const auto& destinations : named) EXPECT_EQ(destinations.size(), degree) << graph.description;
  }
  // 2 x 2 torus, radius 1: the 8 Moore offsets reach the side neighbors twice, the diagonal one four
  // times; radius 2 reaches the process itself through the 8 offsets of even coordinates.
  const auto small = graphs::stencil_graph(4, 2, 1, true);
  EXPECT_EQ(small.edges.size(), 4u * 8u);
  EXPECT_EQ(std::count(small.edges.begin(), small.edges.end(), std::pair<int, int>{0, 1}), 2);
  EXPECT_EQ(std::count(small.edges.begin(), small.edges.end(), std::pair<int, int>{0, 3}), 4);
  const auto wide = graphs::stencil_graph(4, 2, 2, true);
  EXPECT_EQ(std::count(wide.edges.begin(), wide.edges.end(), std::pair<int, int>{0, 0}), 8);
  graphs::EdgeList parsed;
  std::string error;
  std::size_t i = 0;
  const std::vector<std::string> args = {"--moore-graph", "64", "2", "1"};
  ASSERT_TRUE(graphs::parse_graph(args, i, parsed, error));
  EXPECT_EQ(error, "");
  EXPECT_EQ(parsed.edges, graphs::stencil_graph(64, 2, 1, true).edges);
  i = 0;
  const std::vector<std::string> bad = {"--von-neumann-graph", "64", "0", "1"};
  EXPECT_TRUE(graphs::parse_graph(bad, i, parsed, error));
  EXPECT_NE(error, "");
}

TEST(GraphGenerators, EdgeFileWithCommentsCommasAndErrors) {
  const std::string path = ::testing::TempDir() + "cartcoll_edges.txt";
  std::ofstream(path) << "# OSU-style\n0 1\n\n1,0\n2 2\n0 1\n";
  std::string error;
  const auto graph = graphs::read_edge_file(path, std::nullopt, error);
  ASSERT_TRUE(graph) << error;
  EXPECT_EQ(graph->size, 3);
  EXPECT_EQ(graph->edges, (std::vector<std::pair<int, int>>{{0, 1}, {1, 0}, {2, 2}, {0, 1}}));
  EXPECT_FALSE(graphs::read_edge_file(path, 2, error)) << "rank 2 of 2 processes";
  std::ofstream(path) << "0 1 2\n";
  EXPECT_FALSE(graphs::read_edge_file(path, std::nullopt, error));
  std::ofstream(path) << "0 x\n";
  EXPECT_FALSE(graphs::read_edge_file(path, std::nullopt, error));
  std::remove(path.c_str());
}

TEST(GraphGenerators, CommandLineOptions) {
  graphs::EdgeList graph;
  std::string error;
  const std::vector<std::string> good = {"--random-degree", "10", "3", "5"};
  std::size_t i = 0;
  ASSERT_TRUE(graphs::parse_graph(good, i, graph, error));
  EXPECT_EQ(error, "");
  EXPECT_EQ(i, 3u);
  EXPECT_EQ(graph.edges.size(), 30u);
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--random-degree", "10", "10", "5"}, {"--erdos-renyi", "10", "1.5", "1"},
        {"--erdos-renyi", "0", "0.5", "1"}, {"--random-degree", "10", "3"}, {"--graph-file", "/nonexistent", "0"}}) {
    i = 0;
    error.clear();
    EXPECT_TRUE(graphs::parse_graph(bad, i, graph, error));
    EXPECT_NE(error, "") << bad[0] << " " << bad[1];
  }
  i = 0;
  const std::vector<std::string> other = {"--moore", "2", "1"};
  EXPECT_FALSE(graphs::parse_graph(other, i, graph, error));
}

// Trivial: one message per destination other than the process itself (self edges are copies).
TEST(GraphFigures, TrivialSendsOneMessagePerEdgeToAnotherProcess) {
  const std::vector<std::pair<int, int>> edges = {{0, 1}, {0, 1}, {0, 0}, {1, 2}, {2, 0}};
  const auto figures = plan_tool::compute_graph_figures(Graph::from_edges(4, edges));
  ASSERT_EQ(figures.algorithms, (std::vector<std::string>{"trivial", "graph-combining", "node-combining", "graph-routing", "neighbor-relay"}));
  EXPECT_EQ(figures.edges, 5u);
  ASSERT_EQ(figures.processes.size(), 4u);
  const std::vector<int> messages = {2, 1, 1, 0}, in = {2, 2, 1, 0}, out = {3, 1, 1, 0};
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(figures.processes[r].in, in[r]);
    EXPECT_EQ(figures.processes[r].out, out[r]);
    ASSERT_TRUE(figures.processes[r].alltoall[0]);
    EXPECT_EQ(figures.processes[r].alltoall[0]->messages, messages[r]) << "rank " << r;
    EXPECT_EQ(figures.processes[r].allgather[0]->volume, messages[r]) << "rank " << r;
  }
  const std::string json = plan_tool::to_json(figures);
  EXPECT_NE(json.find("\"p\":4,\"edges\":5"), std::string::npos) << json;
  ASSERT_TRUE(figures.routing_setup);
  EXPECT_EQ(figures.routing_setup->extents, std::vector<int>{4}) << "default_routing_dims(4) = 1";
  EXPECT_NE(json.find("\"routing_setup\":{\"extents\":[4],\"rounds\":1,"), std::string::npos) << json;
  EXPECT_NE(plan_tool::to_table(figures).find("4 (0..2)"), std::string::npos) << "messages over all processes (the self edge is a copy)";
}

// --replay: the direct exchange takes the busiest sender's messages times the overhead plus one
// latency (every message goes in one phase); the table and the JSON print it.
TEST(GraphFigures, ReplayTimesEveryPlannersCall) {
  const std::vector<std::pair<int, int>> edges = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 0}};
  plan_tool::GraphOptions options;
  options.replay = MessageTiming{2e-6, 10e-6, 0};
  const auto figures = plan_tool::compute_graph_figures(Graph::from_edges(4, edges), options);
  ASSERT_EQ(figures.replayed_seconds.size(), figures.algorithms.size());
  EXPECT_DOUBLE_EQ(figures.replayed_seconds[0].first, 3 * 2e-6 + 10e-6) << "rank 0 sends 3";
  EXPECT_DOUBLE_EQ(figures.replayed_seconds[0].second, 3 * 2e-6 + 10e-6);
  for (const auto& [alltoall, allgather] : figures.replayed_seconds) EXPECT_GT(alltoall, 0);
  EXPECT_NE(plan_tool::to_table(figures).find("trivial          alltoall    16.00 us"), std::string::npos)
      << plan_tool::to_table(figures);
  EXPECT_NE(plan_tool::to_json(figures).find("\"replayed_s\":{\"trivial\":[1.6e-05,1.6e-05]"), std::string::npos)
      << plan_tool::to_json(figures);
  EXPECT_TRUE(plan_tool::compute_graph_figures(Graph::from_edges(4, edges)).replayed_seconds.front().first < 0)
      << "not replayed unless asked";
}

// --node-size: node-combining gets a set-up of its own, with friends within nodes only, and
// Figures::off_node counts the sends that leave a node: combining within a node cuts them. With one
// node of everybody, node-combining plans what graph-combining plans.
TEST(GraphFigures, NodeSizeGivesNodeCombiningItsOwnSetUp) {
  // Processes 0..3 all send to 4..9, so any two of them are friends; nodes of 2 put 0 with 1.
  std::vector<std::pair<int, int>> edges;
  for (int from = 0; from < 4; ++from)
    for (int to = 4; to < 10; ++to) edges.emplace_back(from, to);
  const Graph graph = Graph::from_edges(10, edges);
  plan_tool::GraphOptions options;
  options.combining.threshold = 2;
  options.combining.node_size = 2;
  const auto figures = plan_tool::compute_graph_figures(graph, options);
  ASSERT_EQ(figures.algorithms, (std::vector<std::string>{"trivial", "graph-combining", "node-combining", "graph-routing", "neighbor-relay"}));
  const auto& zero = figures.processes[0].allgather;
  EXPECT_EQ(zero[0]->off_node, 6) << "trivial: every destination is on another node";
  EXPECT_LT(zero[1]->messages, 6) << "graph-combining pairs 0 with one of 1..3";
  EXPECT_LT(zero[2]->messages, 6) << "node-combining pairs 0 with 1, its node mate";
  EXPECT_LT(zero[2]->off_node, zero[0]->off_node);
  options.combining.node_size = 10;
  const auto one_node = plan_tool::compute_graph_figures(graph, options);
  for (const auto& process : one_node.processes) EXPECT_EQ(process.allgather[1]->messages, process.allgather[2]->messages);
  EXPECT_NE(plan_tool::to_table(figures).find("off-node"), std::string::npos);
}

}  // namespace
}  // namespace cartcoll
