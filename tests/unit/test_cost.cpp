// SPDX-License-Identifier: BSD-3-Clause
// The cost model behind `auto`: figures of schedules, predicted times, and the choice they imply.
#include <gtest/gtest.h>

#include "core/planning/cost.hpp"
#include "core/model/neighborhoods.hpp"

namespace cartcoll {
namespace {

Offsets moore(int d) { return Offsets(d, neighborhoods::moore(d, 1)); }

const Algorithm trivial = Algorithm::named("trivial");
const Algorithm combining = Algorithm::named("combining");

// What `auto`'s model chooses for blocks of `bytes` bytes: the library's own choice function.
Algorithm choice(const Offsets& offsets, Collective collective, const CostModel& model, std::size_t bytes) {
  const std::vector<std::size_t> recv(static_cast<std::size_t>(offsets.count()), bytes);
  const std::vector<std::size_t> send(collective == Collective::allgather ? 1 : recv.size(), bytes);
  return cheapest(
      auto_candidates(collective, NeighborhoodKind::cartesian),
      [&](Algorithm candidate) { return neighborhood_figures(candidate, offsets, collective); },
      model, send, recv);
}

// A graph schedule's load is judged between two bounds of its slowest path: the busiest process's
// own work (a latency per phase anybody sends in, its messages) and phases in lockstep (per phase, a
// latency and its busiest sender). On ER p = 64, δ = 0.4 (1 us a phase, 0.5 us a message, the
// simulation's figures) budget 2 has phases of at most 16 and 15 messages and 22 at most in all,
// budget 4 9, 7, 8, 8 and 16: midpoints 15.25 and 16 us, the order the simulation found (15.5 and
// 17.5 us), which the busiest process alone (13 against 12 us) inverts. Figures list every phase.
TEST(Cost, GraphLoadsLieBetweenOwnWorkAndLockstep) {
  const CostModel model{1e-6, 0.5e-6, 1e-9};
  const GraphLoad pairs{{16, 15}, 22, 40}, pairs_of_pairs{{9, 7, 8, 8}, 16, 50};
  EXPECT_NEAR(predicted_seconds(pairs, model, 0), (13e-6 + 17.5e-6) / 2, 1e-12);
  EXPECT_NEAR(predicted_seconds(pairs_of_pairs, model, 0), (12e-6 + 20e-6) / 2, 1e-12);
  const GraphLoad with_an_empty_phase{{16, 0, 15}, 22, 40};
  EXPECT_DOUBLE_EQ(predicted_seconds(with_an_empty_phase, model, 0), predicted_seconds(pairs, model, 0));
  EXPECT_NEAR(predicted_seconds(pairs, model, 8), predicted_seconds(pairs, model, 0) + 40 * 8 * 1e-9, 1e-15);
  const GraphLoad direct{{33}, 33, 33};
  EXPECT_NEAR(predicted_seconds(direct, model, 0), 1e-6 + 33 * 0.5e-6, 1e-12);
  EXPECT_EQ(neighborhood_figures(trivial, moore(3), Collective::alltoall).messages_per_phase, std::vector<int>{26});
}

TEST(Cost, FiguresOfTheMooreNeighborhood) {
  const Offsets offsets = moore(3);
  const Figures direct = neighborhood_figures(trivial, offsets, Collective::alltoall);
  EXPECT_EQ(direct.phases, 1);
  EXPECT_EQ(direct.messages, 26);
  const Figures combined = neighborhood_figures(combining, offsets, Collective::alltoall);
  EXPECT_EQ(combined.phases, 3);
  EXPECT_EQ(combined.messages, 6);
  int volume = 0;
  for (int sends : combined.sends_of_send_block) volume += sends;
  for (int sends : combined.sends_of_recv_block) volume += sends;  // forwarded from temp or receive blocks
  EXPECT_EQ(volume, 54);  // Träff and Hunold's Cartesian Collective Communication, Table 1, d = 3, n = 3
  // Each block leaves the send buffer once; its later moves start from temp or receive blocks.
  for (int sends : combined.sends_of_send_block) EXPECT_EQ(sends, 1);
}

TEST(Cost, MessageBoundCallsCombineAndBandwidthBoundCallsDoNot) {
  const CostModel network{5e-6, 3e-6, 1e-9};  // per-message costs dominate small blocks
  const Offsets offsets = moore(3);
  EXPECT_EQ(choice(offsets, Collective::alltoall, network, 4), combining);
  EXPECT_EQ(choice(offsets, Collective::alltoall, network, 1 << 20), trivial);
  // Allgather volume equals t (Träff and Hunold, section 3.2): combining never sends more, so it
  // always wins.
  EXPECT_EQ(choice(offsets, Collective::allgather, network, 1 << 20), combining);
}

// With only a per-message cost o and a per-byte cost b, the model is Träff and Hunold's (o playing
// the role of its per-round latency): combining wins exactly while m < o/b (t - C)/(V - t).
TEST(Cost, AgreesWithThePapersCutOff) {
  const Offsets offsets = moore(2);  // t = 8, C = 4, V = 12: cut-off ratio (8 - 4) / (12 - 8) = 1
  const CostModel model{0, 1e-6, 1e-9};  // o / b = 1000 bytes
  EXPECT_EQ(choice(offsets, Collective::alltoall, model, 900), combining);
  EXPECT_EQ(choice(offsets, Collective::alltoall, model, 1100), trivial);
}

}  // namespace
}  // namespace cartcoll
