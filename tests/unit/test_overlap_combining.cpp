// SPDX-License-Identifier: BSD-3-Clause
// overlap-combining proved by the simulator: every process's schedule moves the parts of its send
// buffer, and every receiver reassembles from its pieces exactly what the plain alltoallw would have
// given it (send block j of R - offsets[j], gathered from that process's send buffer through the
// block's runs), leaving blocks whose source is missing untouched. Then the figures of the 3-D halo.
#include <gtest/gtest.h>

#include <random>
#include <tuple>

#include "cartcoll/error.hpp"
#include "core/model/halo_layout.hpp"
#include "core/model/shared_sends.hpp"
#include "core/planning/plan.hpp"
#include "core/simulation/simulator.hpp"
#include "halo_figures.hpp"
#include "random_runs.hpp"
#include "test_support.hpp"

namespace cartcoll {
namespace {

using reference::Blocks;
using reference::Bytes;
using test::Runs;

// Byte `address` of rank's send buffer.
std::byte buffer_byte(int rank, std::int64_t address) {
  return static_cast<std::byte>(test::mix64(test::key(rank, 0, static_cast<std::size_t>(address), 0x0B0F000000000000ull)) & 0xFFu);
}

Bytes gather(int rank, const Runs& runs) {
  Bytes bytes;
  for (const ByteRun& run : runs)
    for (std::int64_t b = 0; b < run.length; ++b) bytes.push_back(buffer_byte(rank, run.offset + b));
  return bytes;
}

std::vector<Schedule> plan_all(const Grid& grid, const Offsets& offsets, const SharedSends& shared) {
  std::vector<Schedule> schedules;
  for (int rank = 0; rank < grid.size(); ++rank) {
    const std::vector<int> coords = grid.coords_of(rank);
    CartesianView view{grid, offsets, coords};
    view.shared_sends = &shared;
    schedules.push_back(plan(Algorithm::named("overlap-combining"), view, Collective::alltoall));
  }
  return schedules;
}

// What the proved schedules did, so that a test of random cases can make sure it met every path.
struct Seen {
  bool temps = false, copies = false, missing_sources = false, messages = false;
  void note(const Schedule& schedule) {
    temps = temps || !schedule.temps.empty();
    messages = messages || schedule.messages() > 0;
    for (const Phase& phase : schedule.phases) copies = copies || !phase.copies.empty();
  }
};

// Simulates the schedules and checks every block of every receiver through its pieces.
void prove(const Grid& grid, const Offsets& offsets, const std::vector<Runs>& blocks, const std::string& what,
           Seen* seen = nullptr) {
  SCOPED_TRACE(what);
  const auto found = find_shared_sends(blocks);
  ASSERT_TRUE(found.has_value());
  const SharedSends& shared = *found;
  const std::vector<Schedule> schedules = plan_all(grid, offsets, shared);
  if (seen != nullptr)
    for (const Schedule& schedule : schedules) seen->note(schedule);
  Blocks send(static_cast<std::size_t>(grid.size())), recv(send.size());
  for (int rank = 0; rank < grid.size(); ++rank) {
    for (const SharedPart& part : shared.parts) send[static_cast<std::size_t>(rank)].push_back(gather(rank, part.runs));
    for (std::size_t k = 0; k < shared.pieces.size(); ++k)
      recv[static_cast<std::size_t>(rank)].push_back(
          test::sentinel(rank, static_cast<int>(k), static_cast<std::size_t>(shared.parts[static_cast<std::size_t>(shared.pieces[k].part)].bytes)));
  }
  const Blocks initial = recv;
  Blocks result;
  try {
    result = simulate(schedules, send, std::move(recv));
  } catch (const ScheduleError& e) {
    FAIL() << e.what();
  }
  for (int rank = 0; rank < grid.size(); ++rank) {
    const std::vector<int> coords = grid.coords_of(rank);
    const auto r = static_cast<std::size_t>(rank);
    for (int j = 0; j < offsets.count(); ++j) {
      const std::optional<int> source = grid.shift(coords, offsets[j], -1);
      const auto block = static_cast<std::size_t>(j);
      Bytes stream(static_cast<std::size_t>(shared.block_bytes[block]));
      for (std::size_t k = 0; k < shared.pieces.size(); ++k) {
        const Piece& piece = shared.pieces[k];
        if (piece.block != j) continue;
        if (!source) {
          if (seen != nullptr) seen->missing_sources = true;
          EXPECT_EQ(result[r][k], initial[r][k]) << "rank " << rank << " piece " << k << " has no source but was written";
          continue;
        }
        std::size_t at = 0;
        for (const ByteRun& run : piece.stream)
          for (std::int64_t b = 0; b < run.length; ++b) stream[static_cast<std::size_t>(run.offset + b)] = result[r][k][at++];
      }
      if (source) {
        ASSERT_EQ(stream, gather(*source, blocks[block])) << "rank " << rank << " block " << j;
      }
    }
  }
}

Offsets random_offsets(std::mt19937_64& rng, int d, int t) {
  std::vector<int> flat;
  for (int i = 0; i < t; ++i) {
    if (i > 0 && rng() % 5 == 0) {  // a repeated offset
      const auto copy = static_cast<std::size_t>(rng() % static_cast<unsigned>(i)) * static_cast<std::size_t>(d);
      for (int k = 0; k < d; ++k) flat.push_back(flat[copy + static_cast<std::size_t>(k)]);
      continue;
    }
    const bool zero = rng() % 8 == 0;
    for (int k = 0; k < d; ++k) flat.push_back(zero ? 0 : static_cast<int>(rng() % 5) - 2);
  }
  return Offsets(d, std::move(flat));
}

// Grids of 1 to 3 dimensions of 1 to 5 processes each, periodic or not, offsets of coordinates -2..2:
// small periodic dimensions wrap +1 and -1 onto one process or onto the process itself.
TEST(OverlapCombining, RandomNeighborhoodsAndBlocksGiveThePlainAlltoallwsResult) {
  std::mt19937_64 rng(31);
  Seen seen;
  for (int round = 0; round < 400; ++round) {
    const int d = 1 + static_cast<int>(rng() % 3);
    std::vector<int> dims;
    std::vector<bool> periods;
    for (int k = 0; k < d; ++k) {
      dims.push_back(1 + static_cast<int>(rng() % static_cast<unsigned>(d == 3 ? 3 : 6 - d)));
      periods.push_back(rng() % 2 == 0);
    }
    const Grid grid(dims, periods);
    const int t = 1 + static_cast<int>(rng() % 7);
    const Offsets offsets = random_offsets(rng, d, t);
    const std::vector<Runs> blocks = test::random_runs(rng, t, 24);
    prove(grid, offsets, blocks, "round " + std::to_string(round), &seen);
    if (HasFatalFailure()) return;
  }
  EXPECT_TRUE(seen.temps && seen.copies && seen.missing_sources && seen.messages);
}

TEST(OverlapCombining, EveryBlockSharesWithEveryOther) {
  const Grid grid({3, 2}, {true, false});
  const Offsets offsets = Offsets::from_list(2, {{1, 0}, {-1, 1}, {0, 0}, {1, 0}, {2, -1}});
  prove(grid, offsets, {{{0, 8}}, {{4, 8}}, {{2, 3}, {-6, 2}}, {{6, 6}, {-5, 1}}, {{7, 1}, {0, 1}}}, "shared");
}

// The halo of an n^3 block with ghost width w, doubles: the 27-point (Moore) neighborhood.
TEST(OverlapCombining, HaloOf27PointStencils) {
  for (const auto& [n, w] : {std::pair{2, 1}, std::pair{3, 1}, std::pair{4, 2}, std::pair{5, 2}}) {
    const HaloLayout halo{3, w, n, 8};
    const Offsets offsets = halo.offsets();
    const std::string what = "n " + std::to_string(n) + " w " + std::to_string(w);
    prove(Grid({3, 3, 3}, {true, true, true}), offsets, halo.send_runs(), what + " on a 3x3x3 torus");
    prove(Grid({2, 3, 1}, {true, false, true}), offsets, halo.send_runs(), what + " on a 2x3x1 mixed grid");
    prove(Grid({3, 2, 2}, {false, false, false}), offsets, halo.send_runs(), what + " on a 3x2x2 mesh");
  }
}

TEST(OverlapCombining, HaloOf9PointStencils) {
  for (const auto& [n, w] : {std::pair{1, 1}, std::pair{3, 1}, std::pair{6, 3}}) {
    const HaloLayout halo{2, w, n, 8};
    const std::string what = "n " + std::to_string(n) + " w " + std::to_string(w);
    prove(Grid({4, 3}, {true, true}), halo.offsets(), halo.send_runs(), what + " on a 4x3 torus");
    prove(Grid({4, 3}, {false, true}), halo.offsets(), halo.send_runs(), what + " on a 4x3 cylinder");
    prove(Grid({2, 1}, {true, false}), halo.offsets(), halo.send_runs(), what + " on a 2x1 grid");
  }
}

// 2d messages in d phases; every byte crosses each edge of its part's tree once: for the Moore
// neighborhood as many bytes as the direct exchange sends (each of a byte's blocks ends its own
// edge), and fewer than combining, which forwards whole blocks. cartcoll-plan --halo's figures.
TEST(OverlapCombining, HaloFiguresBeatCombining) {
  for (const auto& [d, n, w] : {std::tuple{3, 4, 1}, std::tuple{3, 8, 2}, std::tuple{3, 16, 1}, std::tuple{2, 8, 1}}) {
    const HaloLayout halo{d, w, n, 8};
    const plan_tool::HaloFigures figures = plan_tool::compute_halo_figures(halo);
    ASSERT_EQ(figures.algorithms.size(), 3u);
    const plan_tool::HaloAlgorithmFigures &direct = figures.algorithms[0], &combining = figures.algorithms[1],
                                          &overlap = figures.algorithms[2];
    EXPECT_EQ(overlap.name, "overlap-combining");
    EXPECT_EQ(overlap.messages, 2 * d);
    EXPECT_EQ(overlap.phases, d);
    EXPECT_EQ(combining.messages, 2 * d);
    const SharedSends shared = *find_shared_sends(halo.send_runs());
    long long must_carry = 0;
    for (const SharedPart& part : shared.parts) must_carry += part.bytes * static_cast<long long>(part.blocks.size());
    EXPECT_EQ(overlap.bytes, must_carry);
    EXPECT_EQ(overlap.bytes, direct.bytes);
    EXPECT_EQ(direct.bytes, figures.block_bytes);
    EXPECT_LT(overlap.bytes, combining.bytes);
    EXPECT_LT(figures.distinct_bytes, figures.block_bytes);
    // Every part waits in a piece: the halo's blocks nest, so no temps.
    const Grid grid(std::vector<int>(static_cast<std::size_t>(d), 3), std::vector<bool>(static_cast<std::size_t>(d), true));
    const Offsets offsets = halo.offsets();
    CartesianView view{grid, offsets, figures.coords};
    view.shared_sends = &shared;
    EXPECT_TRUE(plan(Algorithm::named("overlap-combining"), view, Collective::alltoall).temps.empty());
  }
}

TEST(OverlapCombining, NeedsTheAnalysis) {
  const Grid grid({3}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}, {-1}});
  const std::vector<int> coords{0};
  try {
    static_cast<void>(plan(Algorithm::named("overlap-combining"), {grid, offsets, coords}, Collective::alltoall));
    FAIL() << "planned without the analysis";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), Errc::intern);
  }
  const SharedSends other = *find_shared_sends(std::vector<Runs>{{{0, 1}}, {{0, 2}}, {{1, 1}}});  // three blocks
  CartesianView view{grid, offsets, coords};
  view.shared_sends = &other;
  EXPECT_THROW(plan(Algorithm::named("overlap-combining"), view, Collective::alltoall), Error);
  const PlannerEntry& entry = Algorithm::named("overlap-combining").planner();
  EXPECT_TRUE(entry.plans_shared_sends);
  EXPECT_FALSE(entry.auto_candidate);
  EXPECT_FALSE(entry.serves_allgather);
}

