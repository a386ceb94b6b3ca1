// SPDX-License-Identifier: BSD-3-Clause
#include "replay.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <utility>

#include "cartcoll/error.hpp"

namespace cartcoll {

namespace {

std::size_t most_phases(std::span<const Schedule> schedules) {
  std::size_t most = 0;
  for (const Schedule& schedule : schedules) most = std::max(most, schedule.phases.size());
  return most;
}

}  // namespace

std::vector<double> replayed_completion(std::span<const Schedule> schedules, const MessageTiming& timing,
                                        double block_bytes) {
  std::vector<double> clock(schedules.size(), 0.0);
  const std::size_t phases = most_phases(schedules);
  for (std::size_t k = 0; k < phases; ++k) {
    std::map<std::pair<int, int>, std::deque<double>> arrivals;  // (sender, receiver): in send order
    for (std::size_t rank = 0; rank < schedules.size(); ++rank) {
      if (k >= schedules[rank].phases.size()) continue;
      for (const Message& send : schedules[rank].phases[k].sends) {
        clock[rank] += timing.overhead;
        const double bytes = static_cast<double>(send.blocks.size()) * block_bytes;
        arrivals[{static_cast<int>(rank), send.peer}].push_back(clock[rank] + timing.latency + bytes * timing.per_byte);
      }
    }
    for (std::size_t rank = 0; rank < schedules.size(); ++rank) {
      if (k >= schedules[rank].phases.size()) continue;
      for (const Message& recv : schedules[rank].phases[k].recvs) {
        auto found = arrivals.find({recv.peer, static_cast<int>(rank)});
        if (found == arrivals.end() || found->second.empty())
          throw Error(Errc::intern, "a replayed receive that no send matches");
        clock[rank] = std::max(clock[rank], found->second.front());
        found->second.pop_front();
      }
    }
  }
  return clock;
}

double replayed_call(std::span<const Schedule> schedules, const MessageTiming& timing, double block_bytes) {
  const std::vector<double> done = replayed_completion(schedules, timing, block_bytes);
  return done.empty() ? 0.0 : *std::max_element(done.begin(), done.end());
}

}  // namespace cartcoll
