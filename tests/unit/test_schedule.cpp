// SPDX-License-Identifier: BSD-3-Clause
// Figures of merit (messages, volume, communication phases, copies) of the trivial plan, the schedule
// accessors on hand-built schedules, and the algorithm names.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/planning/cost.hpp"
#include "test_support.hpp"

namespace cartcoll {
namespace {

using test::plan_combining;
using test::plan_torus;
using test::plan_trivial;

// Messages as comparable pairs: (peer, blocks); a phase's sends and receives as sorted lists.
using MessageKey = std::pair<int, std::vector<std::pair<int, int>>>;
using PhaseKey = std::pair<std::vector<MessageKey>, std::vector<MessageKey>>;  // sends, receives

std::vector<std::pair<int, int>> refs(const std::vector<BlockRef>& blocks) {
  std::vector<std::pair<int, int>> out;
  for (const BlockRef& ref : blocks) out.emplace_back(static_cast<int>(ref.buffer), ref.block);
  return out;
}

std::vector<MessageKey> keys_of(const std::vector<Message>& messages) {
  std::vector<MessageKey> keys;
  for (const Message& message : messages) keys.emplace_back(message.peer, refs(message.blocks));
  std::sort(keys.begin(), keys.end());
  return keys;
}

PhaseKey messages_of(const Phase& phase) { return {keys_of(phase.sends), keys_of(phase.recvs)}; }

PhaseKey sorted(PhaseKey key) {
  std::sort(key.first.begin(), key.first.end());
  std::sort(key.second.begin(), key.second.end());
  return key;
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
  EXPECT_EQ(s.send_blocks, 5);
  EXPECT_EQ(s.recv_blocks, 5);
  ASSERT_EQ(s.phases.size(), 1u);
  EXPECT_EQ(s.messages(), 3);
  EXPECT_EQ(s.volume(), 3);
  EXPECT_EQ(s.communication_phases(), 1);
  EXPECT_TRUE(s.temps.empty());
  EXPECT_EQ(messages_of(s.phases[0]),
            sorted({{{1, {S(0)}}, {3, {S(3)}}, {1, {S(4)}}}, {{3, {R(0)}}, {1, {R(3)}}, {3, {R(4)}}}}));
  EXPECT_EQ(copies_of(s.phases[0].copies), (std::vector<CopyKey>{{S(1), R(1)}, {S(2), R(2)}}));

  // allgather: every message and copy reads send block 0.
  const Schedule g = plan_trivial(grid, offsets, Collective::allgather, std::vector<int>{0});
  EXPECT_EQ(g.collective, Collective::allgather);
  EXPECT_EQ(g.send_blocks, 1);
  EXPECT_EQ(g.messages(), 3);
  EXPECT_EQ(g.volume(), 3);
  EXPECT_EQ(messages_of(g.phases.at(0)),
            sorted({{{1, {S(0)}}, {3, {S(0)}}, {1, {S(0)}}}, {{3, {R(0)}}, {1, {R(3)}}, {3, {R(4)}}}}));
  EXPECT_EQ(copies_of(g.phases[0].copies), (std::vector<CopyKey>{{S(0), R(1)}, {S(0), R(2)}}));
}

TEST(TrivialMetrics, LineHandChecked) {
  const Grid line({3}, {false});
  const Offsets plus = Offsets::from_list(1, {{1}});
  // Rank 0 sends to 1 and receives from nobody; rank 2 only receives.
  const Schedule first = plan_trivial(line, plus, Collective::alltoall, std::vector<int>{0});
  EXPECT_EQ(first.messages(), 1);
  EXPECT_EQ(first.communication_phases(), 1);
  EXPECT_EQ(messages_of(first.phases.at(0)), PhaseKey({{1, {S(0)}}}, {}));
  const Schedule last = plan_trivial(line, plus, Collective::alltoall, std::vector<int>{2});
  EXPECT_EQ(last.messages(), 0);
  EXPECT_EQ(last.volume(), 0);
  EXPECT_EQ(last.communication_phases(), 1);  // it still receives
  EXPECT_EQ(messages_of(last.phases.at(0)), PhaseKey({}, {{1, {R(0)}}}));

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
  EXPECT_TRUE(alone.phases.at(0).sends.empty());
  EXPECT_TRUE(alone.phases.at(0).recvs.empty());
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
    EXPECT_EQ(s.recv_blocks, 0);
    EXPECT_EQ(s.messages(), 0);
    EXPECT_EQ(s.volume(), 0);
    EXPECT_EQ(s.communication_phases(), 0);
    EXPECT_TRUE(s.temps.empty());
  }
}

// The rank at coords + sign * offset by explicit row-major arithmetic (not Grid::shift, which the
// planners use), or -1 off a non-periodic dimension.
int rank_at(const Grid& grid, const std::vector<int>& coords, std::span<const int> offset, int sign) {
  long long rank = 0;
  for (int k = 0; k < grid.ndims(); ++k) {
    const long long n = grid.dims()[static_cast<std::size_t>(k)];
    long long c = coords[static_cast<std::size_t>(k)] + static_cast<long long>(sign) * offset[static_cast<std::size_t>(k)];
    if (grid.periodic(k))
      c = ((c % n) + n) % n;
    else if (c < 0 || c >= n)
      return -1;
    rank = rank * n + c;
  }
  return static_cast<int>(rank);
}

// Träff and Hunold's (Cartesian Collective Communication) definition, block by block: block i goes
// to R + offset i as its own message unless that is R (a copy) or off the mesh (nothing); receive
// block i comes from R - offset i likewise.
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
      PhaseKey expected;
      std::vector<Copy> copies;
      for (int i = 0; i < c.offsets.count(); ++i) {
        const int target = rank_at(c.grid, coords, c.offsets[i], +1), source = rank_at(c.grid, coords, c.offsets[i], -1);
        const int block = collective == Collective::allgather ? 0 : i;
        if (target == r) {
          copies.push_back({{Buffer::send, block}, {Buffer::recv, i}});
          continue;
        }
        if (target >= 0) expected.first.push_back({target, {S(block)}});
        if (source >= 0) expected.second.push_back({source, {R(i)}});
        absent_seen += target < 0;
      }
      ASSERT_EQ(s.phases.size(), 1u) << "rank " << r;
      EXPECT_EQ(messages_of(s.phases[0]), sorted(expected)) << "rank " << r;
      EXPECT_EQ(copies_of(s.phases[0].copies), copies_of(copies)) << "rank " << r;
      EXPECT_TRUE(s.temps.empty());
      copies_seen += static_cast<int>(copies.size());
    }
  }
  EXPECT_GT(copies_seen, 0);
  EXPECT_GT(absent_seen, 0);
}