// A temp of a part's bytes: relabelling leaves it alone, and the simulator sizes it so.
TEST(OverlapCombining, BytesTempsKeepTheirShape) {
  Schedule schedule;
  schedule.send_blocks = 2;
  schedule.recv_blocks = 2;
  schedule.temps = {{Buffer::send, 1, 5}, {Buffer::recv, 1}};
  const std::vector<int> order{1, 0};
  const Schedule relabelled = relabel_blocks(schedule, order, order);
  EXPECT_EQ(relabelled.temps[0], (TempBlock{Buffer::send, 1, 5}));
  EXPECT_EQ(relabelled.temps[1], (TempBlock{Buffer::recv, 0}));
  EXPECT_EQ(schedule.shape_of({Buffer::temp, 0}), (BlockRef{Buffer::send, 1}));
  Schedule self;  // rank 0 sends its send block 0 to itself through a temp of 3 bytes
  self.send_blocks = 1;
  self.recv_blocks = 1;
  self.temps = {{Buffer::send, 0, 3}};
  self.phases = {Phase{{{0, {{Buffer::send, 0}}}}, {{0, {{Buffer::temp, 0}}}}, {{{Buffer::temp, 0}, {Buffer::recv, 0}}}}};
  const Bytes three{std::byte{1}, std::byte{2}, std::byte{3}};
  const Blocks out = simulate(std::vector<Schedule>{self}, Blocks{{three}}, Blocks{{Bytes(3)}});
  EXPECT_EQ(out[0][0], three);
  self.temps[0].bytes = 4;
  EXPECT_THROW(simulate(std::vector<Schedule>{self}, Blocks{{three}}, Blocks{{Bytes(3)}}), ScheduleError);
}

}  // namespace
}  // namespace cartcoll
