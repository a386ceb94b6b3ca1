// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the planner fuzzer's two halves (Cartesian neighborhoods, distributed graphs) share: reading
// the input, block contents that depend on sender, block and byte, and running one algorithm's
// schedules in the simulator against the reference model, with a report on failure.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/simulation/reference.hpp"
#include "core/model/schedule.hpp"

namespace cartcoll::fuzz {

// The input as a stream of bytes; bytes past the end read as 0.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> input) : input_(input) {}
  int next(int modulus) { return (at_ < input_.size() ? input_[at_++] : 0) % modulus; }

 private:
  std::span<const std::uint8_t> input_;
  std::size_t at_ = 0;
};

// `size` bytes of rank `rank`'s block `block`, each a hash of (salt, rank, block, position).
reference::Bytes fill(std::uint32_t salt, int rank, int block, std::size_t size);

// One decoded case: its input, for the report, and its description.
struct Decoded {
  std::span<const std::uint8_t> input;
  std::string description;
};

// Prints what failed, the decoded case and the input (hex) to stderr and aborts, which libFuzzer
// reports as a crash and keeps the input of.
[[noreturn]] void fail(const Decoded& decoded, const std::string& algorithm, const std::string& what);

// Runs the schedules `plan_all` returns (one per rank, each for `collective` with `recv_blocks`
// receive blocks) in the simulator on `send` and `recv` and compares the result with `want`; fails
// on a difference, a ScheduleError or any other exception.
void prove(const Decoded& decoded, const std::string& algorithm, Collective collective, const reference::Blocks& send,
           const reference::Blocks& recv, const reference::Blocks& want,
           const std::function<std::vector<Schedule>()>& plan_all);

}  // namespace cartcoll::fuzz
