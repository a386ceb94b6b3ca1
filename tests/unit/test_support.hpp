// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Helpers shared by the unit tests: block contents that depend on (rank, block, byte), neighborhoods,
// random cases, and a harness that proves a planner's schedules with the simulator.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../describe.hpp"
#include "cartcoll/error.hpp"
#include "core/planning/plan.hpp"
#include "core/simulation/reference.hpp"
#include "core/model/schedule.hpp"
#include "core/simulation/simulator.hpp"
#include "cartcoll/topology.hpp"
#include "core/model/neighborhoods.hpp"

namespace cartcoll::test {

using reference::Blocks;
using reference::Bytes;

// splitmix64's finalizer: a bijection, so distinct inputs give (nearly) independent bytes.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline std::uint64_t key(int rank, int block, std::size_t byte, std::uint64_t salt) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(rank)) << 32) ^
         (static_cast<std::uint64_t>(static_cast<std::uint32_t>(block)) << 12) ^
         static_cast<std::uint64_t>(byte) ^ salt;
}

// Byte j of block `block` sent by `sender`.
inline std::byte payload_byte(int sender, int block, std::size_t j) {
  return static_cast<std::byte>(mix64(key(sender, block, j, 0x5E4D000000000000ull)) & 0xFFu);
}
// Byte j of receive block `block` of `receiver` before the collective.
inline std::byte sentinel_byte(int receiver, int block, std::size_t j) {
  return static_cast<std::byte>(mix64(key(receiver, block, j, 0xA5E7000000000000ull)) & 0xFFu);
}

inline Bytes payload(int sender, int block, std::size_t size) {
  Bytes bytes(size);
  for (std::size_t j = 0; j < size; ++j) bytes[j] = payload_byte(sender, block, j);
  return bytes;
}
inline Bytes sentinel(int receiver, int block, std::size_t size) {
  Bytes bytes(size);
  for (std::size_t j = 0; j < size; ++j) bytes[j] = sentinel_byte(receiver, block, j);
  return bytes;
}

// Block sizes of one case. alltoall: send block i and receive block i have recv_sizes[i] bytes.
// allgather: the one send block and every receive block have send_size bytes.
struct Sizes {
  std::vector<std::size_t> recv_sizes;
  std::size_t send_size = 0;
};

// Block i has 1 + (i mod 3) bytes (alltoall); allgather uses 3 bytes.
inline Sizes varied_sizes(Collective collective, int t) {
  Sizes sizes;
  for (int i = 0; i < t; ++i)
    sizes.recv_sizes.push_back(collective == Collective::allgather ? 3u : 1u + static_cast<std::size_t>(i % 3));
  sizes.send_size = 3;
  return sizes;
}

inline Blocks make_send(int p, Collective collective, const Sizes& sizes) {
  Blocks send(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    auto& blocks = send[static_cast<std::size_t>(r)];
    if (collective == Collective::allgather) {
      blocks.push_back(payload(r, 0, sizes.send_size));
    } else {
      for (std::size_t i = 0; i < sizes.recv_sizes.size(); ++i)
        blocks.push_back(payload(r, static_cast<int>(i), sizes.recv_sizes[i]));
    }
  }
  return send;
}

inline Blocks make_recv(int p, const Sizes& sizes) {
  Blocks recv(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (std::size_t i = 0; i < sizes.recv_sizes.size(); ++i)
      recv[static_cast<std::size_t>(r)].push_back(sentinel(r, static_cast<int>(i), sizes.recv_sizes[i]));
  return recv;
}

inline std::string show(const Bytes& bytes) {
  std::ostringstream out;
  out << "[";
  for (std::size_t j = 0; j < bytes.size(); ++j) out << (j ? " " : "") << std::to_integer<int>(bytes[j]);
  out << "]";
  return out.str();
}

// Equality of two result sets, naming the first differing (rank, block).
inline ::testing::AssertionResult same_blocks(const Blocks& actual, const Blocks& expected) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << "rank count " << actual.size() << " != " << expected.size();
  for (std::size_t r = 0; r < actual.size(); ++r) {
    if (actual[r].size() != expected[r].size())
      return ::testing::AssertionFailure() << "rank " << r << ": block count " << actual[r].size()
                                           << " != " << expected[r].size();
    for (std::size_t i = 0; i < actual[r].size(); ++i)
      if (actual[r][i] != expected[r][i])
        return ::testing::AssertionFailure() << "rank " << r << ", block " << i << ": got " << show(actual[r][i])
                                             << ", expected " << show(expected[r][i]);
  }
  return ::testing::AssertionSuccess();
}

