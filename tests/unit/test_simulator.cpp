// SPDX-License-Identifier: BSD-3-Clause
// (a) The planners (trivial, combining, torus), proved by the simulator against the reference model on
//     the paper's Table 1 neighborhoods, seeded random neighborhoods, varying block sizes and grids of
//     4096 processes; the torus planner's figures (the isomorphic-collectives paper by Träff,
//     Carpen-Amarie, Hunold and Rougier, section 3.1).
// (b) The simulator rejects broken schedules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace cartcoll {
namespace {

using test::plan_combining;
using test::plan_torus;
using test::plan_trivial;

using test::Blocks;
using test::proves;
using test::Sizes;

const char* collective_name(Collective collective) {
  return collective == Collective::allgather ? "allgather" : "alltoall";
}

// ---------------------------------------------------------------------------------------------------
// Table 1: box neighborhoods {-1, ..., n-2}^d minus the zero vector, n = 3, 4, 5 and d = 2, ..., 5.

using BoxParam = std::tuple<int, int, Collective>;  // d, n, collective

class BoxNeighborhood : public ::testing::TestWithParam<BoxParam> {};

std::vector<int> small_torus_dims(int d) {
  switch (d) {
    case 2: return {3, 4};
    case 3: return {4, 3, 3};
    case 4: return {3, 4, 3, 3};
    default: return {2, 2, 2, 2, 3};
  }
}

// The generator the Table 1 cases use: t = n^d - 1 distinct vectors in {-1..n-2}^d, none zero.
TEST(BoxNeighborhoodShape, AsInTable1) {
  for (int d = 2; d <= 5; ++d)
    for (int n = 3; n <= 5; ++n) {
      const Offsets offsets = test::box_neighborhood(d, n);
      int t = 1;
      for (int k = 0; k < d; ++k) t *= n;
      ASSERT_EQ(offsets.count(), t - 1);
      for (int i = 0; i < offsets.count(); ++i) {
        EXPECT_FALSE(offsets.is_zero(i));
        for (int c : offsets[i]) {
          EXPECT_GE(c, -1);
          EXPECT_LE(c, n - 2);
        }
        if (i > 0) {  // strictly increasing lexicographically, hence all distinct
          EXPECT_TRUE(std::lexicographical_compare(offsets[i - 1].begin(), offsets[i - 1].end(), offsets[i].begin(),
                                                   offsets[i].end()));
        }
      }
    }
}

// Small tori: offsets wrap around and alias each other and the process itself.
TEST_P(BoxNeighborhood, SmallTorus) {
  const auto [d, n, collective] = GetParam();
  const std::vector<int> dims = small_torus_dims(d);
  const Grid grid(dims, std::vector<bool>(dims.size(), true));
  const Offsets offsets = test::box_neighborhood(d, n);
  const Sizes sizes = test::varied_sizes(collective, offsets.count());
  EXPECT_TRUE(proves(plan_trivial, grid, offsets, collective, sizes));
  EXPECT_TRUE(proves(plan_combining, grid, offsets, collective, sizes)) << "combining";
  EXPECT_TRUE(proves(plan_torus, grid, offsets, collective, sizes)) << "torus";
}

// The same shapes as meshes and with mixed periodicity: many neighbors do not exist. For d = 5, n = 5
// (t = 3124) the allgather planners' search for the best dimension order costs some 50 ms per rank,
// so there each of combining and torus is proved on one of the two grids only.
TEST_P(BoxNeighborhood, SmallMeshAndMixed) {
  const auto [d, n, collective] = GetParam();
  const std::vector<int> dims = small_torus_dims(d);
  const Offsets offsets = test::box_neighborhood(d, n);
  const Sizes sizes = test::varied_sizes(collective, offsets.count());
  const bool both = offsets.count() < 2000;
  const Grid mesh(dims, std::vector<bool>(dims.size(), false));
  EXPECT_TRUE(proves(plan_trivial, mesh, offsets, collective, sizes));
  EXPECT_TRUE(proves(plan_combining, mesh, offsets, collective, sizes)) << "combining, mesh";
  if (both) {
    EXPECT_TRUE(proves(plan_torus, mesh, offsets, collective, sizes)) << "torus, mesh";
  }
  std::vector<bool> periods(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k) periods[k] = k % 2 == 0;
  const Grid mixed(dims, periods);
  EXPECT_TRUE(proves(plan_trivial, mixed, offsets, collective, sizes));
  if (both) {
    EXPECT_TRUE(proves(plan_combining, mixed, offsets, collective, sizes)) << "combining, mixed";
  }
  EXPECT_TRUE(proves(plan_torus, mixed, offsets, collective, sizes)) << "torus, mixed";
}

// Tori with n processes in every dimension: the offsets do not wrap, so all t targets are distinct and
// none is the process itself. The plans of a sample of ranks are checked against peers computed here
// by hand (for every Table 1 neighborhood); the simulator proves all ranks where that is affordable.
int floor_mod(int a, int m) { return ((a % m) + m) % m; }

TEST_P(BoxNeighborhood, TorusWithoutWrappingPlan) {
  const auto [d, n, collective] = GetParam();
  const Grid grid(std::vector<int>(static_cast<std::size_t>(d), n), std::vector<bool>(static_cast<std::size_t>(d), true));
  const Offsets offsets = test::box_neighborhood(d, n);
  const int t = offsets.count();
  for (int r : {0, 1, grid.size() / 2, grid.size() - 1}) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const std::vector<int> coords = grid.coords_of(r);
    // Expected (peer, block) pairs, peers by explicit row-major arithmetic.
    std::vector<std::pair<int, int>> sends, recvs;
    for (int i = 0; i < t; ++i) {
      int target = 0, source = 0;
      for (int k = 0; k < d; ++k) {
        target = target * n + floor_mod(coords[static_cast<std::size_t>(k)] + offsets[i][static_cast<std::size_t>(k)], n);
        source = source * n + floor_mod(coords[static_cast<std::size_t>(k)] - offsets[i][static_cast<std::size_t>(k)], n);
      }
      sends.emplace_back(target, collective == Collective::allgather ? 0 : i);
      recvs.emplace_back(source, i);
    }
    const Schedule schedule = plan_trivial(grid, offsets, collective, coords);
    ASSERT_EQ(schedule.phases.size(), 1u);
    EXPECT_EQ(schedule.messages(), t);
    EXPECT_EQ(schedule.volume(), t);
    EXPECT_TRUE(schedule.phases[0].copies.empty());
    std::vector<std::pair<int, int>> got_sends, got_recvs;
    std::vector<int> targets;
    ASSERT_EQ(schedule.phases[0].sends.size(), schedule.phases[0].recvs.size());
    for (const Message& send : schedule.phases[0].sends) {
      ASSERT_EQ(send.blocks.size(), 1u);
      EXPECT_EQ(send.blocks[0].buffer, Buffer::send);
      got_sends.emplace_back(send.peer, send.blocks[0].block);
      targets.push_back(send.peer);
    }
    for (const Message& receive : schedule.phases[0].recvs) {
      ASSERT_EQ(receive.blocks.size(), 1u);
      EXPECT_EQ(receive.blocks[0].buffer, Buffer::recv);
      got_recvs.emplace_back(receive.peer, receive.blocks[0].block);
    }
    std::sort(sends.begin(), sends.end());
    std::sort(recvs.begin(), recvs.end());
    std::sort(got_sends.begin(), got_sends.end());
    std::sort(got_recvs.begin(), got_recvs.end());
    EXPECT_EQ(got_sends, sends);
    EXPECT_EQ(got_recvs, recvs);
    std::sort(targets.begin(), targets.end());
    EXPECT_EQ(std::adjacent_find(targets.begin(), targets.end()), targets.end()) << "targets not distinct";
    EXPECT_EQ(std::count(targets.begin(), targets.end(), r), 0) << "a target is the rank itself";
  }
}

