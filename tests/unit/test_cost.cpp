// The cost model behind `auto`: figures of schedules, predicted times, and the choice they imply.
#include <gtest/gtest.h>

#include "cartcoll/cost.hpp"

namespace cartcoll {
namespace {

Offsets moore(int d) {
  std::vector<int> flat;
  int total = 1;
  for (int k = 0; k < d; ++k) total *= 3;
  for (int index = 0; index < total; ++index) {
    std::vector<int> offset;
    bool zero = true;
    for (int k = 0, rest = index; k < d; ++k, rest /= 3) {
      offset.push_back(rest % 3 - 1);
      zero = zero && offset.back() == 0;
    }
    if (!zero) flat.insert(flat.end(), offset.begin(), offset.end());
  }
  return Offsets(d, flat);
}

Algorithm cheapest(const Offsets& offsets, Collective collective, const CostModel& model, std::size_t bytes) {
  const std::vector<std::size_t> sizes(static_cast<std::size_t>(offsets.count()), bytes);
  Algorithm best = Algorithm::trivial;
  double best_seconds = 1e300;
  for (Algorithm candidate : candidate_algorithms) {
    const double seconds = predicted_seconds(neighborhood_figures(candidate, offsets, collective), model, sizes, collective);
    if (seconds < best_seconds) {
      best = candidate;
      best_seconds = seconds;
    }
  }
  return best;
}

TEST(Cost, FiguresOfTheMooreNeighborhood) {
  const Offsets offsets = moore(3);
  const Figures trivial = neighborhood_figures(Algorithm::trivial, offsets, Collective::alltoall);
  EXPECT_EQ(trivial.phases, 1);
  EXPECT_EQ(trivial.messages, 26);
  const Figures combining = neighborhood_figures(Algorithm::combining, offsets, Collective::alltoall);
  EXPECT_EQ(combining.phases, 3);
  EXPECT_EQ(combining.messages, 6);
  int volume = 0;
  for (int sends : combining.sends_per_block) volume += sends;
  EXPECT_EQ(volume, 54);  // 000 Table 1, d = 3, n = 3
}

TEST(Cost, MessageBoundCallsCombineAndBandwidthBoundCallsDoNot) {
  const CostModel network{5e-6, 3e-6, 1e-9};  // per-message costs dominate small blocks
  const Offsets offsets = moore(3);
  EXPECT_EQ(cheapest(offsets, Collective::alltoall, network, 4), Algorithm::combining);
  EXPECT_EQ(cheapest(offsets, Collective::alltoall, network, 1 << 20), Algorithm::trivial);
  // Allgather volume equals t (000 section 3.2): combining never sends more, so it always wins.
  EXPECT_EQ(cheapest(offsets, Collective::allgather, network, 1 << 20), Algorithm::combining);
}

// With only a per-message cost o and a per-byte cost b, the model is 000's (o playing the role of
// its per-round latency): combining wins exactly while m < o/b (t - C)/(V - t).
TEST(Cost, AgreesWithThePapersCutOff) {
  const Offsets offsets = moore(2);  // t = 8, C = 4, V = 12: cut-off ratio (8 - 4) / (12 - 8) = 1
  const CostModel model{0, 1e-6, 1e-9};  // o / b = 1000 bytes
  EXPECT_EQ(cheapest(offsets, Collective::alltoall, model, 900), Algorithm::combining);
  EXPECT_EQ(cheapest(offsets, Collective::alltoall, model, 1100), Algorithm::trivial);
}

}  // namespace
}  // namespace cartcoll