TEST(ScheduleMetrics, HandBuilt) {
  Schedule s{Collective::alltoall, 3, 3, {{Buffer::recv, 2}, {Buffer::send, 0}, {Buffer::recv, 1}}, {}};
  // Phase 0: one combined message of three blocks, and a receive from another peer.
  s.phases.push_back(Phase{{{1, {{Buffer::send, 0}, {Buffer::send, 1}, {Buffer::send, 2}}}}, {{2, {{Buffer::recv, 0}}}}, {}});
  // Phase 1: only a local copy.
  s.phases.push_back(Phase{{}, {}, {Copy{{Buffer::send, 1}, {Buffer::recv, 1}}}});
  // Phase 2: nothing at all.
  s.phases.push_back(Phase{});
  // Phase 3: a send out of a temp block.
  s.phases.push_back(Phase{{{3, {{Buffer::temp, 2}}}}, {}, {}});
  EXPECT_EQ(s.messages(), 2);
  EXPECT_EQ(s.volume(), 4);
  EXPECT_EQ(s.communication_phases(), 2);
  EXPECT_EQ(s.shape_of({Buffer::temp, 2}), (BlockRef{Buffer::recv, 1}));
  EXPECT_EQ(s.shape_of({Buffer::temp, 1}), (BlockRef{Buffer::send, 0}));
  EXPECT_EQ(s.shape_of({Buffer::recv, 2}), (BlockRef{Buffer::recv, 2}));
  EXPECT_THROW(s.shape_of({Buffer::temp, 3}), std::out_of_range);

  Schedule receive_only;
  receive_only.phases.push_back(Phase{{}, {{4, {}}}, {}});
  EXPECT_EQ(receive_only.messages(), 0);
  EXPECT_EQ(receive_only.communication_phases(), 1);
}

