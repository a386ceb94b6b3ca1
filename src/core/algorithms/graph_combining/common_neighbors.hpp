// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Mirsadeghi et al.'s (Exploiting Common Neighborhoods) common-neighborhood matrix M (section
// IV-B1), kept by one process P: for each of P's active out-neighbors N, N's active in-neighbors;
// from them, for every other process Q, how many active out-neighbors P and Q share. Memory: the
// lists (P's out-neighbors' in-degrees) and one count per process named in them, never a p-sized
// array.
#include <map>
#include <span>
#include <utility>
#include <vector>

namespace cartcoll::detail {

class CommonNeighbors {
 public:
  explicit CommonNeighbors(int self) : self_(self) {}

  // The lists of the first round: lists[N] = N's in-neighbors (any order).
  void assign(std::map<int, std::vector<int>> lists);
  // `gone` left out-neighbor N's in-neighbors.
  void remove(int neighbor, std::span<const int> gone);
  // N is no longer an active out-neighbor of this process.
  void drop(int neighbor);

  // The active out-neighbors this process shares with `other`, ascending.
  std::vector<int> shared_with(int other) const;
  // The processes sharing at least `threshold` active out-neighbors with this one, most shared first
  // (ties: by a mix of the two ranks, the same from both ends), at most `limit` of them; where
  // node_size > 0, only those on this process's node (equal rank / node_size), a relation that is
  // the same from both ends.
  std::vector<int> friends(int threshold, int limit, int node_size) const;

 private:
  void add_to_count(int process, int delta);

  // An out-neighbor's in-neighbors as first received, sorted, and which of them are still active
  // (leaving marks one in O(log d) instead of erasing it in O(d)).
  struct List {
    std::vector<int> members;
    std::vector<bool> active;
  };
  const int* find_active(const List& list, int process) const;

  int self_;
  std::map<int, List> lists_;                // by out-neighbor
  std::vector<std::pair<int, int>> counts_;  // (process, shared out-neighbors), by process
};

}  // namespace cartcoll::detail
