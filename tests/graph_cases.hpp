// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Random distributed graphs for the unit and MPI tests (MPI-free): duplicates, self edges, isolated
// processes, asymmetric degrees, absent (no_process) neighbors, sources in any order. Every process
// of an MPI test draws the same graph from the same seed.
#include <algorithm>
#include <random>
#include <vector>

#include "core/model/graph.hpp"

namespace cartcoll::test {

struct GraphShape {
  int size = 1;
  int max_out_degree = 6;
  bool absent_neighbors = false;  // sprinkle no_process among the sources and destinations
};

// Each process names 0..max_out_degree destinations (a third of the processes none: isolated unless
// named), one in five a repeat of an earlier one, one in eight itself; each receiver's sources are
// then shuffled, since only the order among equal entries carries meaning.
inline Graph random_graph(std::mt19937& rng, const GraphShape& shape) {
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Graph graph(shape.size);
  for (int from = 0; from < shape.size; ++from) {
    const int degree = uniform(0, 2) == 0 ? 0 : uniform(0, shape.max_out_degree);
    std::vector<int>& destinations = graph.destinations(from);
    for (int e = 0; e < degree; ++e) {
      const int kind = uniform(0, 39);
      int to = uniform(0, shape.size - 1);
      if (kind < 8 && !destinations.empty()) to = destinations[static_cast<std::size_t>(uniform(0, static_cast<int>(destinations.size()) - 1))];
      else if (kind < 13) to = from;
      destinations.push_back(to);
      graph.sources(to).push_back(from);
    }
  }
  for (int rank = 0; rank < shape.size; ++rank) {
    std::shuffle(graph.sources(rank).begin(), graph.sources(rank).end(), rng);
    if (!shape.absent_neighbors) continue;
    for (std::vector<int>* list : {&graph.sources(rank), &graph.destinations(rank)})
      if (uniform(0, 2) == 0) list->insert(list->begin() + uniform(0, static_cast<int>(list->size())), no_process);
  }
  return graph;
}

}  // namespace cartcoll::test
