// SPDX-License-Identifier: BSD-3-Clause
// A second opinion: where no edge repeats (and no neighbor is missing or the process itself),
// MPI_Neighbor_alltoall/allgather on the equivalent distributed graph must agree with cartcoll.
// The reference model stays the oracle; MPI libraries disagree on repeated edges.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/exchange_case.hpp"
#include "../support/neighborhoods.hpp"

using namespace support;

namespace {

// The neighbors R + sign * offset i by MPI's own arithmetic on the Cartesian communicator
// (MPI_Cart_coords, MPI_Cart_rank), independent of cartcoll's; MPI_PROC_NULL off a mesh.
std::vector<int> mpi_neighbors(MPI_Comm cart, const cartcoll::Offsets& offsets, int sign) {
  const int d = offsets.ndims();
  std::vector<int> dims(static_cast<std::size_t>(d)), periods(dims.size()), coords(dims.size());
  MPI_Cart_get(cart, d, dims.data(), periods.data(), coords.data());
  std::vector<int> ranks;
  for (int i = 0; i < offsets.count(); ++i) {
    std::vector<int> at(coords);
    bool inside = true;
    for (std::size_t k = 0; k < at.size(); ++k) {
      at[k] += sign * offsets[i][k];
      inside = inside && (periods[k] || (at[k] >= 0 && at[k] < dims[k]));
    }
    int rank = MPI_PROC_NULL;
    if (inside) MPI_Cart_rank(cart, at.data(), &rank);
    ranks.push_back(rank);
  }
  return ranks;
}

bool simple_graph(const std::vector<int>& sources, const std::vector<int>& targets, int self) {
  const std::set<int> distinct_sources(sources.begin(), sources.end()), distinct_targets(targets.begin(), targets.end());
  return distinct_sources.size() == sources.size() && distinct_targets.size() == targets.size() &&
         !distinct_sources.count(self) && !distinct_targets.count(self) && !distinct_sources.count(MPI_PROC_NULL) &&
         !distinct_targets.count(MPI_PROC_NULL);
}

TEST(AgainstMpi, NeighborCollectivesOnTheEquivalentGraphAgree) {
  int compared = 0;
  unsigned seed = 7;
  for (const cartcoll::Grid& grid : grids_for(world_size())) {
    for (const cartcoll::Offsets& offsets : offsets_for(grid.ndims(), seed++)) {
      MPI_Comm cart = MPI_COMM_NULL;
      ASSERT_EQ(create(MPI_COMM_WORLD, grid, offsets, MPI_INFO_NULL, &cart), MPI_SUCCESS);
      if (cart == MPI_COMM_NULL) continue;
      const int t = offsets.count();
      int rank = 0;
      MPI_Comm_rank(cart, &rank);
      const std::vector<int> sources = mpi_neighbors(cart, offsets, -1), targets = mpi_neighbors(cart, offsets, +1);
      std::vector<int> listed_sources(static_cast<std::size_t>(t)), listed_targets(static_cast<std::size_t>(t));
      Cart_neighbor_get(cart, t, listed_sources.data(), MPI_UNWEIGHTED, t, listed_targets.data(), MPI_UNWEIGHTED);
      EXPECT_EQ(listed_sources, sources) << describe(grid, offsets);
      EXPECT_EQ(listed_targets, targets) << describe(grid, offsets);
      // Simple or not is the same everywhere on a torus; on a mesh, agree before anyone skips.
      int simple = t > 0 && simple_graph(sources, targets, rank) ? 1 : 0;
      MPI_Allreduce(MPI_IN_PLACE, &simple, 1, MPI_INT, MPI_MIN, cart);
      if (simple) {
        MPI_Comm graph = MPI_COMM_NULL;
        MPI_Dist_graph_create_adjacent(cart, t, sources.data(), MPI_UNWEIGHTED, t, targets.data(), MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &graph);
        std::vector<int> send(static_cast<std::size_t>(2 * t)), ours(send.size(), -1), theirs(send.size(), -2);
        for (std::size_t k = 0; k < send.size(); ++k) send[k] = 1000 * rank + static_cast<int>(k);
        ASSERT_EQ(Cart_alltoall(send.data(), 2, MPI_INT, ours.data(), 2, MPI_INT, cart), MPI_SUCCESS);
        MPI_Neighbor_alltoall(send.data(), 2, MPI_INT, theirs.data(), 2, MPI_INT, graph);
        EXPECT_EQ(ours, theirs) << "alltoall, " << describe(grid, offsets);
        for (std::size_t k = 0; k < send.size(); ++k) send[k] = -(1000 * rank + static_cast<int>(k));
        std::fill(ours.begin(), ours.end(), -3);
        std::fill(theirs.begin(), theirs.end(), -4);
        ASSERT_EQ(Cart_allgather(send.data(), 2, MPI_INT, ours.data(), 2, MPI_INT, cart), MPI_SUCCESS);
        MPI_Neighbor_allgather(send.data(), 2, MPI_INT, theirs.data(), 2, MPI_INT, graph);
        EXPECT_EQ(ours, theirs) << "allgather, " << describe(grid, offsets);
        MPI_Comm_free(&graph);
        ++compared;
      }
      MPI_Comm_free(&cart);
    }
  }
  if (world_size() < 3) GTEST_SKIP() << "no simple graph among the sweep's neighborhoods below 3 processes";
  EXPECT_GT(compared, 0) << "the sweep should contain simple graphs";
}

}  // namespace
