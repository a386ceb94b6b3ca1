// SPDX-License-Identifier: BSD-3-Clause
// Cartesian detection without MPI (core/model/cartesian_detection.hpp): relative offsets, the agreed
// offset list, the per-process match; and the proof that matters: on every detected graph, every
// Cartesian planner's schedule, renumbered to the graph's blocks, delivers what the graph reference
// model says MPI 4.1 prescribes (k-th occurrence matching), in the simulator. The collective steps
// are the same three as src/runtime/comm/cartesian_detection.cpp's, done here over all processes at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "core/model/cartesian_detection.hpp"
#include "cartcoll/error.hpp"
#include "core/model/graph.hpp"
#include "core/planning/plan.hpp"
#include "core/simulation/reference.hpp"
#include "test_support.hpp"
#include "core/model/neighborhoods.hpp"

namespace cartcoll {
namespace {

using test::Blocks;

// Every process's graph lists for the Cartesian neighborhood `offsets` on grid (neighbors off a mesh
// left out), each list shuffled by a rank-dependent permutation: detection must not depend on order.
Graph stencil_graph(const Grid& grid, const Offsets& offsets, unsigned seed) {
  Graph graph(grid.size());
  for (int rank = 0; rank < grid.size(); ++rank) {
    const std::vector<int> coords = grid.coords_of(rank);
    for (int i = 0; i < offsets.count(); ++i) {
      if (const auto to = grid.shift(coords, offsets[i], +1)) graph.destinations(rank).push_back(*to);
      if (const auto from = grid.shift(coords, offsets[i], -1)) graph.sources(rank).push_back(*from);
    }
    std::mt19937 random(seed + static_cast<unsigned>(rank));
    std::shuffle(graph.destinations(rank).begin(), graph.destinations(rank).end(), random);
    std::shuffle(graph.sources(rank).begin(), graph.sources(rank).end(), random);
  }
  return graph;
}

struct Detected {
  Offsets common;
  std::vector<BlockOrders> orders;  // per rank
};

// The three steps over all processes: local offsets; the maximum of the counts; every process's match.
std::optional<Detected> detect(const Grid& grid, const Graph& graph) {
  std::vector<RelativeNeighbors> all;
  int reach = 0;
  for (int rank = 0; rank < grid.size(); ++rank) {
    auto mine = relative_neighbors(grid, rank, graph.sources(rank), graph.destinations(rank));
    if (!mine) return std::nullopt;
    reach = std::max(reach, reach_of(*mine));
    all.push_back(std::move(*mine));
  }
  std::vector<int> counts(static_cast<std::size_t>(*box_size(grid.ndims(), reach, 1 << 14)), 0);
  for (const RelativeNeighbors& mine : all) {
    const std::vector<int> box = offset_counts(mine.destinations, grid.ndims(), reach);
    std::transform(box.begin(), box.end(), counts.begin(), counts.begin(), [](int a, int b) { return std::max(a, b); });
  }
  Detected detected{offsets_of_counts(counts, grid.ndims(), reach), {}};
  if (!connects_grid(grid, detected.common)) return std::nullopt;
  for (int rank = 0; rank < grid.size(); ++rank) {
    auto orders = match_offsets(grid, grid.coords_of(rank), detected.common, all[static_cast<std::size_t>(rank)]);
    if (!orders) return std::nullopt;
    detected.orders.push_back(std::move(*orders));
  }
  return detected;
}

// One block size for every block (MPI's one-count alltoall and allgather on a connected stencil).
std::pair<Blocks, Blocks> uniform_blocks(const Graph& graph, Collective collective) {
  Blocks send(static_cast<std::size_t>(graph.size())), recv(send.size());
  for (int rank = 0; rank < graph.size(); ++rank) {
    const int out = collective == Collective::allgather ? 1 : static_cast<int>(graph.destinations(rank).size());
    for (int j = 0; j < out; ++j) send[static_cast<std::size_t>(rank)].push_back(test::payload(rank, j, 3));
    for (int i = 0; i < static_cast<int>(graph.sources(rank).size()); ++i)
      recv[static_cast<std::size_t>(rank)].push_back(test::sentinel(rank, i, 3));
  }
  return {send, recv};
}

// Every Cartesian planner, both families: the renumbered schedules against the graph reference model.
void expect_graph_semantics(const Grid& grid, const Graph& graph, const Detected& detected, const char* what) {
  for (const PlannerEntry& planner : planners()) {
    if (!planner.serves(NeighborhoodKind::cartesian) || planner.plans_shared_sends) continue;
    for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
      if (!planner.serves(collective)) continue;
      std::vector<Schedule> schedules;
      for (int rank = 0; rank < grid.size(); ++rank) {
        const std::vector<int> coords = grid.coords_of(rank);
        const BlockOrders& orders = detected.orders[static_cast<std::size_t>(rank)];
        schedules.push_back(relabel_blocks(plan(*Algorithm::parse(planner.name), {grid, detected.common, coords}, collective),
                                           orders.send, orders.receive));
      }
      const auto [send, recv] = uniform_blocks(graph, collective);
      const Blocks expected = reference::exchange(graph, collective, send, recv);
      EXPECT_TRUE(test::simulates_to(schedules, send, recv, expected))
          << what << ", " << planner.name << (collective == Collective::alltoall ? " alltoall" : " allgather");
    }
  }
}

Offsets moore(int d, bool with_zero) { return Offsets(d, neighborhoods::box(d, 3, -1, with_zero)); }
Offsets von_neumann(int d) { return Offsets(d, neighborhoods::cartesian_axes(d)); }

// MPI ties the block sizes of processes that send to a common process; one class of all processes
// is what forwarding needs. Moore stencils give one class on tori and meshes; von Neumann stencils on
// tori of even extent two (the parities; on odd extents the wrap joins them); all-odd offsets with a
// forwarded one (+e_k and (1,1,1)) two on 2 x 2 x 2; a one-sided offset as many as processes, and a
// process that sends nothing is in none.
TEST(CartesianDetection, BlockSizesForcedEqualOnlyWhereTheSendersFormOneClass) {
  auto forced = [](std::vector<int> dims, bool periodic, const Offsets& offsets) {
    const Grid grid(dims, std::vector<bool>(dims.size(), periodic));
    return block_sizes_forced_equal(grid, offsets);
  };
  const Offsets moore2(2, neighborhoods::moore(2, 1)), moore3(3, neighborhoods::moore(3, 1));
  const Offsets von_neumann2(2, neighborhoods::von_neumann(2, 1));
  EXPECT_TRUE(forced({4, 6}, true, moore2));
  EXPECT_TRUE(forced({4, 6}, false, moore2));
  EXPECT_TRUE(forced({2, 2, 2}, true, moore3));
  EXPECT_FALSE(forced({4, 6}, true, von_neumann2));
  EXPECT_TRUE(forced({3, 5}, true, von_neumann2));
  const Offsets odd = Offsets::from_list(3, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}});
  EXPECT_FALSE(forced({2, 2, 2}, true, odd));
  EXPECT_TRUE(forced({3, 3, 3}, true, odd));
  EXPECT_FALSE(forced({5}, true, Offsets::from_list(1, {{1}})));
  EXPECT_FALSE(forced({5}, false, Offsets::from_list(1, {{1}, {2}})));  // the last process sends nothing
  EXPECT_TRUE(forced({1}, true, Offsets::from_list(1, {{1}})));
}