class BoxNeighborhoodNoWrap : public ::testing::TestWithParam<BoxParam> {};

TEST_P(BoxNeighborhoodNoWrap, TorusWithoutWrapping) {
  const auto [d, n, collective] = GetParam();
  const Grid grid(std::vector<int>(static_cast<std::size_t>(d), n), std::vector<bool>(static_cast<std::size_t>(d), true));
  const Offsets offsets = test::box_neighborhood(d, n);
  for (const test::Planner planner : {test::Planner{plan_trivial}, test::Planner{plan_combining}, test::Planner{plan_torus}})
    EXPECT_TRUE(proves(planner, grid, offsets, collective, test::varied_sizes(collective, offsets.count())));
}

// The same meshes without periodicity: every interior process has all t neighbors.
TEST_P(BoxNeighborhoodNoWrap, MeshWithoutWrapping) {
  const auto [d, n, collective] = GetParam();
  const Grid grid(std::vector<int>(static_cast<std::size_t>(d), n), std::vector<bool>(static_cast<std::size_t>(d), false));
  const Offsets offsets = test::box_neighborhood(d, n);
  for (const test::Planner planner : {test::Planner{plan_trivial}, test::Planner{plan_combining}, test::Planner{plan_torus}})
    EXPECT_TRUE(proves(planner, grid, offsets, collective, test::varied_sizes(collective, offsets.count())));
}