TEST(Algorithms, TheRegistryNamesEveryPlannerOnce) {
  std::vector<std::string> names;
  for (const PlannerEntry& entry : planners()) {
    names.emplace_back(entry.name);
    EXPECT_FALSE(entry.summary.empty()) << entry.name;
    EXPECT_TRUE(entry.serves_alltoall || entry.serves_allgather) << entry.name;
  }
  for (const char* name : {"trivial", "combining", "torus"})
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << "a name is registered twice";
}

TEST(Algorithms, NamesAndParsing) {
  EXPECT_EQ(Algorithm::parse("auto"), Algorithm::automatic());
  EXPECT_EQ(Algorithm::parse(""), std::nullopt);
  EXPECT_EQ(Algorithm::parse("Trivial"), std::nullopt);
  EXPECT_EQ(Algorithm::parse("automatic"), std::nullopt);
  EXPECT_EQ(Algorithm::parse("trivial "), std::nullopt);
  EXPECT_THROW(Algorithm::named("no such planner"), Error);
  EXPECT_EQ(Algorithm::automatic().name(), "auto");
  EXPECT_EQ(Algorithm::automatic().id(), -1);
  EXPECT_THROW(Algorithm::automatic().planner(), Error);
  for (std::size_t i = 0; i < planners().size(); ++i) {
    const Algorithm algorithm = Algorithm::named(planners()[i].name);
    EXPECT_EQ(algorithm.id(), static_cast<int>(i));
    EXPECT_EQ(Algorithm::from_id(algorithm.id()), algorithm);
    EXPECT_EQ(algorithm.name(), planners()[i].name);
    EXPECT_FALSE(algorithm.is_automatic());
  }
  EXPECT_THROW(Algorithm::from_id(static_cast<int>(planners().size())), Error);
  EXPECT_THROW(Algorithm::from_id(-2), Error);
}

TEST(Algorithms, PlanningAutoIsAnError) {
  const Grid grid({3}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}});
  const std::vector<int> coords{0};
  EXPECT_THROW(plan(Algorithm::automatic(), {grid, offsets, coords}, Collective::alltoall), Error);
}

TEST(Algorithms, AutoChoosesAmongTheCandidatesThatServeTheCollective) {
  for (Collective collective : {Collective::alltoall, Collective::allgather}) {
    const auto candidates = auto_candidates(collective, NeighborhoodKind::cartesian);
    ASSERT_FALSE(candidates.empty());
    for (Algorithm candidate : candidates) {
      const PlannerEntry& entry = candidate.planner();
      EXPECT_TRUE(entry.auto_candidate) << entry.name;
      EXPECT_TRUE(collective == Collective::alltoall ? entry.serves_alltoall : entry.serves_allgather) << entry.name;
    }
  }
  const auto cartesian = auto_candidates(Collective::alltoall, NeighborhoodKind::cartesian);
  EXPECT_EQ(std::count(cartesian.begin(), cartesian.end(),
                       Algorithm::named("torus")),
            0)
      << "torus sends as many messages as combining in more phases";
}

}  // namespace
}  // namespace cartcoll
