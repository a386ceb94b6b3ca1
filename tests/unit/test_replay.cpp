// SPDX-License-Identifier: BSD-3-Clause
// The timed replay (replay.hpp): hand-built schedules whose times follow from the model by hand,
// and a receive that no send matches.
#include <gtest/gtest.h>

#include <vector>

#include "cartcoll/error.hpp"
#include "core/simulation/replay.hpp"
#include "throws.hpp"

namespace cartcoll {
namespace {

Message to(int peer, int blocks = 1) { return {peer, std::vector<BlockRef>(static_cast<std::size_t>(blocks), {Buffer::send, 0})}; }

// Rank 0 sends to 1 and 2 in phase 0; rank 1 forwards to 2 in phase 1, which starts when 0's message
// is in. Overhead 1, latency 10: 0 pays 1 and 2 (its clock ends at 2); 1's arrives at 11 and 2's first
// at 12; 1 pays its send from 11 to 12, which arrives at 2 at 22.
std::vector<Schedule> forwarding_chain() {
  std::vector<Schedule> schedules(3);
  schedules[0].phases = {Phase{{to(1), to(2)}, {}, {}}};
  schedules[1].phases = {Phase{{}, {to(0)}, {}}, Phase{{to(2, 3)}, {}, {}}};
  schedules[2].phases = {Phase{{}, {to(0)}, {}}, Phase{{}, {to(1)}, {}}};
  return schedules;
}

TEST(Replay, ChargesTheSenderPerMessageAndAPhaseWaitsForItsReceives) {
  EXPECT_EQ(replayed_completion(forwarding_chain(), {1, 10, 0}, 4), (std::vector<double>{2, 12, 22}));
  EXPECT_EQ(replayed_call(forwarding_chain(), {1, 10, 0}, 4), 22) << "the last process's completion";
  EXPECT_EQ(replayed_call({}, {1, 10, 0}, 4), 0);
}

TEST(Replay, BytesTakeTheirTimeOnTheWay) {
  // 1's message carries 3 blocks of 4 bytes: 12 bytes at 0.5 a byte arrive 6 later.
  EXPECT_EQ(replayed_completion(forwarding_chain(), {1, 10, 0.5}, 4), (std::vector<double>{2, 14, 30}));
}

// A sender waits for nothing but its own sends, and a rank with one phase is done after it: 0 pays
// 1 in phase 0 and 2 in phase 2 (phase 1 is empty); 1's message arrives at 11, 2's at 12.
TEST(Replay, ARankWithFewerPhasesIsDoneAfterItsLast) {
  std::vector<Schedule> schedules(3);
  schedules[0].phases = {Phase{{to(1)}, {}, {}}, Phase{}, Phase{{to(2)}, {}, {}}};
  schedules[1].phases = {Phase{{}, {to(0)}, {}}};
  schedules[2].phases = {Phase{}, Phase{}, Phase{{}, {to(0)}, {}}};
  EXPECT_EQ(replayed_completion(schedules, {1, 10, 0}, 4), (std::vector<double>{2, 11, 12}));
}

TEST(Replay, AReceiveThatNoSendMatchesIsRefused) {
  std::vector<Schedule> schedules = forwarding_chain();
  schedules[2].phases[1].recvs.push_back(to(0));
  EXPECT_TRUE(throws_error([&] { replayed_completion(schedules, {1, 10, 0}, 4); }, Errc::intern));
}

}  // namespace
}  // namespace cartcoll
