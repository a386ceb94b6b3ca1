// SPDX-License-Identifier: BSD-3-Clause
#include "single_edges.hpp"

#include <algorithm>
#include <string>

#include "cartcoll/error.hpp"
#include "core/model/graph.hpp"

namespace cartcoll::detail {

std::vector<int> single_neighbors(std::span<const int> neighbors, int self) {
  std::vector<int> sorted(neighbors.begin(), neighbors.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> single;
  for (std::size_t i = 0; i < sorted.size();) {
    std::size_t j = i;
    while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
    if (j - i == 1 && sorted[i] != self && sorted[i] != no_process) single.push_back(sorted[i]);
    i = j;
  }
  return single;
}

SingleEdgeIndex::SingleEdgeIndex(std::span<const int> neighbors, int self) {
  const std::vector<int> single = single_neighbors(neighbors, self);
  for (std::size_t i = 0; i < neighbors.size(); ++i)
    if (std::binary_search(single.begin(), single.end(), neighbors[i])) index_[neighbors[i]] = static_cast<int>(i);
}

int SingleEdgeIndex::operator()(int process) const {
  const auto found = index_.find(process);
  if (found == index_.end())
    throw Error(Errc::intern, "the set-up's pattern names " + std::to_string(process) + ", no single-edge neighbor");
  return found->second;
}

}  // namespace cartcoll::detail
