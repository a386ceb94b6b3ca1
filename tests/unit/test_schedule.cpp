// Figures of merit (messages, volume, communication phases, copies) of the trivial plan, the schedule
// accessors on hand-built schedules, and the algorithm names.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.hpp"

namespace cartcoll {
namespace {

// Rounds as comparable tuples: (send peer, send blocks, recv peer, recv blocks).
using RoundKey = std::tuple<int, std::vector<std::pair<int, int>>, int, std::vector<std::pair<int, int>>>;

std::vector<std::pair<int, int>> refs(const std::vector<BlockRef>& blocks) {
  std::vector<std::pair<int, int>> out;
  for (const BlockRef& ref : blocks) out.emplace_back(static_cast<int>(ref.buffer), ref.block);
  return out;
}

std::vector<RoundKey> rounds_of(const Phase& phase) {
  std::vector<RoundKey> keys;
  for (const Round& round : phase.rounds)
    keys.emplace_back(round.send.peer, refs(round.send.blocks), round.recv.peer, refs(round.recv.blocks));
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Copies as a sorted list of ((from buffer, block), (to buffer, block)): their order carries no meaning.
using CopyKey = std::pair<std::pair<int, int>, std::pair<int, int>>;
std::vector<CopyKey> copies_of(const std::vector<Copy>& copies) {
  std::vector<CopyKey> keys;
  for (const Copy& copy : copies)
    keys.push_back({{static_cast<int>(copy.from.buffer), copy.from.block}, {static_cast<int>(copy.to.buffer), copy.to.block}});
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::pair<int, int> S(int block) { return {static_cast<int>(Buffer::send), block}; }
std::pair<int, int> R(int block) { return {static_cast<int>(Buffer::recv), block}; }

TEST(TrivialMetrics, RingHandChecked) {
  // Ring of 4, rank 0; offsets +1, 0, +4 (= 0), -1, +1.
  const Grid grid({4}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}, {0}, {4}, {-1}, {1}});
  const Schedule s = plan_trivial(grid, offsets, Collective::alltoall, std::vector<int>{0});
  EXPECT_EQ(s.collective, Collective::alltoall);
  EXPECT_EQ(s.block_count, 5);
  ASSERT_EQ(s.phases.size(), 1u);
  EXPECT_EQ(s.messages(), 3);
  EXPECT_EQ(s.volume(), 3);
  EXPECT_EQ(s.communication_phases(), 1);
  EXPECT_FALSE(s.uses_temp());
  std::vector<RoundKey> expected{
      {1, {S(0)}, 3, {R(0)}},
      {3, {S(3)}, 1, {R(3)}},
      {1, {S(4)}, 3, {R(4)}},
  };
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rounds_of(s.phases[0]), expected);
  EXPECT_EQ(copies_of(s.phases[0].copies), (std::vector<CopyKey>{{S(1), R(1)}, {S(2), R(2)}}));