// Forwarding needs the one class only where some offset can travel through another process: two
// moving dimensions, or two steps along one of more than two processes, reachable on the grid.
TEST(CartesianDetection, ForwardingMayMismatchOnlyWhereBlocksTravelAndClassesDiffer) {
  auto mismatch = [](std::vector<int> dims, bool periodic, const Offsets& offsets) {
    return forwarding_may_mismatch(Grid(dims, std::vector<bool>(dims.size(), periodic)), offsets);
  };
  const Offsets odd = Offsets::from_list(3, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}});
  EXPECT_TRUE(mismatch({2, 2, 2}, true, odd));
  EXPECT_FALSE(mismatch({3, 3, 3}, true, odd));                                        // one class
  EXPECT_FALSE(mismatch({4, 6}, true, Offsets(2, neighborhoods::von_neumann(2, 1))));  // nothing travels
  EXPECT_FALSE(mismatch({1, 1, 3}, false, Offsets(3, neighborhoods::moore(3, 1))));    // a line: one step
  EXPECT_TRUE(mismatch({6}, true, Offsets::from_list(1, {{1}, {3}})));   // three steps; classes: r ~ r + 2
  EXPECT_FALSE(mismatch({5}, false, Offsets::from_list(1, {{1}, {5}})));  // 5 reaches nothing on 5
}

