// SPDX-License-Identifier: BSD-3-Clause
// Distributed-graph neighborhoods without MPI: the reference model's repeated-edge rule on a worked
// example, the consistency check, and the trivial graph planner proved by the simulator on random
// graphs (duplicates, self edges, isolated processes, absent neighbors) up to thousands of processes;
// an MPI Cartesian topology's neighbor order as a relabelled Cartesian schedule (MPI 4.1 Example 8.10).
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/model/graph.hpp"
#include "graph_support.hpp"
#include "test_support.hpp"

namespace cartcoll {
namespace {

using test::Blocks;
using test::Bytes;

// Rank 0 names 1 twice, rank 2 names 1 once and itself twice; rank 1 lists its sources as 2, 0, 2?
// No: 0, 2, 0 - so 0's first edge lands in block 0, its second in block 2 (MPICH #7945's rule).
TEST(GraphReference, KthOccurrenceMatchesKth) {
  Graph graph(3);
  graph.destinations(0) = {1, 1};
  graph.destinations(2) = {2, 1, 2};
  graph.sources(1) = {0, 2, 0};
  graph.sources(2) = {2, 2};
  ASSERT_EQ(graph.inconsistency(), "");
  const Blocks send = {{test::bytes({10}), test::bytes({11})}, {}, {test::bytes({20}), test::bytes({21}), test::bytes({22})}};
  const Blocks recv = {{}, {test::bytes({0}), test::bytes({0}), test::bytes({0})}, {test::bytes({0}), test::bytes({0})}};
  const Blocks got = reference::exchange(graph, Collective::alltoall, send, recv);
  EXPECT_EQ(got[1], (std::vector<Bytes>{test::bytes({10}), test::bytes({21}), test::bytes({11})}));
  EXPECT_EQ(got[2], (std::vector<Bytes>{test::bytes({20}), test::bytes({22})}));
  const Blocks gathered = reference::exchange(graph, Collective::allgather,
                                              {{test::bytes({7})}, {test::bytes({8})}, {test::bytes({9})}}, recv);
  EXPECT_EQ(gathered[1], (std::vector<Bytes>{test::bytes({7}), test::bytes({9}), test::bytes({7})}));
  EXPECT_EQ(gathered[2], (std::vector<Bytes>{test::bytes({9}), test::bytes({9})}));
}

TEST(GraphReference, AbsentNeighborsLeaveBlocksAlone) {
  Graph graph(2);
  graph.destinations(0) = {no_process, 1};
  graph.sources(1) = {no_process, 0};
  const Blocks got = reference::exchange(graph, Collective::alltoall, {{test::bytes({1}), test::bytes({2})}, {}},
                                         {{}, {test::bytes({5}), test::bytes({6})}});
  EXPECT_EQ(got[1], (std::vector<Bytes>{test::bytes({5}), test::bytes({2})}));
}

TEST(GraphConsistency, FindsEveryKindOfMismatch) {
  Graph missing(2);
  missing.destinations(0) = {1};
  EXPECT_NE(missing.inconsistency(), "");
  Graph extra(2);
  extra.sources(1) = {0};
  EXPECT_NE(extra.inconsistency(), "");
  Graph fewer_repeats(2);
  fewer_repeats.destinations(0) = {1, 1};
  fewer_repeats.sources(1) = {0};
  EXPECT_NE(fewer_repeats.inconsistency(), "");
  Graph out_of_range(2);
  out_of_range.destinations(0) = {2};
  EXPECT_NE(out_of_range.inconsistency(), "");
  Graph self(1);
  self.destinations(0) = {0, 0};
  self.sources(0) = {0, 0};
  EXPECT_EQ(self.inconsistency(), "");
  EXPECT_EQ(self.edges(), 2u);
}

TEST(GraphConsistency, FromEdgesIsConsistentAndKeepsOrder) {
  const std::vector<std::pair<int, int>> edges = {{0, 2}, {1, 2}, {0, 2}, {2, 2}};
  const Graph graph = Graph::from_edges(3, edges);
  EXPECT_EQ(graph.inconsistency(), "");
  EXPECT_EQ(graph.destinations(0), (std::vector<int>{2, 2}));
  EXPECT_EQ(graph.sources(2), (std::vector<int>{0, 1, 0, 2}));
  const std::vector<std::pair<int, int>> outside = {{0, 3}};
  EXPECT_THROW(Graph::from_edges(3, outside), Error);
}

// Plans every process with the trivial planner, runs the simulator and compares with the reference
// model, which is itself checked against the receiver-side definition.
::testing::AssertionResult proves_trivial_graph(const Graph& graph, Collective collective) {
  std::vector<Schedule> schedules;
  for (int rank = 0; rank < graph.size(); ++rank)
    schedules.push_back(plan(Algorithm::named("trivial"), graph.view(rank), collective));
  const auto [send, recv] = test::graph_blocks(graph, collective);
  const Blocks expected = reference::exchange(graph, collective, send, recv);
  if (auto ok = test::matches_graph_definition(graph, collective, recv, expected); !ok)
    return ::testing::AssertionFailure() << "reference model: " << ok.message();
  return test::simulates_to(schedules, send, recv, expected);
}

class RandomGraph : public ::testing::TestWithParam<Collective> {};

TEST_P(RandomGraph, TrivialPlannerSmall) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 300; ++trial) {
    const test::GraphShape shape{1 + trial % 17, 1 + trial % 9, trial % 3 == 0};
    const Graph graph = test::random_graph(rng, shape);
    ASSERT_EQ(graph.inconsistency(), "") << "trial " << trial;
    ASSERT_TRUE(proves_trivial_graph(graph, GetParam())) << "trial " << trial << ", p = " << shape.size;
  }
}

