#include "single_edges.hpp"

#include <algorithm>

#include "cartcoll/graph.hpp"

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

}  // namespace cartcoll::detail
