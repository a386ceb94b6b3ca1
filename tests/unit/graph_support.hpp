// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Block sizes and contents for random distributed graphs (../graph_cases.hpp) in the unit tests,
// and the receiver-side definition the reference model is checked against.
#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "../graph_cases.hpp"
#include "core/model/graph.hpp"
#include "test_support.hpp"

namespace cartcoll::test {

// The size of the message on the k-th edge from `from` to `to`: depends on all three, 0 to 6 bytes.
inline std::size_t edge_size(int from, int to, int k) {
  return static_cast<std::size_t>(mix64(key(from, to, static_cast<std::size_t>(k), 0xED6E000000000000ull)) % 7u);
}
// allgather: one block per sender.
inline std::size_t sender_size(int from) { return static_cast<std::size_t>(mix64(static_cast<std::uint64_t>(from)) % 7u); }

// For each process, per block, the occurrence number k of that block's neighbor among the list so far.
inline std::vector<int> occurrences(const std::vector<int>& neighbors) {
  std::map<int, int> seen;
  std::vector<int> k;
  for (int neighbor : neighbors) k.push_back(seen[neighbor]++);
  return k;
}

// Blocks sized by edge_size (alltoall) or sender_size (allgather); payloads depend on (sender, block).
inline std::pair<Blocks, Blocks> graph_blocks(const Graph& graph, Collective collective) {
  Blocks send(static_cast<std::size_t>(graph.size())), recv(send.size());
  for (int rank = 0; rank < graph.size(); ++rank) {
    const std::vector<int>& destinations = graph.destinations(rank);
    const std::vector<int> out_k = occurrences(destinations);
    if (collective == Collective::allgather)
      send[static_cast<std::size_t>(rank)].push_back(payload(rank, 0, sender_size(rank)));
    else
      for (std::size_t j = 0; j < destinations.size(); ++j)
        send[static_cast<std::size_t>(rank)].push_back(
            payload(rank, static_cast<int>(j), edge_size(rank, destinations[j], out_k[j])));
    const std::vector<int>& sources = graph.sources(rank);
    const std::vector<int> in_k = occurrences(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const int from = sources[i];
      const std::size_t size = from == no_process ? 3
                               : collective == Collective::allgather ? sender_size(from)
                                                                     : edge_size(from, rank, in_k[i]);
      recv[static_cast<std::size_t>(rank)].push_back(sentinel(rank, static_cast<int>(i), size));
    }
  }
  return {send, recv};
}

// Blocks of one size (a regular alltoall or allgather, as planners that forward blocks through other
// processes need: those size them by their own), with contents that depend on sender and block.
inline std::pair<Blocks, Blocks> uniform_blocks(const Graph& graph, Collective collective, std::size_t size) {
  Blocks send(static_cast<std::size_t>(graph.size())), recv(send.size());
  for (int rank = 0; rank < graph.size(); ++rank) {
    const auto blocks = collective == Collective::allgather ? 1 : graph.destinations(rank).size();
    for (std::size_t j = 0; j < blocks; ++j) send[static_cast<std::size_t>(rank)].push_back(payload(rank, static_cast<int>(j), size));
    for (std::size_t i = 0; i < graph.sources(rank).size(); ++i)
      recv[static_cast<std::size_t>(rank)].push_back(sentinel(rank, static_cast<int>(i), size));
  }
  return {send, recv};
}

// The definition from the receiver's side, independent of the reference model's sender-side loop:
// receive block i of Q, the k-th occurrence of P among Q's sources, holds the block P sends on the
// k-th occurrence of Q among its destinations.
inline ::testing::AssertionResult matches_graph_definition(const Graph& graph, Collective collective,
                                                           const Blocks& recv_before, const Blocks& result) {
  for (int q = 0; q < graph.size(); ++q) {
    const std::vector<int>& sources = graph.sources(q);
    const std::vector<int> in_k = occurrences(sources);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const int p = sources[i];
      Bytes want = recv_before[static_cast<std::size_t>(q)][i];
      if (p != no_process) {
        const std::vector<int>& destinations = graph.destinations(p);
        int seen = 0;
        for (std::size_t j = 0; j < destinations.size(); ++j)
          if (destinations[j] == q && seen++ == in_k[i]) {
            const int block = collective == Collective::allgather ? 0 : static_cast<int>(j);
            want = payload(p, block, want.size());
          }
      }
      if (result[static_cast<std::size_t>(q)][i] != want)
        return ::testing::AssertionFailure() << "rank " << q << ", block " << i << " (source " << p << "): got "
                                             << show(result[static_cast<std::size_t>(q)][i]) << ", expected "
                                             << show(want);
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace cartcoll::test