TEST_P(RandomGraph, TrivialPlannerThousandsOfProcesses) {
  std::mt19937 rng(99);
  for (int size : {2048, 4099}) {
    const Graph graph = test::random_graph(rng, {size, 12, size % 2 == 1});
    ASSERT_TRUE(proves_trivial_graph(graph, GetParam())) << "p = " << size;
  }
}

INSTANTIATE_TEST_SUITE_P(Collectives, RandomGraph, ::testing::Values(Collective::alltoall, Collective::allgather),
                         [](const auto& test_info) {
                           return std::string(test_info.param == Collective::allgather ? "allgather" : "alltoall");
                         });

// Only the cartesian/graph split a planner declares is served: combining has no graph planner.
TEST(GraphPlanners, RegistryKnowsWhoServesGraphs) {
  Graph graph(2);
  graph.destinations(0) = {1};
  graph.sources(1) = {0};
  EXPECT_NO_THROW(plan(Algorithm::named("trivial"), graph.view(0), Collective::alltoall));
  EXPECT_THROW(plan(Algorithm::named("combining"), graph.view(0), Collective::alltoall), Error);
}

// Blocks of the isomorphic contract the Cartesian planners rely on: send block j (offset j) has
// 1 + j mod 3 bytes on every process, so receive block i, from R + e (sent on offset -e = i ^ 1),
// has as many as send block i ^ 1. With equal_sizes every block has 3 bytes.
std::pair<Blocks, Blocks> cartesian_blocks(const Graph& graph, Collective collective, bool equal_sizes = false) {
  auto size = [collective, equal_sizes](int j) {
    return collective == Collective::allgather || equal_sizes ? 3u : 1u + static_cast<std::size_t>(j % 3);
  };
  Blocks send(static_cast<std::size_t>(graph.size())), recv(send.size());
  for (int rank = 0; rank < graph.size(); ++rank) {
    const int out = collective == Collective::allgather ? 1 : static_cast<int>(graph.destinations(rank).size());
    for (int j = 0; j < out; ++j) send[static_cast<std::size_t>(rank)].push_back(test::payload(rank, j, size(j)));
    for (int i = 0; i < static_cast<int>(graph.sources(rank).size()); ++i)
      recv[static_cast<std::size_t>(rank)].push_back(test::sentinel(rank, i, size(i ^ 1)));
  }
  return {send, recv};
}

// MPI_Cart_create's neighbor lists: R - e0, R + e0, R - e1, ... for sources and destinations alike,
// no_process off a mesh.
Graph mpi_cartesian_lists(const Grid& grid, const Offsets& axes) {
  Graph graph(grid.size());
  for (int rank = 0; rank < grid.size(); ++rank)
    for (int i = 0; i < axes.count(); ++i) {
      const auto to = grid.shift(grid.coords_of(rank), axes[i], +1);
      graph.destinations(rank).push_back(to ? *to : no_process);
      graph.sources(rank).push_back(to ? *to : no_process);
    }
  return graph;
}

// Every process's blocks with 2k and 2k+1 swapped (the renumbering is its own inverse).
Blocks pairs_swapped(Blocks blocks) {
  for (auto& list : blocks)
    for (std::size_t i = 0; i + 1 < list.size(); i += 2) std::swap(list[i], list[i + 1]);
  return blocks;
}

