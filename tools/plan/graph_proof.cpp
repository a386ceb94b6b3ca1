// SPDX-License-Identifier: BSD-3-Clause
#include "graph_proof.hpp"

#include "core/simulation/reference.hpp"
#include "core/simulation/simulator.hpp"

namespace cartcoll::plan_tool {

namespace {

// One int, as in the figures of Mirsadeghi et al.'s Exploiting Common Neighborhoods.
constexpr std::size_t block_bytes = 4;

std::byte content(int rank, std::size_t block, std::size_t j, std::uint64_t salt) {
  std::uint64_t x = salt ^ (static_cast<std::uint64_t>(rank) << 40) ^ (block << 8) ^ j;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return static_cast<std::byte>((x ^ (x >> 31)) & 0xff);
}

reference::Bytes block_of(int rank, std::size_t block, std::uint64_t salt) {
  reference::Bytes bytes(block_bytes);
  for (std::size_t j = 0; j < block_bytes; ++j) bytes[j] = content(rank, block, j, salt);
  return bytes;
}

}  // namespace

long long wrong_bytes(const Graph& graph, Collective collective, std::span<const Schedule> schedules) {
  reference::Blocks send(static_cast<std::size_t>(graph.size())), recv(send.size());
  for (int rank = 0; rank < graph.size(); ++rank) {
    const auto r = static_cast<std::size_t>(rank);
    const std::size_t blocks = collective == Collective::allgather ? 1 : graph.destinations(rank).size();
    for (std::size_t j = 0; j < blocks; ++j) send[r].push_back(block_of(rank, j, 0x5e4d));
    for (std::size_t i = 0; i < graph.sources(rank).size(); ++i) recv[r].push_back(block_of(rank, i, 0x4ec5));
  }
  const reference::Blocks expected = reference::exchange(graph, collective, send, recv);
  const reference::Blocks actual = simulate(schedules, send, std::move(recv));
  long long wrong = 0;
  for (std::size_t r = 0; r < expected.size(); ++r)
    for (std::size_t i = 0; i < expected[r].size(); ++i)
      for (std::size_t j = 0; j < expected[r][i].size(); ++j)
        wrong += j >= actual[r][i].size() || actual[r][i][j] != expected[r][i][j] ? 1 : 0;
  return wrong;
}

}  // namespace cartcoll::plan_tool
