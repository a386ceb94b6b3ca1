// SPDX-License-Identifier: BSD-3-Clause
// --mesh-partition (src/util/mesh_partition.cpp): the parts cover the mesh once, and the halo graph
// and its counts are what a cell-by-cell count over the mesh finds.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/model/graph.hpp"
#include "util/graphs.hpp"

namespace cartcoll {
namespace {

// The part owning each cell of the n^dims mesh (cell index: the last dimension fastest); -1 for a
// cell no part has, -2 for one two parts have.
std::vector<int> owners(const std::vector<graphs::MeshPart>& parts, int dims, int n) {
  std::size_t cells = 1;
  for (int d = 0; d < dims; ++d) cells *= static_cast<std::size_t>(n);
  std::vector<int> owner(cells, -1);
  for (std::size_t cell = 0; cell < cells; ++cell)
    for (std::size_t k = 0; k < parts.size(); ++k) {
      bool inside = true;
      for (std::size_t d = dims, rest = cell; d-- > 0; rest /= static_cast<std::size_t>(n)) {
        const auto coordinate = static_cast<int>(rest % static_cast<std::size_t>(n));
        inside = inside && parts[k].lo[d] <= coordinate && coordinate < parts[k].hi[d];
      }
      if (inside) owner[cell] = owner[cell] == -1 ? static_cast<int>(k) : -2;
    }
  return owner;
}

// The oracle, cell by cell: (A, B) -> how many cells of A have a cell of B at Chebyshev distance 1.
std::map<std::pair<int, int>, int> halo_counts(const std::vector<int>& owner, int dims, int n) {
  std::set<std::pair<std::pair<int, int>, std::size_t>> adjacent;  // ((A, B), cell of A)
  std::vector<int> coords(static_cast<std::size_t>(dims));
  for (std::size_t cell = 0; cell < owner.size(); ++cell) {
    for (std::size_t d = coords.size(), rest = cell; d-- > 0; rest /= static_cast<std::size_t>(n))
      coords[d] = static_cast<int>(rest % static_cast<std::size_t>(n));
    std::vector<int> offset(coords.size(), -1);
    for (bool more = true; more;) {
      std::size_t other = 0;
      bool inside = true;
      for (std::size_t d = 0; d < coords.size(); ++d) {
        const int c = coords[d] + offset[d];
        inside = inside && c >= 0 && c < n;
        other = other * static_cast<std::size_t>(n) + static_cast<std::size_t>(std::max(c, 0));
      }
      if (inside && owner[other] != owner[cell]) adjacent.insert({{owner[cell], owner[other]}, cell});
      std::size_t d = 0;
      while (d < offset.size() && offset[d] == 1) offset[d++] = -1;
      more = d < offset.size();
      if (more) ++offset[d];
    }
  }
  std::map<std::pair<int, int>, int> counts;
  for (const auto& [pair, cell] : adjacent) ++counts[pair];
  return counts;
}

struct MeshCase {
  int parts, dims, n;
  unsigned seed;
};

class MeshPartition : public ::testing::TestWithParam<MeshCase> {};

// Every cell in exactly one part, and the edges (both directions, no self edges) with their counts
// exactly the cell-by-cell oracle's, in the order of the parts.
TEST_P(MeshPartition, CoversTheMeshOnceAndCountsEveryHalo) {
  const auto [parts, dims, n, seed] = GetParam();
  const auto boxes = graphs::mesh_parts(parts, dims, n, seed);
  ASSERT_EQ(boxes.size(), static_cast<std::size_t>(parts));
  const std::vector<int> owner = owners(boxes, dims, n);
  for (std::size_t cell = 0; cell < owner.size(); ++cell) ASSERT_GE(owner[cell], 0) << "cell " << cell;
  const graphs::EdgeList graph = graphs::mesh_partition(parts, dims, n, seed);
  EXPECT_EQ(graph.size, parts);
  ASSERT_EQ(graph.counts.size(), graph.edges.size());
  std::map<std::pair<int, int>, int> found;
  for (std::size_t i = 0; i < graph.edges.size(); ++i) {
    EXPECT_NE(graph.edges[i].first, graph.edges[i].second);
    EXPECT_GT(graph.counts[i], 0);
    EXPECT_TRUE(found.emplace(graph.edges[i], graph.counts[i]).second) << "a repeated edge";
    EXPECT_TRUE(i == 0 || graph.edges[i - 1] < graph.edges[i]) << "edges in order";
  }
  EXPECT_EQ(found, halo_counts(owner, dims, n));
  for (const auto& [edge, count] : found) EXPECT_TRUE(found.contains({edge.second, edge.first})) << "symmetric";
  EXPECT_EQ(Graph::from_edges(graph.size, graph.edges).inconsistency(), "");
}

INSTANTIATE_TEST_SUITE_P(Meshes, MeshPartition,
                         ::testing::Values(MeshCase{2, 1, 10, 1}, MeshCase{5, 1, 5, 2}, MeshCase{7, 2, 12, 3},
                                           MeshCase{16, 2, 4, 4}, MeshCase{12, 3, 9, 5}, MeshCase{27, 3, 10, 6},
                                           MeshCase{9, 4, 5, 7}),
                         [](const ::testing::TestParamInfo<MeshCase>& mesh) {
                           const MeshCase& c = mesh.param;
                           return "p" + std::to_string(c.parts) + "_d" + std::to_string(c.dims) + "_n" +
                                  std::to_string(c.n) + "_seed" + std::to_string(c.seed);
                         });

// Hand-checked: two parts of a 6 x 6 mesh share one face of 6 cells, each side's 6 cells next to it.
// 16 single cells of a 4 x 4 mesh: the king's moves, 2 x (12 + 12 + 18) edges, one cell each.
TEST(MeshPartitionByHand, TwoHalvesAndSingleCells) {
  const graphs::EdgeList halves = graphs::mesh_partition(2, 2, 6, 1);
  EXPECT_EQ(halves.edges, (std::vector<std::pair<int, int>>{{0, 1}, {1, 0}}));
  EXPECT_EQ(halves.counts, (std::vector<int>{6, 6}));
  const auto parts = graphs::mesh_parts(2, 2, 6, 1);
  EXPECT_EQ(parts[0].lo, (std::vector<int>{0, 0}));
  EXPECT_EQ(parts[1].hi, (std::vector<int>{6, 6}));
  EXPECT_EQ(parts[0].hi[0], parts[1].lo[0]) << "the first cut is across dimension 0";
  const graphs::EdgeList cells = graphs::mesh_partition(16, 2, 4, 9);
  EXPECT_EQ(cells.edges.size(), 2u * (12 + 12 + 18));
  EXPECT_TRUE(std::all_of(cells.counts.begin(), cells.counts.end(), [](int count) { return count == 1; }));
}

// Same seed, same graph; another seed moves the cuts. Counts differ by edge and by direction.
TEST(MeshPartitionByHand, SeededAndIrregular) {
  const graphs::EdgeList graph = graphs::mesh_partition(64, 3, 48, 1);
  const graphs::EdgeList again = graphs::mesh_partition(64, 3, 48, 1);
  EXPECT_EQ(again.edges, graph.edges);
  EXPECT_EQ(again.counts, graph.counts);
  EXPECT_NE(graphs::mesh_parts(4, 2, 40, 2)[0].hi, graphs::mesh_parts(4, 2, 40, 3)[0].hi);
  EXPECT_NE(graphs::mesh_partition(64, 3, 48, 2).counts, graph.counts);
  std::map<std::pair<int, int>, int> count;
  for (std::size_t i = 0; i < graph.edges.size(); ++i) count[graph.edges[i]] = graph.counts[i];
  EXPECT_TRUE(std::any_of(count.begin(), count.end(),
                          [&](const auto& entry) { return count.at({entry.first.second, entry.first.first}) != entry.second; }))
      << "some edge carries a different count each way";
  EXPECT_NE(*std::min_element(graph.counts.begin(), graph.counts.end()),
            *std::max_element(graph.counts.begin(), graph.counts.end()));
}

// The command line: the four values, the limits, and a mesh too small for its parts.
TEST(MeshPartitionByHand, CommandLine) {
  graphs::EdgeList graph;
  std::string error;
  std::size_t i = 0;
  const std::vector<std::string> good = {"--mesh-partition", "8", "3", "16", "4", "--json"};
  ASSERT_TRUE(graphs::parse_graph(good, i, graph, error));
  EXPECT_EQ(error, "");
  EXPECT_EQ(i, 4u);
  EXPECT_EQ(graph.counts, graphs::mesh_partition(8, 3, 16, 4).counts);
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"--mesh-partition", "8", "3", "16"}, {"--mesh-partition", "8", "7", "2", "1"},
        {"--mesh-partition", "9", "1", "8", "1"}, {"--mesh-partition", "8", "3", "2000", "1"},
        {"--mesh-partition", "8", "0", "16", "1"}, {"--mesh-partition", "9", "2", "3", "1"}}) {
    i = 0;
    error.clear();
    EXPECT_TRUE(graphs::parse_graph(bad, i, graph, error));
    EXPECT_NE(error, "") << bad[1] << " " << bad[2] << " " << bad[3];
  }
}

