// SPDX-License-Identifier: BSD-3-Clause
// The Cartesian planners (combining, torus, node-combining) where sizes travel (a v or w call under
// MPI's contract): every edge's block has its own size, zeros included, and the simulator proves the
// schedules against the reference model on tori, meshes and mixed grids, extents 1 and 2 included
// (moves onto the process itself, two offsets to one neighbor), and on seeded random neighborhoods
// with zero and repeated offsets. A forwarder keeps blocks in transit in temps only, filled by
// messages that carry sizes; without those sizes the simulator refuses the schedules.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/neighborhoods.hpp"
#include "graph_support.hpp"
#include "test_support.hpp"

namespace cartcoll {
namespace {

using test::Blocks;

struct Forwarder {
  std::string_view name;
  int node_size = 0;
};

const Forwarder forwarders[] = {{"combining"}, {"torus"}, {"node-combining", 1}, {"node-combining", 2},
                                {"node-combining", 3}, {"node-combining", 5}};

std::string named(const Forwarder& forwarder) {
  const std::string nodes = forwarder.node_size > 0 ? ", node size " + std::to_string(forwarder.node_size) : "";
  return std::string(forwarder.name) + nodes;
}

std::vector<Schedule> plan_sized(const Forwarder& forwarder, const Grid& grid, const Offsets& offsets,
                                 Collective collective) {
  std::vector<Schedule> schedules;
  for (int rank = 0; rank < grid.size(); ++rank) {
    const std::vector<int> coords = grid.coords_of(rank);
    const CartesianView view{grid, offsets, coords, forwarder.node_size, true};
    schedules.push_back(plan(Algorithm::named(forwarder.name), view, collective));
    schedules.back().sizes_travel = true;
  }
  return schedules;
}

// Block i of origin s (the edge s -> s + offset i) has test::edge_size(s, i, 0) bytes, 0 to 6
// (allgather: test::sender_size(s)); a receive block whose source is off the mesh 3.
std::size_t edge_bytes(int origin, int i, Collective collective) {
  return collective == Collective::allgather ? test::sender_size(origin) : test::edge_size(origin, i, 0);
}

std::pair<Blocks, Blocks> cartesian_edge_blocks(const Grid& grid, const Offsets& offsets, Collective collective) {
  Blocks send(static_cast<std::size_t>(grid.size())), recv(send.size());
  for (int rank = 0; rank < grid.size(); ++rank) {
    const std::vector<int> coords = grid.coords_of(rank);
    const int sends = collective == Collective::allgather ? 1 : offsets.count();
    for (int i = 0; i < sends; ++i)
      send[static_cast<std::size_t>(rank)].push_back(test::payload(rank, i, edge_bytes(rank, i, collective)));
    for (int i = 0; i < offsets.count(); ++i) {
      const std::optional<int> source = grid.shift(coords, offsets[i], -1);
      const std::size_t size = source ? edge_bytes(*source, i, collective) : 3;
      recv[static_cast<std::size_t>(rank)].push_back(test::sentinel(rank, i, size));
    }
  }
  return {send, recv};
}

// The receiver-side definition: block i of R is what R - offset i sent as its block i (allgather: 0).
::testing::AssertionResult matches_definition(const Grid& grid, const Offsets& offsets, Collective collective,
                                              const Blocks& before, const Blocks& result) {
  for (int r = 0; r < grid.size(); ++r)
    for (int i = 0; i < offsets.count(); ++i) {
      const std::optional<int> source = grid.shift(grid.coords_of(r), offsets[i], -1);
      const test::Bytes& was = before[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)];
      const test::Bytes want =
          source ? test::payload(*source, collective == Collective::allgather ? 0 : i, was.size()) : was;
      if (result[static_cast<std::size_t>(r)][static_cast<std::size_t>(i)] != want)
        return ::testing::AssertionFailure() << "rank " << r << ", block " << i;
    }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult proves_sized(const Forwarder& forwarder, const Grid& grid, const Offsets& offsets,
                                        Collective collective) {
  const auto [send, recv] = cartesian_edge_blocks(grid, offsets, collective);
  const Blocks expected = reference::exchange(grid, offsets, collective, send, recv);
  if (auto ok = matches_definition(grid, offsets, collective, recv, expected); !ok)
    return ::testing::AssertionFailure() << "reference model: " << ok.message();
  const std::vector<Schedule> schedules = plan_sized(forwarder, grid, offsets, collective);
  return test::simulates_to(schedules, send, recv, expected);
}

Offsets moore(int d, int r) { return Offsets(d, neighborhoods::moore(d, r)); }

TEST(CartesianSizesTravel, EveryEdgeSizedApartOnToriMeshesAndMixedGrids) {
  const Grid grids[] = {Grid({4, 5}, {true, true}),  Grid({4, 5}, {false, false}), Grid({5, 3}, {true, false}),
                        Grid({3, 3, 3}, {true, true, true}), Grid({2, 3, 2}, {false, true, true}),
                        Grid({2, 3}, {true, true}),  Grid({1, 4}, {true, true}),   Grid({6}, {true})};
  for (const Forwarder& forwarder : forwarders)
    for (const Grid& grid : grids)
      for (const Offsets& offsets : {moore(grid.ndims(), 1), moore(grid.ndims(), 2)})
        for (const Collective collective : {Collective::alltoall, Collective::allgather})
          EXPECT_TRUE(proves_sized(forwarder, grid, offsets, collective))
              << named(forwarder) << ", " << test::describe(grid, offsets) << ", "
              << (collective == Collective::alltoall ? "alltoall" : "allgather");
}

TEST(CartesianSizesTravel, EveryEdgeSizedApartOnRandomNeighborhoods) {
  test::for_each_random_case(9100, 24, 48, [](test::GridKind, Collective collective, int seed, const test::RandomCase& c) {
    const Forwarder& forwarder = forwarders[static_cast<std::size_t>(seed) % std::size(forwarders)];
    ASSERT_TRUE(proves_sized(forwarder, c.grid, c.offsets, collective))
        << "seed " << seed << ": " << named(forwarder) << ", " << test::describe(c.grid, c.offsets);
  });
}

// Combining still combines where sizes travel: on a 4 x 5 torus a Moore neighborhood's 8 blocks go
// in 4 messages (2 per dimension) instead of 8; and a forwarder keeping a block from a message that
// does not carry sizes is refused (the one diagonal offset's block travels alone in each message, so
// only the planner's marks give it its size: a message of several blocks carries sizes anyway).
TEST(CartesianSizesTravel, CombiningCombinesAndCarriesTheSizes) {
  const Grid grid({4, 5}, {true, true});
  for (const Offsets& offsets : {moore(2, 1), Offsets(2, std::vector<int>{1, 1})}) {
    std::vector<Schedule> schedules = plan_sized(forwarders[0], grid, offsets, Collective::alltoall);
    if (offsets.count() == 8) {
      for (const Schedule& schedule : schedules) EXPECT_EQ(schedule.messages(), 4);
    }
    const auto [send, recv] = cartesian_edge_blocks(grid, offsets, Collective::alltoall);
    EXPECT_NO_THROW(static_cast<void>(simulate(schedules, send, recv)));
    ASSERT_TRUE(test::drop_carried_sizes(schedules));
    if (offsets.count() == 1) {
      EXPECT_THROW(static_cast<void>(simulate(schedules, send, recv)), ScheduleError);
    }
  }
}

}  // namespace
}  // namespace cartcoll