TEST(CartesianDetection, RelativeOffsetsAreOneVectorPerPairOfProcesses) {
  const Grid torus({5, 4, 2}, {true, true, true}), mesh({5, 4, 2}, {false, false, false});
  const std::vector<int> origin{0, 0, 0}, far{4, 2, 1};
  EXPECT_EQ(relative_offset(torus, origin, far), (std::vector<int>{-1, 2, 1}));  // into (-n/2, n/2]
  EXPECT_EQ(relative_offset(torus, far, origin), (std::vector<int>{1, 2, 1}));
  EXPECT_EQ(relative_offset(mesh, origin, far), (std::vector<int>{4, 2, 1}));
  EXPECT_EQ(relative_offset(mesh, far, origin), (std::vector<int>{-4, -2, -1}));
}

TEST(CartesianDetection, CountsRoundTripInLexicographicOrderWithMultiplicity) {
  const std::vector<int> flat{1, 0, -1, 1, 1, 0, 0, 0};
  const std::vector<int> counts = offset_counts(flat, 2, 1);
  ASSERT_EQ(counts.size(), 9u);
  EXPECT_EQ(offsets_of_counts(counts, 2, 1), Offsets(2, {-1, 1, 0, 0, 1, 0, 1, 0}));
  EXPECT_FALSE(box_size(3, 20, 1 << 14).has_value());  // 41^3 vectors: too far-reaching to look at
  EXPECT_THROW(offset_counts(std::vector<int>{2, 0}, 2, 1), Error);
}

// Moore and von Neumann, with and without the zero offset, on tori and meshes in 1 to 3 dimensions,
// small periodic dimensions (1 and 2: offsets that wrap onto the same process, repeated targets)
// included, and meshes where no process has every neighbor (2 x 2 and 2 x 2 x 2).
TEST(CartesianDetection, StencilsInAnyOrderAreDetectedAndKeepGraphSemantics) {
  const std::vector<std::vector<int>> shapes{{7}, {4, 4}, {2, 3}, {1, 5}, {2, 2}, {3, 4, 2}, {2, 2, 2}, {3, 3, 3}};
  unsigned seed = 11;
  for (const auto& dims : shapes)
    for (const bool periodic : {true, false}) {
      const int d = static_cast<int>(dims.size());
      const Grid grid(dims, std::vector<bool>(dims.size(), periodic));
      for (const Offsets& offsets : {moore(d, false), moore(d, true), von_neumann(d)}) {
        const Graph graph = stencil_graph(grid, offsets, seed++);
        ASSERT_EQ(graph.inconsistency(), "");
        const std::optional<Detected> detected = detect(grid, graph);
        const std::string what = test::describe(grid, offsets);
        ASSERT_TRUE(detected.has_value()) << what;
        expect_graph_semantics(grid, graph, *detected, what.c_str());
      }
    }
}