// The bench's view: each process's counts in the order of its destinations and sources.
TEST(MeshPartitionByHand, CountsOfOneProcessFollowTheGraphsOrder) {
  const graphs::EdgeList graph = graphs::mesh_partition(12, 3, 9, 5);
  const Graph adjacency = Graph::from_edges(graph.size, graph.edges);
  for (int rank = 0; rank < graph.size; ++rank) {
    const graphs::ProcessCounts counts = graphs::counts_of(graph, rank);
    ASSERT_EQ(counts.out.size(), adjacency.destinations(rank).size());
    ASSERT_EQ(counts.in.size(), adjacency.sources(rank).size());
    for (std::size_t k = 0; k < counts.out.size(); ++k) {
      const auto at = std::find(graph.edges.begin(), graph.edges.end(), std::pair{rank, adjacency.destinations(rank)[k]});
      EXPECT_EQ(counts.out[k], graph.counts[static_cast<std::size_t>(at - graph.edges.begin())]);
    }
    for (std::size_t k = 0; k < counts.in.size(); ++k) {
      const auto at = std::find(graph.edges.begin(), graph.edges.end(), std::pair{adjacency.sources(rank)[k], rank});
      EXPECT_EQ(counts.in[k], graph.counts[static_cast<std::size_t>(at - graph.edges.begin())]);
    }
  }
  EXPECT_NE(graphs::summary(graph).find("count an edge"), std::string::npos) << graphs::summary(graph);
}

}  // namespace
}  // namespace cartcoll
