// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: arbitrary bytes -> a Cartesian neighborhood or a distributed graph, a
// collective, block sizes and node sizes; every planner's schedules for all processes run in the
// simulator and are compared with the reference model. Any mismatch, ScheduleError or other
// exception aborts with the decoded case and the input.
//
// Input format (bytes past the end read as 0): kind = b % 2 (0 Cartesian, 1 graph), then
// Cartesian (fuzz_cartesian.cpp):
//   d = 1 + b % 4; per dimension one byte b: size = 1 + b % 5 (capped so that the grid has at most
//   64 processes), periodic = (b / 5) % 2; t = b % 13; t * d coordinates, each b % 13 - 6;
//   collective = b % 2 (0 alltoall, 1 allgather); block sizes b % 5 bytes: t of them for alltoall
//   (send block i and receive block i), one for allgather; node size b % (p + 1) (0: one node).
// graph (fuzz_graph.cpp):
//   p = 1 + b % 16; e = b % 97 edges, each two bytes a, b: from a % p to b % p, or with a >= 224 a
//   repeat of the edge before; per rank a rotation of its sources, b % (in-degree + 1); absent
//   neighbors: n = b % 4, each three bytes (rank, list: sources or destinations, position);
//   collective = b % 2; block size b % 5 (one for all blocks: planners that forward blocks size them
//   like their own); graph-combining's parameters: threshold 2 + b % 3, phases 2 + b % 3 (3 and 4:
//   cumulative combining), steps b % 17, candidates 1 + b % 8, matching rounds 1 + b % 6; node size
//   b % (p + 1); routing dimensions 1 + b % 3; whether auto's block limit fits, b % 2.
// With FUZZ_PLANNER_PRINT set in the environment every decoded case is printed (to read a corpus or
// a reproducer: fuzz_planner FILE...).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "fuzz_cases.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool print = std::getenv("FUZZ_PLANNER_PRINT") != nullptr;
  const std::span<const std::uint8_t> input(data, size);
  cartcoll::fuzz::Reader in(input);
  if (in.next(2) == 0)
    cartcoll::fuzz::fuzz_cartesian(input, in, print);
  else
    cartcoll::fuzz::fuzz_graph(input, in, print);
  return 0;
}