std::string box_name(const ::testing::TestParamInfo<BoxParam>& param) {
  return "d" + std::to_string(std::get<0>(param.param)) + "_n" + std::to_string(std::get<1>(param.param)) + "_" +
         collective_name(std::get<2>(param.param));
}

INSTANTIATE_TEST_SUITE_P(Table1, BoxNeighborhood,
                         ::testing::Combine(::testing::Values(2, 3, 4, 5), ::testing::Values(3, 4, 5),
                                            ::testing::Values(Collective::alltoall, Collective::allgather)),
                         box_name);

// Simulating every rank of the non-wrapping torus costs p * t = n^d (n^d - 1) block transfers: that is
// affordable up to d = 4, n = 5 (390,000) but not for d = 5, n = 4 (1,047,552) or d = 5, n = 5
// (9,762,500), whose plans TorusWithoutWrappingPlan checks instead.
std::vector<BoxParam> affordable_no_wrap() {
  std::vector<BoxParam> params;
  for (int d = 2; d <= 5; ++d)
    for (int n = 3; n <= 5; ++n)
      if (d < 5 || n == 3)
        for (Collective collective : {Collective::alltoall, Collective::allgather}) params.emplace_back(d, n, collective);
  return params;
}

INSTANTIATE_TEST_SUITE_P(Table1, BoxNeighborhoodNoWrap, ::testing::ValuesIn(affordable_no_wrap()), box_name);

// ---------------------------------------------------------------------------------------------------
// Seeded random neighborhoods on random grids.

using RandomParam = std::tuple<test::GridKind, Collective>;

class RandomNeighborhoods : public ::testing::TestWithParam<RandomParam> {};

TEST_P(RandomNeighborhoods, TrivialPlanMatchesReference) {
  const auto [kind, collective] = GetParam();
  constexpr int cases = 80;
  int zero = 0, repeated = 0, empty = 0, size_one = 0, size_two = 0, zero_size = 0;
  for (int seed = 0; seed < cases; ++seed) {
    std::mt19937 rng(static_cast<unsigned>(1000 * static_cast<int>(kind) + 100000 * static_cast<int>(collective) + seed));
    const test::RandomCase c = test::random_case(rng, kind, collective);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + test::describe(c.grid, c.offsets));
    ASSERT_TRUE(proves(plan_trivial, c.grid, c.offsets, collective, c.sizes));
    ASSERT_TRUE(proves(plan_combining, c.grid, c.offsets, collective, c.sizes)) << "combining";
    ASSERT_TRUE(proves(plan_torus, c.grid, c.offsets, collective, c.sizes)) << "torus";
    zero += c.zero_offsets > 0;
    repeated += c.repeated_offsets > 0;
    empty += c.offsets.count() == 0;
    for (int extent : c.grid.dims()) {
      size_one += extent == 1;
      size_two += extent == 2;
    }
    for (std::size_t size : c.sizes.recv_sizes) zero_size += size == 0;
  }
  // The generator does produce the awkward cases.
  EXPECT_GT(zero, 0);
  EXPECT_GT(repeated, 0);
  EXPECT_GT(empty, 0);
  EXPECT_GT(size_one, 0);
  EXPECT_GT(size_two, 0);
  EXPECT_GT(zero_size, 0);
}

std::string random_name(const ::testing::TestParamInfo<RandomParam>& param) {
  return std::string(test::kind_name(std::get<0>(param.param))) + "_" + collective_name(std::get<1>(param.param));
}

INSTANTIATE_TEST_SUITE_P(Seeded, RandomNeighborhoods,
                         ::testing::Combine(::testing::Values(test::GridKind::periodic, test::GridKind::nonperiodic,
                                                              test::GridKind::mixed, test::GridKind::tiny),
                                            ::testing::Values(Collective::alltoall, Collective::allgather)),
                         random_name);

// ---------------------------------------------------------------------------------------------------
// Hand-picked cases.

TEST(TrivialPlan, NoOffsets) {
  for (Collective collective : {Collective::alltoall, Collective::allgather}) {
    for (bool periodic : {true, false}) {
      const Grid grid({3, 2}, {periodic, !periodic});
      const Offsets offsets(2, {});
      EXPECT_TRUE(proves(plan_trivial, grid, offsets, collective, Sizes{{}, 4}));
      EXPECT_TRUE(proves(plan_combining, grid, offsets, collective, Sizes{{}, 0}));
    }
  }
}