// Bytes with the given values, for hand-written cases.
inline Bytes bytes(std::initializer_list<int> values) {
  Bytes out;
  for (int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

// Runs the schedules in the simulator and compares the result with `expected`.
// Takes Message::carries_sizes off every message of `schedules`; whether any had it.
inline bool drop_carried_sizes(std::vector<Schedule>& schedules) {
  bool dropped = false;
  for (Schedule& schedule : schedules)
    for (Phase& phase : schedule.phases)
      for (auto* messages : {&phase.sends, &phase.recvs})
        for (Message& message : *messages) dropped = std::exchange(message.carries_sizes, false) || dropped;
  return dropped;
}

inline ::testing::AssertionResult simulates_to(std::span<const Schedule> schedules, const Blocks& send,
                                               const Blocks& recv, const Blocks& expected,
                                               const reference::ReduceOp& op = {}) {
  Blocks actual;
  try {
    actual = simulate(schedules, send, recv, op);
  } catch (const ScheduleError& e) {
    return ::testing::AssertionFailure() << "simulator rejects the schedules: " << e.what();
  }
  if (auto ok = same_blocks(actual, expected); !ok) return ::testing::AssertionFailure() << "simulator: " << ok.message();
  return ::testing::AssertionSuccess();
}

// The definition from the receiver's side (block i of R comes from R - offset i), independent of the
// reference model's sender-side loop: checks the oracle itself on every case the simulator runs.
inline ::testing::AssertionResult matches_definition(const Grid& grid, const Offsets& offsets,
                                                     Collective collective, const Sizes& sizes,
                                                     const Blocks& result) {
  for (int r = 0; r < grid.size(); ++r) {
    const std::vector<int> coords = grid.coords_of(r);
    for (int i = 0; i < offsets.count(); ++i) {
      const std::size_t size = sizes.recv_sizes[static_cast<std::size_t>(i)];
      const std::optional<int> source = grid.shift(coords, offsets[i], -1);
      const Bytes want = source ? payload(*source, collective == Collective::allgather ? 0 : i, size)
                                : sentinel(r, i, size);
      const Bytes& got = result.at(static_cast<std::size_t>(r)).at(static_cast<std::size_t>(i));
      if (got != want)
        return ::testing::AssertionFailure()
               << "rank " << r << ", block " << i << " (source "
               << (source ? std::to_string(*source) : std::string("none")) << "): got " << show(got)
               << ", expected " << show(want);
    }
  }
  return ::testing::AssertionSuccess();
}

// A planner, found by name in the registry, as a function of (grid, offsets, collective, coords).
using Planner = Schedule (*)(const Grid&, const Offsets&, Collective, std::span<const int>);

inline Schedule plan_named(std::string_view name, const Grid& grid, const Offsets& offsets, Collective collective,
                           std::span<const int> coords) {
  return plan(Algorithm::named(name), {grid, offsets, coords}, collective);
}
inline Schedule plan_trivial(const Grid& grid, const Offsets& offsets, Collective collective,
                             std::span<const int> coords) {
  return plan_named("trivial", grid, offsets, collective, coords);
}
inline Schedule plan_combining(const Grid& grid, const Offsets& offsets, Collective collective,
                               std::span<const int> coords) {
  return plan_named("combining", grid, offsets, collective, coords);
}
inline Schedule plan_torus(const Grid& grid, const Offsets& offsets, Collective collective,
                           std::span<const int> coords) {
  return plan_named("torus", grid, offsets, collective, coords);
}

inline std::vector<Schedule> plan_all(Planner planner, const Grid& grid, const Offsets& offsets,
                                      Collective collective) {
  std::vector<Schedule> schedules;
  schedules.reserve(static_cast<std::size_t>(grid.size()));
  for (int r = 0; r < grid.size(); ++r) {
    const std::vector<int> coords = grid.coords_of(r);
    schedules.push_back(planner(grid, offsets, collective, coords));
  }
  return schedules;
}

// Plans every rank, runs the schedules in the simulator, and compares with the reference model, which
// is in turn compared with the receiver-side definition.
inline ::testing::AssertionResult proves(Planner planner, const Grid& grid, const Offsets& offsets,
                                         Collective collective, const Sizes& sizes) {
  const int p = grid.size();
  const std::vector<Schedule> schedules = plan_all(planner, grid, offsets, collective);
  for (int r = 0; r < p; ++r) {
    const Schedule& s = schedules[static_cast<std::size_t>(r)];
    const int sends = collective == Collective::allgather ? 1 : offsets.count();
    if (s.collective != collective || s.recv_blocks != offsets.count() || s.send_blocks != sends)
      return ::testing::AssertionFailure() << "rank " << r << ": schedule header does not match";
  }
  const Blocks send = make_send(p, collective, sizes);
  const Blocks recv = make_recv(p, sizes);
  const Blocks expected = reference::exchange(grid, offsets, collective, send, recv);
  if (auto ok = matches_definition(grid, offsets, collective, sizes, expected); !ok)
    return ::testing::AssertionFailure() << "reference model: " << ok.message();
  return simulates_to(schedules, send, recv, expected);
}

// All vectors of {f, ..., f+n-1}^d except zero, in lexicographic order (the paper's Table 1).
inline Offsets box_neighborhood(int d, int n, int f = -1) { return Offsets(d, neighborhoods::box(d, n, f, false)); }

enum class GridKind { periodic, nonperiodic, mixed, tiny };

inline const char* kind_name(GridKind kind) {
  switch (kind) {
    case GridKind::periodic: return "periodic";
    case GridKind::nonperiodic: return "nonperiodic";
    case GridKind::mixed: return "mixed";
    case GridKind::tiny: return "tiny";
  }
  return "?";
}

struct RandomCase {
  Grid grid;
  Offsets offsets;
  Sizes sizes;
  int zero_offsets = 0;
  int repeated_offsets = 0;
};

// A seeded random grid of 1-5 dimensions (at most max_procs processes) and a random neighborhood of
// 0-14 offsets with coordinates in [-4, 4], including zero and repeated offsets; block sizes 0-5 bytes.
inline RandomCase random_case(std::mt19937& rng, GridKind kind, Collective collective, int max_procs = 144) {
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int d = uniform(1, 5);
  std::vector<int> dims(static_cast<std::size_t>(d));
  std::vector<bool> periods(static_cast<std::size_t>(d));
  long long size = 1;
  for (int k = 0; k < d; ++k) {
    int extent = kind == GridKind::tiny ? uniform(1, 2) : uniform(1, 6);
    while (size * extent > max_procs) --extent;
    dims[static_cast<std::size_t>(k)] = extent;
    size *= extent;
    switch (kind) {
      case GridKind::periodic: periods[static_cast<std::size_t>(k)] = true; break;
      case GridKind::nonperiodic: periods[static_cast<std::size_t>(k)] = false; break;
      case GridKind::mixed:
      case GridKind::tiny: periods[static_cast<std::size_t>(k)] = uniform(0, 1) == 1; break;
    }
  }
  const int t = uniform(0, 14);
  std::vector<std::vector<int>> list;
  int zeros = 0, repeats = 0;
  for (int i = 0; i < t; ++i) {
    const int kind_of_offset = uniform(0, 5);
    if (kind_of_offset == 0) {
      list.emplace_back(static_cast<std::size_t>(d), 0);
      ++zeros;
    } else if (kind_of_offset == 1 && !list.empty()) {
      list.push_back(list[static_cast<std::size_t>(uniform(0, static_cast<int>(list.size()) - 1))]);
      ++repeats;
    } else {
      std::vector<int> offset(static_cast<std::size_t>(d));
      for (int& c : offset) c = uniform(-4, 4);
      list.push_back(std::move(offset));
    }
  }
  Sizes sizes;
  sizes.send_size = static_cast<std::size_t>(uniform(0, 5));
  for (int i = 0; i < t; ++i)
    sizes.recv_sizes.push_back(collective == Collective::allgather ? sizes.send_size
                                                                   : static_cast<std::size_t>(uniform(0, 5)));
  return {Grid(dims, periods), Offsets::from_list(d, list), sizes, zeros, repeats};
}

// `check(kind, collective, seed, case)` for `seeds` random cases of every grid kind and collective,
// stopping at the first fatal failure; case (kind, collective, seed) drawn from the seed first_seed + 100 kind + 10000 collective + seed.
template <typename Check>
void for_each_random_case(unsigned first_seed, int seeds, int max_procs, Check check) {
  for (const GridKind kind : {GridKind::periodic, GridKind::nonperiodic, GridKind::mixed, GridKind::tiny})
    for (const Collective collective : {Collective::alltoall, Collective::allgather})
      for (int seed = 0; seed < seeds; ++seed) {
        std::mt19937 rng(first_seed + 100 * static_cast<unsigned>(kind) + 10000 * static_cast<unsigned>(collective) +
                         static_cast<unsigned>(seed));
        check(kind, collective, seed, random_case(rng, kind, collective, max_procs));
        if (::testing::Test::HasFatalFailure()) return;  // an ASSERT in `check` ends the cases
      }
}

}  // namespace cartcoll::test
