// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The edges message combining works on: those between two different processes that occur once.
// Repeated edges (matched k-th to k-th), self edges and absent neighbors always go direct, so the
// set-up and the planner must agree on this one definition.
#include <map>
#include <span>
#include <vector>

namespace cartcoll::detail {

// The processes named exactly once in `neighbors`, other than `self` and no_process, ascending.
std::vector<int> single_neighbors(std::span<const int> neighbors, int self);

// The block index of each single neighbor in `neighbors` (a process's sources or destinations).
class SingleEdgeIndex {
 public:
  SingleEdgeIndex(std::span<const int> neighbors, int self);
  // Error(Errc::intern) for a process that is no single neighbor: a set-up's pattern that names one
  // disagrees with this process's lists.
  int operator()(int process) const;

 private:
  std::map<int, int> index_;
};

}  // namespace cartcoll::detail
