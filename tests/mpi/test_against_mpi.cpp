// A second opinion: where no edge repeats (and no neighbor is missing or the process itself),
// MPI_Neighbor_alltoall/allgather on the equivalent distributed graph must agree with cartcoll.
// The reference model stays the oracle; MPI libraries disagree on repeated edges.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/exchange_case.hpp"
#include "../support/neighborhoods.hpp"

using namespace support;

namespace {

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
      std::vector<int> sources(static_cast<std::size_t>(t)), targets(static_cast<std::size_t>(t));
      Cart_neighbor_get(cart, t, sources.data(), MPI_UNWEIGHTED, t, targets.data(), MPI_UNWEIGHTED);
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
        ASSERT_EQ(Cart_allgather(send.data(), 2, MPI_INT, ours.data(), 2, MPI_INT, cart), MPI_SUCCESS);
        MPI_Neighbor_allgather(send.data(), 2, MPI_INT, theirs.data(), 2, MPI_INT, graph);
        EXPECT_EQ(ours, theirs) << "allgather, " << describe(grid, offsets);
        MPI_Comm_free(&graph);
        ++compared;
      }
      MPI_Comm_free(&cart);
    }
  }
  if (world_size() >= 3) EXPECT_GT(compared, 0) << "the sweep should contain simple graphs";
}

}  // namespace
