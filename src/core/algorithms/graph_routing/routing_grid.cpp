// SPDX-License-Identifier: BSD-3-Clause
// The virtual grid graph-routing routes over (core/algorithms/graph_routing/graph_routing.hpp).
#include <algorithm>
#include <cmath>

#include "cartcoll/error.hpp"
#include "graph_routing.hpp"
#include "cartcoll/topology.hpp"

namespace cartcoll {

std::vector<int> routing_extents(int size, int dims) {
  if (dims < 1) throw Error(Errc::info_value, "routing needs a grid of at least one dimension");
  std::vector<int> extents = balanced_extents(std::max(size, 1), dims);
  std::erase(extents, 1);
  return extents;
}

int default_routing_dims(int size) {
  return std::max(1, static_cast<int>(std::lround(std::log2(std::max(size, 1)) / 2)));
}

int next_hop(std::span<const int> extents, int self, int destination, int phase) {
  // Row-major: dimension k's coordinate is (rank / stride) % extent, stride the product of the
  // extents after k.
  int stride = 1;
  for (std::size_t k = extents.size(); k-- > static_cast<std::size_t>(phase) + 1;) stride *= extents[k];
  const int extent = extents[static_cast<std::size_t>(phase)];
  const int own = self / stride % extent, wanted = destination / stride % extent;
  return self + (wanted - own) * stride;
}

}  // namespace cartcoll