// MPI 4.1 section 8.6, Example 8.10, from the receiver's side: receive block i of R holds what its
// neighbor i sent as block i ^ 1 (allgather: its one block), or is unchanged where neighbor i is
// MPI_PROC_NULL, also where a periodic dimension of 1 or 2 processes repeats a neighbor.
::testing::AssertionResult matches_example_8_10(const Graph& lists, Collective collective, const Blocks& recv_before,
                                                const Blocks& result) {
  for (int rank = 0; rank < lists.size(); ++rank) {
    const std::vector<int>& sources = lists.sources(rank);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      Bytes want = recv_before[static_cast<std::size_t>(rank)][i];
      const int block = collective == Collective::allgather ? 0 : static_cast<int>(i ^ 1);
      if (sources[i] != no_process) want = test::payload(sources[i], block, want.size());
      if (result[static_cast<std::size_t>(rank)][i] != want)
        return ::testing::AssertionFailure() << "rank " << rank << ", block " << i << " (source " << sources[i]
                                             << "): got " << test::show(result[static_cast<std::size_t>(rank)][i])
                                             << ", expected " << test::show(want);
    }
  }
  return ::testing::AssertionSuccess();
}

// Grids of 1 to 3 dimensions with dimensions of 1 and 2 processes, each under every choice of periods.
std::vector<Grid> mpi_cartesian_grids() {
  const std::vector<std::vector<int>> shapes = {{1},       {2},       {3},       {5},       {2, 1},   {1, 3},
                                                {2, 2},    {3, 2},    {4, 3, 5}, {2, 1, 3}, {2, 2, 2}, {1, 1, 1}};
  std::vector<Grid> grids;
  for (const auto& dims : shapes)
    for (unsigned bits = 0; bits < (1u << dims.size()); ++bits) {
      std::vector<bool> periodic;
      for (std::size_t k = 0; k < dims.size(); ++k) periodic.push_back(((bits >> k) & 1u) != 0);
      grids.emplace_back(dims, periodic);
    }
  return grids;
}

bool repeats_a_neighbor(const Grid& grid) {
  for (int k = 0; k < grid.ndims(); ++k)
    if (grid.periodic(k) && grid.dims()[static_cast<std::size_t>(k)] <= 2) return true;
  return false;
}

// MPI_Cart_create's topology is served as a Cartesian neighborhood with offsets -e0, +e0, -e1, ...
// whose receive blocks are renumbered 2k <-> 2k+1. The oracle is the Cartesian reference model with
// those offsets, renumbered the same way, itself checked against Example 8.10's definition; it
// differs from the graph reference on MPI's lists (the k-th-occurrence rule) where a periodic
// dimension of 1 or 2 processes repeats a neighbor in alltoall, so a schedule pairing blocks the
// graph's way fails here.
TEST(GraphPlanners, MpiCartesianOrderIsARelabelledCartesianSchedule) {
  for (const Grid& grid : mpi_cartesian_grids()) {
    const int d = grid.ndims();
    const Offsets axes(d, neighborhoods::cartesian_axes(d));
    std::vector<int> order(static_cast<std::size_t>(2 * d));
    std::iota(order.begin(), order.end(), 0);
    for (int& i : order) i ^= 1;
    const Graph lists = mpi_cartesian_lists(grid, axes);
    const std::string shape = test::describe(grid, axes);
    for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
      const auto [send, recv] = cartesian_blocks(lists, collective);
      const Blocks expected = pairs_swapped(reference::exchange(grid, axes, collective, send, pairs_swapped(recv)));
      ASSERT_TRUE(matches_example_8_10(lists, collective, recv, expected)) << shape;
      if (collective == Collective::alltoall && repeats_a_neighbor(grid)) {  // blocks of one size, which both rules take
        const auto [equal_send, equal_recv] = cartesian_blocks(lists, collective, true);
        EXPECT_NE(reference::exchange(lists, collective, equal_send, equal_recv),
                  pairs_swapped(reference::exchange(grid, axes, collective, equal_send, pairs_swapped(equal_recv))))
            << shape << ": the k-th-occurrence rule";
      }
      for (const char* name : {"trivial", "combining", "torus"}) {
        std::vector<Schedule> schedules;
        for (int rank = 0; rank < grid.size(); ++rank)
          schedules.push_back(relabel_receives(plan(Algorithm::named(name), {grid, axes, grid.coords_of(rank)}, collective), order));
        EXPECT_TRUE(test::simulates_to(schedules, send, recv, expected)) << name << ", " << shape;
      }
    }
  }
}

}  // namespace
}  // namespace cartcoll