  // allgather: every message and copy reads send block 0.
  const Schedule g = plan_trivial(grid, offsets, Collective::allgather, std::vector<int>{0});
  EXPECT_EQ(g.collective, Collective::allgather);
  EXPECT_EQ(g.messages(), 3);
  EXPECT_EQ(g.volume(), 3);
  expected = {{1, {S(0)}, 3, {R(0)}}, {3, {S(0)}, 1, {R(3)}}, {1, {S(0)}, 3, {R(4)}}};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(rounds_of(g.phases.at(0)), expected);
  EXPECT_EQ(copies_of(g.phases[0].copies), (std::vector<CopyKey>{{S(0), R(1)}, {S(0), R(2)}}));
}

TEST(TrivialMetrics, LineHandChecked) {
  const Grid line({3}, {false});
  const Offsets plus = Offsets::from_list(1, {{1}});
  // Rank 0 sends to 1 and receives from nobody; rank 2 only receives.
  const Schedule first = plan_trivial(line, plus, Collective::alltoall, std::vector<int>{0});
  EXPECT_EQ(first.messages(), 1);
  EXPECT_EQ(first.communication_phases(), 1);
  EXPECT_EQ(rounds_of(first.phases.at(0)), (std::vector<RoundKey>{{1, {S(0)}, no_peer, {}}}));
  const Schedule last = plan_trivial(line, plus, Collective::alltoall, std::vector<int>{2});
  EXPECT_EQ(last.messages(), 0);
  EXPECT_EQ(last.volume(), 0);
  EXPECT_EQ(last.communication_phases(), 1);  // it still receives
  EXPECT_EQ(rounds_of(last.phases.at(0)), (std::vector<RoundKey>{{no_peer, {}, 1, {R(0)}}}));

  // Offsets +1, -1, +3 at rank 0 of the line of 3: +3 leaves the mesh both ways.
  const Offsets both = Offsets::from_list(1, {{1}, {-1}, {3}});
  const Schedule edge = plan_trivial(line, both, Collective::alltoall, std::vector<int>{0});
  EXPECT_EQ(edge.messages(), 1);
  EXPECT_EQ(edge.volume(), 1);
  EXPECT_EQ(edge.communication_phases(), 1);
  EXPECT_TRUE(edge.phases.at(0).copies.empty());

  // A single process on a mesh: no neighbor at all.
  const Schedule alone = plan_trivial(Grid({1}, {false}), plus, Collective::alltoall, std::vector<int>{0});
  EXPECT_EQ(alone.messages(), 0);
  EXPECT_EQ(alone.communication_phases(), 0);
  EXPECT_TRUE(alone.phases.at(0).rounds.empty());
  EXPECT_TRUE(alone.phases.at(0).copies.empty());
}

TEST(TrivialMetrics, EverythingWrapsOntoSelf) {
  // Torus 1 x 2 x 3 at (0, 1, 2); offsets that vanish modulo every dimension become copies.
  const Grid grid({1, 2, 3}, {true, true, true});
  const Offsets offsets = Offsets::from_list(3, {{0, 0, 0}, {5, 2, -3}, {1, 0, 0}, {0, 4, 6}});
  const Schedule s = plan_trivial(grid, offsets, Collective::alltoall, std::vector<int>{0, 1, 2});
  EXPECT_EQ(s.messages(), 0);
  EXPECT_EQ(s.volume(), 0);
  EXPECT_EQ(s.communication_phases(), 0);
  EXPECT_EQ(s.phases.at(0).copies.size(), 4u);
}

TEST(TrivialMetrics, NoOffsets) {
  const Grid grid({2, 2}, {true, false});
  for (Collective collective : {Collective::alltoall, Collective::allgather}) {
    const Schedule s = plan_trivial(grid, Offsets(2, {}), collective, std::vector<int>{1, 1});
    EXPECT_EQ(s.block_count, 0);
    EXPECT_EQ(s.messages(), 0);
    EXPECT_EQ(s.volume(), 0);
    EXPECT_EQ(s.communication_phases(), 0);
    EXPECT_FALSE(s.uses_temp());
  }
}

// messages = offsets whose target exists and is not the process itself; volume = messages;
// one copy (send slot -> receive block i) per offset that lands on the process itself.
TEST(TrivialMetrics, RandomNeighborhoods) {
  int copies_seen = 0, absent_seen = 0;
  for (int seed = 0; seed < 120; ++seed) {
    std::mt19937 rng(static_cast<unsigned>(777 + seed));
    const auto kind = static_cast<test::GridKind>(seed % 4);
    const Collective collective = seed % 2 ? Collective::allgather : Collective::alltoall;
    const test::RandomCase c = test::random_case(rng, kind, collective, 64);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + test::describe(c.grid, c.offsets));
    for (int r = 0; r < c.grid.size(); ++r) {
      const std::vector<int> coords = c.grid.coords_of(r);
      const Schedule s = plan_trivial(c.grid, c.offsets, collective, coords);
      int messages = 0;
      bool communicates = false;
      std::vector<Copy> copies;
      for (int i = 0; i < c.offsets.count(); ++i) {
        const auto target = c.grid.shift(coords, c.offsets[i], +1);
        const auto source = c.grid.shift(coords, c.offsets[i], -1);
        if (target && *target != r) ++messages;
        if ((target && *target != r) || (source && *source != r)) communicates = true;
        if (target == r) copies.push_back({{Buffer::send, collective == Collective::allgather ? 0 : i}, {Buffer::recv, i}});
        absent_seen += !target;
        if (c.offsets.is_zero(i)) {
          EXPECT_EQ(target, r);
        }
      }
      ASSERT_EQ(s.phases.size(), 1u) << "rank " << r;
      EXPECT_EQ(s.messages(), messages) << "rank " << r;
      EXPECT_EQ(s.volume(), messages) << "rank " << r;
      EXPECT_EQ(s.communication_phases(), communicates ? 1 : 0) << "rank " << r;
      EXPECT_FALSE(s.uses_temp());
      EXPECT_EQ(copies_of(s.phases[0].copies), copies_of(copies)) << "rank " << r;
      copies_seen += static_cast<int>(copies.size());
    }
  }
  EXPECT_GT(copies_seen, 0);
  EXPECT_GT(absent_seen, 0);
}

