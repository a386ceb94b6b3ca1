// SPDX-License-Identifier: BSD-3-Clause
#include "fuzz_support.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>

#include "core/simulation/simulator.hpp"

namespace cartcoll::fuzz {

namespace {

std::byte content(std::uint32_t salt, int rank, int block, std::size_t j) {
  std::uint32_t x = salt ^ (static_cast<std::uint32_t>(rank) * 0x9E3779B1u) ^ (static_cast<std::uint32_t>(block) << 8) ^
                    static_cast<std::uint32_t>(j);
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  return static_cast<std::byte>(x & 0xFFu);
}

// The first difference between the simulated and the reference receive blocks, if any.
std::optional<std::string> difference(const reference::Blocks& got, const reference::Blocks& want) {
  if (got.size() != want.size()) return "different process counts";
  for (std::size_t r = 0; r < got.size(); ++r) {
    if (got[r].size() != want[r].size()) return "rank " + std::to_string(r) + ": different block counts";
    for (std::size_t i = 0; i < got[r].size(); ++i)
      if (got[r][i] != want[r][i]) return "rank " + std::to_string(r) + ", receive block " + std::to_string(i) + " differs";
  }
  return std::nullopt;
}

}  // namespace

reference::Bytes fill(std::uint32_t salt, int rank, int block, std::size_t size) {
  reference::Bytes bytes(size);
  for (std::size_t j = 0; j < size; ++j) bytes[j] = content(salt, rank, block, j);
  return bytes;
}

void fail(const Decoded& decoded, const std::string& algorithm, const std::string& what) {
  std::fprintf(stderr, "\nfuzz_planner: %s\n  algorithm %s\n  case: %s\n  input (%zu bytes):", what.c_str(),
               algorithm.c_str(), decoded.description.c_str(), decoded.input.size());
  for (const std::uint8_t byte : decoded.input) std::fprintf(stderr, " %02x", byte);
  std::fprintf(stderr, "\n");
  std::abort();
}

void prove(const Decoded& decoded, const std::string& algorithm, Collective collective, const reference::Blocks& send,
           const reference::Blocks& recv, const reference::Blocks& want,
           const std::function<std::vector<Schedule>()>& plan_all) {
  try {
    const std::vector<Schedule> schedules = plan_all();
    for (std::size_t r = 0; r < schedules.size(); ++r)
      if (schedules[r].collective != collective || schedules[r].recv_blocks != static_cast<int>(recv[r].size()))
        fail(decoded, algorithm, "rank " + std::to_string(r) + ": schedule for another collective or block count");
    const reference::Blocks got = simulate(schedules, send, recv);
    if (const auto diff = difference(got, want)) fail(decoded, algorithm, "simulation differs from the reference: " + *diff);
  } catch (const ScheduleError& error) {
    fail(decoded, algorithm, std::string("ScheduleError: ") + error.what());
  } catch (const std::exception& error) {
    fail(decoded, algorithm, std::string("exception: ") + error.what());
  }
}

}  // namespace cartcoll::fuzz
