#pragma once
// The edges message combining works on: those between two different processes that occur once.
// Repeated edges (matched k-th to k-th), self edges and absent neighbors always go direct, so the
// set-up and the planner must agree on this one definition.
#include <span>
#include <vector>

namespace cartcoll::detail {

// The processes named exactly once in `neighbors`, other than `self` and no_process, ascending.
std::vector<int> single_neighbors(std::span<const int> neighbors, int self);

}  // namespace cartcoll::detail