TEST(ScheduleMetrics, HandBuilt) {
  Schedule s;
  s.block_count = 3;
  // Phase 0: one combined message of three blocks plus a receive-only round.
  s.phases.push_back(Phase{{Round{{1, {{Buffer::send, 0}, {Buffer::send, 1}, {Buffer::send, 2}}}, {}},
                            Round{{}, {2, {{Buffer::recv, 0}}}}},
                           {}});
  // Phase 1: only a local copy.
  s.phases.push_back(Phase{{}, {Copy{{Buffer::send, 1}, {Buffer::recv, 1}}}});
  // Phase 2: a round with neither side (both peers absent).
  s.phases.push_back(Phase{{Round{}}, {}});
  // Phase 3: a send-only round out of temp.
  s.phases.push_back(Phase{{Round{{3, {{Buffer::temp, 2}}}, {}}}, {}});
  EXPECT_EQ(s.messages(), 2);
  EXPECT_EQ(s.volume(), 4);
  EXPECT_EQ(s.communication_phases(), 2);
  EXPECT_TRUE(s.uses_temp());

  Schedule copy_only;
  copy_only.phases.push_back(Phase{{}, {Copy{{Buffer::temp, 0}, {Buffer::recv, 0}}}});
  EXPECT_EQ(copy_only.messages(), 0);
  EXPECT_EQ(copy_only.communication_phases(), 0);
  EXPECT_TRUE(copy_only.uses_temp());
  EXPECT_FALSE(Schedule{}.uses_temp());
}

TEST(Algorithms, NamesAndParsing) {
  EXPECT_EQ(parse_algorithm("trivial"), Algorithm::trivial);
  EXPECT_EQ(parse_algorithm("auto"), Algorithm::automatic);
  EXPECT_EQ(parse_algorithm(""), std::nullopt);
  EXPECT_EQ(parse_algorithm("Trivial"), std::nullopt);
  EXPECT_EQ(parse_algorithm("automatic"), std::nullopt);
  EXPECT_EQ(parse_algorithm("trivial "), std::nullopt);
  EXPECT_EQ(parse_algorithm("combining"), Algorithm::combining);
  EXPECT_EQ(parse_algorithm("torus"), Algorithm::torus);
  for (Algorithm a : {Algorithm::trivial, Algorithm::combining, Algorithm::torus, Algorithm::automatic})
    EXPECT_EQ(parse_algorithm(algorithm_name(a)), a);
  EXPECT_EQ(algorithm_name(Algorithm::trivial), "trivial");
  EXPECT_EQ(algorithm_name(Algorithm::combining), "combining");
  EXPECT_EQ(algorithm_name(Algorithm::torus), "torus");
  EXPECT_EQ(algorithm_name(Algorithm::automatic), "auto");
}

TEST(Algorithms, PlanTrivialEqualsPlanWithAlgorithmTrivial) {
  const Grid grid({3, 4}, {true, false});
  const Offsets offsets = Offsets::from_list(2, {{1, 0}, {0, 0}, {-1, 2}, {1, 0}, {3, -4}});
  for (Collective collective : {Collective::alltoall, Collective::allgather}) {
    for (int r = 0; r < grid.size(); ++r) {
      const std::vector<int> coords = grid.coords_of(r);
      const Schedule direct = plan_trivial(grid, offsets, collective, coords);
      const Schedule via = plan(Algorithm::trivial, grid, offsets, collective, coords);
      ASSERT_EQ(direct.phases.size(), via.phases.size());
      EXPECT_EQ(rounds_of(direct.phases[0]), rounds_of(via.phases[0]));
      EXPECT_EQ(direct.messages(), via.messages());
      EXPECT_EQ(direct.phases[0].copies.size(), via.phases[0].copies.size());
    }
  }
}

}  // namespace
}  // namespace cartcoll
