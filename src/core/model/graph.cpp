// SPDX-License-Identifier: BSD-3-Clause
#include "graph.hpp"

#include <map>
#include <stdexcept>

#include "cartcoll/error.hpp"

namespace cartcoll {

Graph::Graph(int size) : sources_(static_cast<std::size_t>(size)), destinations_(static_cast<std::size_t>(size)) {
  if (size < 0) throw Error(Errc::arg, "a graph of a negative number of processes");
}

Graph Graph::from_edges(int size, std::span<const std::pair<int, int>> edges) {
  Graph graph(size);
  for (const auto& [from, to] : edges) {
    if (from < 0 || from >= size || to < 0 || to >= size)
      throw Error(Errc::rank, "edge " + std::to_string(from) + " -> " + std::to_string(to) + " leaves the graph");
    graph.destinations(from).push_back(to);
    graph.sources(to).push_back(from);
  }
  return graph;
}

GraphView Graph::view(int rank) const { return {rank, size(), sources(rank), destinations(rank)}; }

std::size_t Graph::edges() const {
  std::size_t count = 0;
  for (const auto& list : destinations_)
    for (int to : list) count += to != no_process ? 1 : 0;
  return count;
}

std::string Graph::inconsistency() const {
  std::map<std::pair<int, int>, long long> balance;  // (from, to) -> sends minus receives
  for (int rank = 0; rank < size(); ++rank) {
    for (int to : destinations(rank)) {
      if (to == no_process) continue;
      if (to < 0 || to >= size()) return "rank " + std::to_string(rank) + " names destination " + std::to_string(to);
      ++balance[{rank, to}];
    }
    for (int from : sources(rank)) {
      if (from == no_process) continue;
      if (from < 0 || from >= size()) return "rank " + std::to_string(rank) + " names source " + std::to_string(from);
      --balance[{from, rank}];
    }
  }
  for (const auto& [edge, count] : balance)
    if (count != 0)
      return "edge " + std::to_string(edge.first) + " -> " + std::to_string(edge.second) + ": " +
             std::to_string(count) + " more among the destinations than among the sources";
  return {};
}

}  // namespace cartcoll
