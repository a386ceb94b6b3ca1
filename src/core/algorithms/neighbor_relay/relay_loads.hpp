// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// One process's view of the message counts its routes affect, and its choice of routes against
// them: its own messages of both phases, and for each out-neighbor (a candidate relay) the count of
// its phase-0 messages and its phase-1 blocks by receiver, as that neighbor last reported them.
#include <map>
#include <span>
#include <utility>
#include <vector>

namespace cartcoll::detail {

// A neighbor's counts: its phase-0 messages, its phase-1 blocks by receiver (one message each).
struct NeighborLoads {
  int first = 0;
  std::map<int, int> second;
};

class RelayLoads {
 public:
  // first, second: this process's blocks by receiver in phase 0 and phase 1 (the ones it relays too).
  RelayLoads(int self, std::map<int, int> first, std::map<int, int> second, std::map<int, NeighborLoads> neighbors)
      : self_(self), first_(std::move(first)), second_(std::move(second)), neighbors_(std::move(neighbors)) {}

  // Adds (delta 1) or removes (-1) this process's block for `receiver` on `route`.
  void move(int receiver, int route, int delta);
  // What adding this process's block for `receiver` on `route` adds to the penalty of this process
  // and of the route's relay: each process's is convex in its messages, so that a move that
  // relieves a busy process pays for a message more at a quieter one.
  double added_cost(int receiver, int route);

 private:
  double penalty_of(int process) const;

  int self_;
  std::map<int, int> first_, second_;
  std::map<int, NeighborLoads> neighbors_;
};

// The best route, in turn, for the block to each of `receivers` (parallel to `routes`, which hold
// the current ones): among the direct ones and every relay in `relays_of` (receiver -> the
// out-neighbors that have it as an out-neighbor), the one of least cost given the others.
std::vector<int> rerouted(RelayLoads loads, std::span<const int> receivers, std::vector<int> routes,
                          const std::map<int, std::vector<int>>& relays_of);

}  // namespace cartcoll::detail
