// SPDX-License-Identifier: BSD-3-Clause
// node-combining without MPI: the simulator proves its schedules against the reference model for
// node sizes 1 to 7 (a node of one process pools repeated blocks to one neighbor), on tori, meshes
// and mixed grids, seeded random neighborhoods with zero and repeated offsets, and counts what
// crosses between nodes: one message per direction for every pair of nodes that exchange two or more
// blocks.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/model/neighborhoods.hpp"

namespace cartcoll {
namespace {

using test::proves;

template <int NodeSize>
Schedule plan_nodes(const Grid& grid, const Offsets& offsets, Collective collective, std::span<const int> coords) {
  return plan(Algorithm::named("node-combining"), {grid, offsets, coords, NodeSize}, collective);
}

// One planner per node size the tests use.
const std::pair<int, test::Planner> node_planners[] = {{1, plan_nodes<1>}, {2, plan_nodes<2>}, {3, plan_nodes<3>},
                                                       {4, plan_nodes<4>}, {5, plan_nodes<5>}, {7, plan_nodes<7>}};

Offsets moore(int d, int r) { return Offsets(d, neighborhoods::moore(d, r)); }

TEST(NodeCombining, ProvesOnToriMeshesAndMixedGrids) {
  const Grid grids[] = {Grid({4, 6}, {true, true}), Grid({4, 6}, {false, false}), Grid({5, 3}, {true, false}),
                        Grid({3, 3, 3}, {true, true, true}), Grid({2, 3, 4}, {false, true, false}),
                        Grid({2, 2}, {true, true}), Grid({7}, {true})};
  for (const Grid& grid : grids)
    for (const Offsets& offsets : {moore(grid.ndims(), 1), moore(grid.ndims(), 2)})
      for (const Collective collective : {Collective::alltoall, Collective::allgather})
        for (const auto& [node_size, planner] : node_planners)
          EXPECT_TRUE(proves(planner, grid, offsets, collective, test::varied_sizes(collective, offsets.count())))
              << test::describe(grid, offsets) << ", node size " << node_size;
}

TEST(NodeCombining, ProvesOnRandomNeighborhoods) {
  test::for_each_random_case(7000, 30, 60, [](test::GridKind, Collective collective, int seed, const test::RandomCase& c) {
    const auto& [node_size, planner] = node_planners[static_cast<std::size_t>(seed) % std::size(node_planners)];
    ASSERT_TRUE(proves(planner, c.grid, c.offsets, collective, c.sizes))
        << "seed " << seed << ": " << test::describe(c.grid, c.offsets) << ", node size " << node_size;
  });
}

// On a 6 x 8 torus with nodes of 8 processes (the rows), Moore radius 1: each row sends 3 blocks of
// each of its processes to the rows above and below, and gets one message from each; nothing else
// crosses rows. Within a row messages go directly. Three phases.
TEST(NodeCombining, TwoNodesExchangeOneMessagePerDirection) {
  const Grid grid({6, 8}, {true, true});
  const Offsets offsets = moore(2, 1);
  for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
    const std::vector<Schedule> schedules = test::plan_all(plan_nodes<8>, grid, offsets, collective);
    std::map<std::pair<int, int>, int> between;  // (from row, to row): messages
    for (int rank = 0; rank < grid.size(); ++rank) {
      const Schedule& schedule = schedules[static_cast<std::size_t>(rank)];
      EXPECT_EQ(schedule.phases.size(), 3u);
      for (const Phase& phase : schedule.phases)
        for (const Message& send : phase.sends)
          if (send.peer / 8 != rank / 8) ++between[{rank / 8, send.peer / 8}];
    }
    EXPECT_EQ(between.size(), 12u);  // 6 rows, each to the row above and the row below
    for (const auto& [rows, messages] : between) EXPECT_EQ(messages, 1) << rows.first << " -> " << rows.second;
  }
}

// One node (node size 0 or at least p): the direct exchange, as trivial plans it.
TEST(NodeCombining, OnOneNodeIsTheDirectExchange) {
  const Grid grid({3, 4}, {true, false});
  const Offsets offsets = moore(2, 1);
  for (const int node_size : {0, 12, 100})
    for (int rank = 0; rank < grid.size(); ++rank) {
      const std::vector<int> coords = grid.coords_of(rank);
      const Schedule nodes = plan(Algorithm::named("node-combining"), {grid, offsets, coords, node_size}, Collective::alltoall);
      const Schedule direct = plan(Algorithm::named("trivial"), {grid, offsets, coords}, Collective::alltoall);
      ASSERT_EQ(nodes.phases.size(), 1u);
      EXPECT_EQ(nodes.phases[0].sends, direct.phases[0].sends);
      EXPECT_EQ(nodes.phases[0].recvs, direct.phases[0].recvs);
      EXPECT_EQ(nodes.phases[0].copies, direct.phases[0].copies);
    }
}

}  // namespace
}  // namespace cartcoll