// A repeated offset is a Cartesian neighborhood too (rule 6): the k-th occurrence rule still holds.
TEST(CartesianDetection, AnOffsetRepeatedEverywhereIsDetected) {
  const Grid grid({4, 3}, {true, false});
  const Offsets offsets(2, {1, 0, 0, 1, 1, 0, -1, -1, 1, 0});
  const Graph graph = stencil_graph(grid, offsets, 5);
  const std::optional<Detected> detected = detect(grid, graph);
  ASSERT_TRUE(detected.has_value());
  EXPECT_EQ(detected->common.count(), 5);
  expect_graph_semantics(grid, graph, *detected, "repeated (1,0)");
}

// Graphs that are not one Cartesian neighborhood: one process with an extra edge, an edge repeated
// by one process only, degrees that differ on a torus, and a mesh process that would have only
// absent slots on one side.
TEST(CartesianDetection, GraphsThatAreNoStencilAreNotDetected) {
  const Grid torus({4, 4}, {true, true});
  Graph extra = stencil_graph(torus, von_neumann(2), 1);
  extra.destinations(0).push_back(10);
  extra.sources(10).push_back(0);
  EXPECT_FALSE(detect(torus, extra).has_value());

  Graph repeated = stencil_graph(torus, von_neumann(2), 2);
  repeated.destinations(5).push_back(repeated.destinations(5).front());
  repeated.sources(repeated.destinations(5).front()).push_back(5);
  ASSERT_EQ(repeated.inconsistency(), "");
  EXPECT_FALSE(detect(torus, repeated).has_value());

  Graph asymmetric = stencil_graph(torus, von_neumann(2), 3);
  const int dropped = asymmetric.destinations(3).back();
  asymmetric.destinations(3).pop_back();
  auto& back = asymmetric.sources(dropped);
  back.erase(std::find(back.begin(), back.end(), 3));
  ASSERT_EQ(asymmetric.inconsistency(), "");
  EXPECT_FALSE(detect(torus, asymmetric).has_value());

  EXPECT_TRUE(connects_grid(torus, von_neumann(2)));
  EXPECT_TRUE(connects_grid(Grid({1, 4}, {true, true}), Offsets(2, {0, -1})));
  EXPECT_FALSE(connects_grid(torus, Offsets(2, {1, 1, 1, -1})));  // two interleaved lattices
  EXPECT_FALSE(connects_grid(torus, Offsets(2, {0, 1, 0, -1})));  // the rows apart

  const Grid line({1, 3}, {false, false});
  EXPECT_FALSE(detect(line, stencil_graph(line, Offsets(2, {0, 2}), 4)).has_value());  // rank 2: no target
}

// Slots off a mesh have no block: a temp shaped like one takes block 0's shape, and a schedule that
// names one is a planner's bug, never a silently misrouted block.
TEST(CartesianDetection, RelabelledSchedulesNeverNameAnAbsentBlock) {
  Schedule schedule;
  schedule.send_blocks = schedule.recv_blocks = 2;
  schedule.temps = {{Buffer::recv, 1}};
  schedule.phases.push_back({{{1, {{Buffer::send, 1}}}}, {{1, {{Buffer::temp, 0}}}}, {{{Buffer::temp, 0}, {Buffer::recv, 0}}}});
  const std::vector<int> send{absent_block, 0}, receive{0, absent_block};
  const Schedule relabelled = relabel_blocks(schedule, send, receive);
  EXPECT_EQ(relabelled.send_blocks, 1);
  EXPECT_EQ(relabelled.recv_blocks, 1);
  EXPECT_EQ(relabelled.temps[0], (TempBlock{Buffer::recv, 0}));
  EXPECT_EQ(relabelled.phases[0].sends[0].blocks[0], (BlockRef{Buffer::send, 0}));
  const std::vector<int> wrong{0, absent_block};
  EXPECT_THROW(relabel_blocks(schedule, wrong, receive), Error);
}

}  // namespace
}  // namespace cartcoll
