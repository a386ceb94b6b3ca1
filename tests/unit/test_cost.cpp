// The cost model behind `auto`: figures of schedules, predicted times, and the choice they imply.
#include <gtest/gtest.h>

#include "cartcoll/cost.hpp"
#include "util/neighborhoods.hpp"

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
  EXPECT_EQ(volume, 54);  // 000 Table 1, d = 3, n = 3
  // Each block leaves the send buffer once; its later moves start from temp or receive blocks.
  for (int sends : combined.sends_of_send_block) EXPECT_EQ(sends, 1);
}

TEST(Cost, MessageBoundCallsCombineAndBandwidthBoundCallsDoNot) {
  const CostModel network{5e-6, 3e-6, 1e-9};  // per-message costs dominate small blocks
  const Offsets offsets = moore(3);
  EXPECT_EQ(choice(offsets, Collective::alltoall, network, 4), combining);
  EXPECT_EQ(choice(offsets, Collective::alltoall, network, 1 << 20), trivial);
  // Allgather volume equals t (000 section 3.2): combining never sends more, so it always wins.
  EXPECT_EQ(choice(offsets, Collective::allgather, network, 1 << 20), combining);
}

// With only a per-message cost o and a per-byte cost b, the model is 000's (o playing the role of
// its per-round latency): combining wins exactly while m < o/b (t - C)/(V - t).
TEST(Cost, AgreesWithThePapersCutOff) {
  const Offsets offsets = moore(2);  // t = 8, C = 4, V = 12: cut-off ratio (8 - 4) / (12 - 8) = 1
  const CostModel model{0, 1e-6, 1e-9};  // o / b = 1000 bytes
  EXPECT_EQ(choice(offsets, Collective::alltoall, model, 900), combining);
  EXPECT_EQ(choice(offsets, Collective::alltoall, model, 1100), trivial);
}

}  // namespace
}  // namespace cartcoll