TEST(TrivialPlan, BlockSizesVaryPerBlock) {
  // The v/w case: block i has its own size, zero-size blocks included; zero and repeated offsets.
  const Offsets offsets =
      Offsets::from_list(2, {{1, 0}, {0, 0}, {0, 1}, {-1, -1}, {1, 0}, {0, 0}, {2, -3}, {0, -1}, {-1, 2}});
  const Sizes alltoall{{3, 0, 1, 7, 0, 2, 5, 0, 4}, 0};
  for (const Grid& grid : {Grid({4, 3}, {true, true}), Grid({4, 3}, {false, false}), Grid({4, 3}, {true, false}),
                           Grid({2, 1}, {true, true}), Grid({1, 2}, {false, true})}) {
    SCOPED_TRACE(test::describe(grid, offsets));
    EXPECT_TRUE(proves(plan_trivial, grid, offsets, Collective::alltoall, alltoall));
    for (std::size_t size : {0u, 1u, 6u}) {
      const Sizes allgather{std::vector<std::size_t>(static_cast<std::size_t>(offsets.count()), size), size};
      EXPECT_TRUE(proves(plan_trivial, grid, offsets, Collective::allgather, allgather));
    }
  }
}

TEST(TrivialPlan, AllBlocksEmpty) {
  const Grid grid({3, 3}, {true, false});
  const Offsets offsets = Offsets::from_list(2, {{1, 0}, {0, 1}, {0, 0}});
  EXPECT_TRUE(proves(plan_trivial, grid, offsets, Collective::alltoall, Sizes{{0, 0, 0}, 0}));
  EXPECT_TRUE(proves(plan_trivial, grid, offsets, Collective::allgather, Sizes{{0, 0, 0}, 0}));
}

// ---------------------------------------------------------------------------------------------------
// Grids of at least 4096 processes.

struct Stencil {
  const char* name;
  std::vector<int> dims;
};

Offsets stencil(int d, bool star) {
  // star: the 2d+1 point stencil; otherwise the full 3^d box. Both include the centre.
  std::vector<int> flat(static_cast<std::size_t>(d), 0);
  const std::vector<int> rest = star ? neighborhoods::von_neumann(d, 1) : neighborhoods::moore(d, 1);
  flat.insert(flat.end(), rest.begin(), rest.end());
  return Offsets(d, flat);
}

class LargeGrid : public ::testing::TestWithParam<std::tuple<int, Collective>> {};

TEST_P(LargeGrid, Stencils) {
  const auto [which, collective] = GetParam();
  const bool star = which == 0;
  const int d = which == 2 ? 3 : 2;
  const std::vector<int> dims = d == 2 ? std::vector<int>{64, 64} : std::vector<int>{16, 16, 16};
  const Offsets offsets = stencil(d, star);
  ASSERT_EQ(offsets.count(), which == 0 ? 5 : which == 1 ? 9 : 27);
  for (bool periodic : {true, false}) {
    const Grid grid(dims, std::vector<bool>(dims.size(), periodic));
    ASSERT_GE(grid.size(), 4096);
    SCOPED_TRACE(periodic ? "torus" : "mesh");
    const Sizes sizes = test::varied_sizes(collective, offsets.count());
    EXPECT_TRUE(proves(plan_trivial, grid, offsets, collective, sizes));
    EXPECT_TRUE(proves(plan_combining, grid, offsets, collective, sizes)) << "combining";
    EXPECT_TRUE(proves(plan_torus, grid, offsets, collective, sizes)) << "torus";
  }
}

std::string large_name(const ::testing::TestParamInfo<std::tuple<int, Collective>>& param) {
  const char* names[] = {"5point_64x64", "9point_64x64", "27point_16x16x16"};
  return std::string(names[std::get<0>(param.param)]) + "_" + collective_name(std::get<1>(param.param));
}

INSTANTIATE_TEST_SUITE_P(Processes4096, LargeGrid,
                         ::testing::Combine(::testing::Values(0, 1, 2),
                                            ::testing::Values(Collective::alltoall, Collective::allgather)),
                         large_name);

// ---------------------------------------------------------------------------------------------------
// The torus planner's figures (the isomorphic-collectives paper, section 3.1) where no offset
// wraps: every process sends one message in each of D = sum_k (max positive c_k + max |negative
// c_k|) phases; alltoall volume sum_i ||N_i||_1, allgather volume the prefix trie's sum of |c| over
// its edges.

// The box [lo_k, hi_k] in each dimension k, minus the zero vector, in lexicographic order.
Offsets box(const std::vector<std::pair<int, int>>& ranges) {
  return Offsets(static_cast<int>(ranges.size()), neighborhoods::box(ranges, false));
}

int one_hop_steps(const Offsets& offsets) {
  int steps = 0;
  for (int k = 0; k < offsets.ndims(); ++k) {
    int positive = 0, negative = 0;
    for (int i = 0; i < offsets.count(); ++i) {
      positive = std::max(positive, offsets[i][static_cast<std::size_t>(k)]);
      negative = std::max(negative, -offsets[i][static_cast<std::size_t>(k)]);
    }
    steps += positive + negative;
  }
  return steps;
}

int sum_of_norms(const Offsets& offsets) {
  int hops = 0;
  for (int i = 0; i < offsets.count(); ++i)
    for (int c : offsets[i]) hops += std::abs(c);
  return hops;
}

struct TorusFiguresCase {
  const char* name;
  std::vector<std::pair<int, int>> ranges;
  int steps, alltoall_volume, allgather_volume;  // worked out by hand
  bool simulate;
};

// Moore radius r: D = 3 * 2r, V = 3 * (2r+1)^2 * r(r+1); the trie visits {-r..r} at 1, 2r+1 and
// (2r+1)^2 nodes: W = (1 + (2r+1) + (2r+1)^2) * r(r+1). The octant [0,3]x[0,2]x[0,1]: D = 3+2+1, V
// = 6*6 + 8*3 + 12*1; every order gives 23 non-zero edges, so the trie keeps Träff and Hunold's
// (Cartesian Collective Communication) order (z, y, x): W = 1 + 2*3 + 6*6.
const TorusFiguresCase torus_figures_cases[] = {
    {"Moore r=1", {{-1, 1}, {-1, 1}, {-1, 1}}, 6, 54, 26, true},
    {"Moore r=2", {{-2, 2}, {-2, 2}, {-2, 2}}, 12, 450, 186, true},
    {"Moore r=3", {{-3, 3}, {-3, 3}, {-3, 3}}, 18, 1764, 684, false},
    {"octant", {{0, 3}, {0, 2}, {0, 1}}, 6, 72, 43, true},
};

TEST(TorusPlan, FiguresWithoutWrapping) {
  for (const TorusFiguresCase& c : torus_figures_cases) {
    SCOPED_TRACE(c.name);
    const Offsets offsets = box(c.ranges);
    ASSERT_EQ(one_hop_steps(offsets), c.steps);
    ASSERT_EQ(sum_of_norms(offsets), c.alltoall_volume);
    std::vector<int> dims;  // 2 * span + 1 in every dimension: no offset wraps
    for (const auto& [lo, hi] : c.ranges) dims.push_back(2 * std::max(-lo, hi) + 1);
    const Grid grid(dims, std::vector<bool>(dims.size(), true));
    for (Collective collective : {Collective::alltoall, Collective::allgather}) {
      SCOPED_TRACE(collective_name(collective));
      const int volume = collective == Collective::alltoall ? c.alltoall_volume : c.allgather_volume;
      for (const Schedule& schedule : test::plan_all(plan_torus, grid, offsets, collective)) {
        ASSERT_EQ(schedule.phases.size(), static_cast<std::size_t>(c.steps));
        ASSERT_EQ(schedule.communication_phases(), c.steps);
        ASSERT_EQ(schedule.messages(), c.steps);
        ASSERT_EQ(schedule.volume(), volume);
      }
      if (c.simulate) {
        EXPECT_TRUE(proves(plan_torus, grid, offsets, collective, test::varied_sizes(collective, offsets.count())));
      }
    }
  }
}

// Blocks that travel several hops through intermediate processes, alternating between temp and receive
// slots. In the second list the allgather trie node (1) has children +2 and -1 but no zero child: its
// block must survive the positive steps for the negative one, so it must not share its slot with the
// child that travels two positive hops.
TEST(TorusPlan, LongOffsetsOnRingsAndMeshes) {
  const Offsets lists[] = {
      Offsets::from_list(2, {{4, 0}, {-3, 1}, {0, -4}, {4, 0}, {0, 0}, {1, 1}, {-4, -4}}),
      Offsets::from_list(2, {{1, 2}, {1, -1}}),
  };
  for (const Offsets& offsets : lists) {
    for (const Grid& grid : {Grid({9, 9}, {true, true}), Grid({9, 9}, {false, false}), Grid({6, 5}, {true, false}),
                             Grid({1, 7}, {true, false}), Grid({2, 3}, {false, true})}) {
      SCOPED_TRACE(test::describe(grid, offsets));
      for (Collective collective : {Collective::alltoall, Collective::allgather})
        EXPECT_TRUE(proves(plan_torus, grid, offsets, collective, test::varied_sizes(collective, offsets.count())));
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// (b) Broken schedules. Each starts from a schedule set that the simulator accepts, so that the
// rejection is due to the one mutation.

struct Fixture {
  std::vector<Schedule> schedules;
  Blocks send;
  Blocks recv;
  Blocks expected;
};

Fixture make_fixture(const Grid& grid, const Offsets& offsets, Collective collective, const Sizes& sizes) {
  Fixture s;
  s.schedules = test::plan_all(plan_trivial, grid, offsets, collective);
  s.send = test::make_send(grid.size(), collective, sizes);
  s.recv = test::make_recv(grid.size(), sizes);
  s.expected = reference::exchange(grid, offsets, collective, s.send, s.recv);
  return s;
}

// A ring of 4 with offset +1 and 2-byte blocks: rank r's only round sends to r+1 and receives from r-1.
Fixture ring() {
  return make_fixture(Grid({4}, {true}), Offsets::from_list(1, {{1}}), Collective::alltoall, Sizes{{2}, 2});
}

Message& only_send(Fixture& s, int rank) {
  auto& sends = s.schedules.at(static_cast<std::size_t>(rank)).phases.at(0).sends;
  EXPECT_EQ(sends.size(), 1u);
  return sends.at(0);
}

Message& only_recv(Fixture& s, int rank) {
  auto& recvs = s.schedules.at(static_cast<std::size_t>(rank)).phases.at(0).recvs;
  EXPECT_EQ(recvs.size(), 1u);
  return recvs.at(0);
}

class BrokenSchedule : public ::testing::Test {
 protected:
  void SetUp() override {
    s = ring();
    ASSERT_TRUE(test::same_blocks(simulate(s.schedules, s.send, s.recv), s.expected));  // the control
  }
  void expect_rejected() { EXPECT_THROW(simulate(s.schedules, s.send, s.recv), ScheduleError); }
  Fixture s;
};

TEST_F(BrokenSchedule, SendWithoutReceive) {
  s.schedules[2].phases[0].recvs.clear();
  expect_rejected();
}

TEST_F(BrokenSchedule, ReceiveWithoutSend) {
  s.schedules[1].phases[0].sends.clear();
  expect_rejected();
}

TEST_F(BrokenSchedule, ReceiveFromWrongPeer) {
  only_recv(s, 1).peer = 2;
  expect_rejected();
}

TEST_F(BrokenSchedule, SendToWrongPeer) {
  only_send(s, 0).peer = 2;
  expect_rejected();
}

TEST_F(BrokenSchedule, PeerOutOfRange) {
  only_send(s, 3).peer = 4;
  only_recv(s, 0).peer = 4;
  expect_rejected();
}

TEST_F(BrokenSchedule, NegativePeer) {
  only_send(s, 3).peer = -1;
  expect_rejected();
}

TEST_F(BrokenSchedule, ByteCountMismatchMoreBlocksSent) {
  only_send(s, 0).blocks.push_back({Buffer::send, 0});  // 4 bytes to a 2-byte receive
  expect_rejected();
}

TEST_F(BrokenSchedule, ByteCountMismatchBufferSizes) {
  s.recv[1][0].push_back(std::byte{0});  // rank 1 expects 3 bytes, rank 0 sends 2
  expect_rejected();
}

TEST_F(BrokenSchedule, BlockReceivedTwiceInOneMessage) {
  // Sender and receiver agree on the byte count; only the double write is wrong.
  for (int r = 0; r < 4; ++r) {
    only_send(s, r).blocks.push_back({Buffer::send, 0});
    only_recv(s, r).blocks.push_back({Buffer::recv, 0});
  }
  expect_rejected();
}

TEST_F(BrokenSchedule, BlockReceivedTwiceInTwoMessages) {
  for (int r = 0; r < 4; ++r) {
    Phase& phase = s.schedules[static_cast<std::size_t>(r)].phases[0];
    phase.sends.push_back(phase.sends[0]);  // every send has its receive, but recv block 0 is written twice
    phase.recvs.push_back(phase.recvs[0]);
  }
  expect_rejected();
}

TEST_F(BrokenSchedule, BlockSentAndReceivedInOnePhase) {
  for (int r = 0; r < 4; ++r) only_send(s, r).blocks = {{Buffer::recv, 0}};  // forwards what it receives
  expect_rejected();
}

TEST_F(BrokenSchedule, TempBlockSentAndReceivedInOnePhase) {
  for (auto& schedule : s.schedules) schedule.temps = {{Buffer::recv, 0}};
  for (int r = 0; r < 4; ++r) {
    only_send(s, r).blocks = {{Buffer::temp, 0}};
    only_recv(s, r).blocks = {{Buffer::temp, 0}};
  }
  expect_rejected();
}

TEST_F(BrokenSchedule, UndeclaredTempBlock) {
  for (int r = 0; r < 4; ++r) only_recv(s, r).blocks = {{Buffer::temp, 0}};  // no temps declared
  expect_rejected();
}

TEST_F(BrokenSchedule, BlockCountsDifferFromTheBuffers) {
  s.schedules[1].recv_blocks = 2;
  expect_rejected();
}

// Messages must meet in the same phase: a rank that sends one phase late is rejected, while trailing
// empty phases (a process that is done earlier than others) are harmless.
TEST_F(BrokenSchedule, SendOnePhaseLate) {
  Schedule& late = s.schedules[2];
  late.phases.insert(late.phases.begin(), Phase{});
  late.phases[0].recvs = late.phases[1].recvs;  // its receive stays in phase 0
  late.phases[1].recvs.clear();
  expect_rejected();
}

TEST_F(BrokenSchedule, FewerPhasesMeansEmptyPhases) {
  s.schedules[2].phases.push_back(Phase{});
  EXPECT_TRUE(test::same_blocks(simulate(s.schedules, s.send, s.recv), s.expected));
  s.schedules[3].phases.clear();
  expect_rejected();  // rank 3's send and receive are gone
}

TEST(BrokenScheduleWrites, ReceiveIntoSendBuffer) {
  // Offsets +1 and 0: the message carries send block 0, the zero offset is a copy of send block 1.
  Fixture s = make_fixture(Grid({4}, {true}), Offsets::from_list(1, {{1}, {0}}), Collective::alltoall, Sizes{{2, 2}, 2});
  ASSERT_TRUE(test::same_blocks(simulate(s.schedules, s.send, s.recv), s.expected));
  for (auto& schedule : s.schedules) {
    ASSERT_EQ(schedule.phases.at(0).recvs.size(), 1u);
    schedule.phases[0].recvs[0].blocks = {{Buffer::send, 1}};  // no block is both sent and received
  }
  EXPECT_THROW(simulate(s.schedules, s.send, s.recv), ScheduleError);
}

TEST(BrokenScheduleWrites, CopyIntoSendBuffer) {
  Fixture s = make_fixture(Grid({4}, {true}), Offsets::from_list(1, {{1}, {0}}), Collective::alltoall, Sizes{{2, 2}, 2});
  ASSERT_TRUE(test::same_blocks(simulate(s.schedules, s.send, s.recv), s.expected));
  auto& copies = s.schedules[1].phases.at(0).copies;
  ASSERT_EQ(copies.size(), 1u);
  copies[0] = Copy{{Buffer::recv, 1}, {Buffer::send, 1}};
  EXPECT_THROW(simulate(s.schedules, s.send, s.recv), ScheduleError);
}

TEST(BrokenScheduleWrites, CopyBetweenBlocksOfDifferentSizes) {
  Fixture s = make_fixture(Grid({2}, {false}), Offsets::from_list(1, {{0}, {1}}), Collective::alltoall, Sizes{{2, 3}, 0});
  ASSERT_TRUE(test::same_blocks(simulate(s.schedules, s.send, s.recv), s.expected));
  // Rank 0 copies send block 0 (2 bytes) into receive block 0; receive block 1 (3 bytes) has no source.
  Fixture larger = s;
  s.schedules[0].phases.at(0).copies.at(0).from = {Buffer::send, 1};  // 3 bytes into 2
  EXPECT_THROW(simulate(s.schedules, s.send, s.recv), ScheduleError);
  larger.schedules[0].phases.at(0).copies.at(0).to = {Buffer::recv, 1};  // 2 bytes into 3
  EXPECT_THROW(simulate(larger.schedules, larger.send, larger.recv), ScheduleError);
}

// A block reference outside the buffers (send block 1 of an alltoall with t = 1, receive block 5,
// temp block -1) must never be accepted.
std::vector<Fixture> out_of_range_refs() {
  std::vector<Fixture> broken(3, ring());
  broken[0].schedules[0].phases[0].sends[0].blocks[0].block = 1;
  broken[1].schedules[1].phases[0].recvs[0].blocks[0].block = 5;
  broken[2].schedules[0].phases[0].copies.push_back({{Buffer::send, 0}, {Buffer::temp, -1}});
  return broken;
}

TEST(BrokenScheduleRefs, BlockIndexOutOfRangeIsScheduleError) {
  for (Fixture& s : out_of_range_refs()) EXPECT_THROW(simulate(s.schedules, s.send, s.recv), ScheduleError);
}

// ---------------------------------------------------------------------------------------------------
// Valid hand-built schedules that the simulator must accept (guards against over-rejection).

// The hand-built alltoall schedules, run by the simulator, against the reference model.
::testing::AssertionResult delivers_as_reference(const std::vector<Schedule>& schedules, const Grid& grid,
                                                 const Offsets& offsets, const Sizes& sizes) {
  const Blocks send = test::make_send(grid.size(), Collective::alltoall, sizes);
  const Blocks recv = test::make_recv(grid.size(), sizes);
  return test::same_blocks(simulate(schedules, send, recv),
                           reference::exchange(grid, offsets, Collective::alltoall, send, recv));
}

TEST(HandBuiltSchedule, TwoPhaseForwardingThroughTemp) {
  // Ring of 4, offset +2, realised as two hops of +1 through the temp buffer.
  const Grid grid({4}, {true});
  const Offsets offsets = Offsets::from_list(1, {{2}});
  const Sizes sizes{{3}, 3};
  std::vector<Schedule> schedules;
  for (int r = 0; r < 4; ++r) {
    Schedule s{Collective::alltoall, 1, 1, {{Buffer::recv, 0}}, {}};
    const int next = (r + 1) % 4, prev = (r + 3) % 4;
    s.phases.push_back(Phase{{{next, {{Buffer::send, 0}}}}, {{prev, {{Buffer::temp, 0}}}}, {}});
    s.phases.push_back(Phase{{{next, {{Buffer::temp, 0}}}}, {{prev, {{Buffer::recv, 0}}}}, {}});
    EXPECT_EQ(s.shape_of({Buffer::temp, 0}), (BlockRef{Buffer::recv, 0}));
    EXPECT_EQ(s.messages(), 2);
    EXPECT_EQ(s.volume(), 2);
    EXPECT_EQ(s.communication_phases(), 2);
    schedules.push_back(std::move(s));
  }
  EXPECT_TRUE(delivers_as_reference(schedules, grid, offsets, sizes));
}

TEST(HandBuiltSchedule, CopyAfterReceiveInSamePhase) {
  // Copies run after the phase's messages: receive into temp, then copy temp into the receive block.
  const Grid grid({3}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}});
  const Sizes sizes{{2}, 2};
  std::vector<Schedule> schedules;
  for (int r = 0; r < 3; ++r) {
    Schedule s{Collective::alltoall, 1, 1, {{Buffer::send, 0}}, {}};  // shaped like the send block: same size
    s.phases.push_back(Phase{{{(r + 1) % 3, {{Buffer::send, 0}}}}, {{(r + 2) % 3, {{Buffer::temp, 0}}}},
                             {Copy{{Buffer::temp, 0}, {Buffer::recv, 0}}}});
    schedules.push_back(std::move(s));
  }
  EXPECT_TRUE(delivers_as_reference(schedules, grid, offsets, sizes));
}

TEST(HandBuiltSchedule, CombinedMessageSplitByReceiveSizes) {
  // Ring of 2 with offsets +1 and -1 (both the other process): one message carries blocks 0 and 1
  // (sizes 1 and 4), received into blocks 0 and 1 in one combined receive.
  const Grid grid({2}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}, {-1}});
  const Sizes sizes{{1, 4}, 0};
  std::vector<Schedule> schedules;
  for (int r = 0; r < 2; ++r) {
    Schedule s{Collective::alltoall, 2, 2, {}, {}};
    s.phases.push_back(Phase{{{1 - r, {{Buffer::send, 0}, {Buffer::send, 1}}}},
                             {{1 - r, {{Buffer::recv, 0}, {Buffer::recv, 1}}}},
                             {}});
    EXPECT_EQ(s.messages(), 1);
    EXPECT_EQ(s.volume(), 2);
    schedules.push_back(std::move(s));
  }
  EXPECT_TRUE(delivers_as_reference(schedules, grid, offsets, sizes));
  // Swapping the receive order mis-splits the stream: the byte counts still add up (4 + 1 = 1 + 4), so
  // the simulator accepts it, but the comparison with the reference must notice the mix-up.
  for (auto& schedule : schedules) {
    auto& blocks = schedule.phases[0].recvs[0].blocks;
    std::swap(blocks[0], blocks[1]);
  }
  EXPECT_FALSE(delivers_as_reference(schedules, grid, offsets, sizes));
}

}  // namespace
}  // namespace cartcoll
