// SPDX-License-Identifier: BSD-3-Clause
// The reference model on small cases whose results were worked out by hand.
// Conventions: send block i of rank r holds 10 r + i (alltoall); receive block i of rank r starts as
// 200 + 10 r + i, so a block left untouched is recognisable.
#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#include "core/simulation/reference.hpp"
#include "test_support.hpp"

namespace cartcoll {
namespace {

using reference::Blocks;
using reference::Bytes;
using test::same_blocks;

Bytes b(std::initializer_list<int> values) { return test::bytes(values); }

// One one-byte block per (rank, block): 10 r + i (send) or 200 + 10 r + i (receive).
Blocks numbered(int p, int t, int base) {
  Blocks blocks(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < t; ++i) blocks[static_cast<std::size_t>(r)].push_back(b({base + 10 * r + i}));
  return blocks;
}

Blocks run(const Grid& grid, const Offsets& offsets, Collective collective, const Blocks& send, const Blocks& recv) {
  return reference::exchange(grid, offsets, collective, send, recv);
}

TEST(Reference, RingPlusOne) {
  const Grid grid({4}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}});
  const Blocks send{{b({1, 2})}, {b({3, 4})}, {b({5, 6})}, {b({7, 8})}};
  const Blocks recv{{b({90, 91})}, {b({92, 93})}, {b({94, 95})}, {b({96, 97})}};
  const Blocks expected{{b({7, 8})}, {b({1, 2})}, {b({3, 4})}, {b({5, 6})}};
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, send, recv), expected));
}

TEST(Reference, RingMinusOneAndLargeOffsets) {
  // Ring of 4; offsets -1, +5 (= +1), -6 (= +2), +4 (= 0).
  const Grid grid({4}, {true});
  const Offsets offsets = Offsets::from_list(1, {{-1}, {5}, {-6}, {4}});
  const Blocks expected{
      {b({10}), b({31}), b({22}), b({3})},
      {b({20}), b({1}), b({32}), b({13})},
      {b({30}), b({11}), b({2}), b({23})},
      {b({0}), b({21}), b({12}), b({33})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, numbered(4, 4, 0), numbered(4, 4, 200)), expected));
}

TEST(Reference, LineLeavesEndUntouched) {
  const Grid grid({4}, {false});
  const Offsets offsets = Offsets::from_list(1, {{1}});
  const Blocks send{{b({1, 2})}, {b({3, 4})}, {b({5, 6})}, {b({7, 8})}};
  const Blocks recv{{b({90, 91})}, {b({92, 93})}, {b({94, 95})}, {b({96, 97})}};
  const Blocks expected{{b({90, 91})}, {b({1, 2})}, {b({3, 4})}, {b({5, 6})}};
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, send, recv), expected));
}

TEST(Reference, LineBothDirections) {
  const Grid grid({3}, {false});
  const Offsets offsets = Offsets::from_list(1, {{1}, {-1}});
  const Blocks expected{
      {b({200}), b({11})},
      {b({0}), b({21})},
      {b({10}), b({221})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, numbered(3, 2, 0), numbered(3, 2, 200)), expected));
}

TEST(Reference, RepeatedOffsets) {
  // Ring of 3; +1, +1 and -2 (= +1) all come from r - 1, each carrying its own block.
  const Grid grid({3}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}, {1}, {-2}});
  const Blocks expected{
      {b({20}), b({21}), b({22})},
      {b({0}), b({1}), b({2})},
      {b({10}), b({11}), b({12})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, numbered(3, 3, 0), numbered(3, 3, 200)), expected));
}

TEST(Reference, ZeroOffset) {
  const Grid grid({2}, {false});
  const Offsets offsets = Offsets::from_list(1, {{0}, {1}});
  const Blocks expected{
      {b({0}), b({201})},
      {b({10}), b({1})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, numbered(2, 2, 0), numbered(2, 2, 200)), expected));
}

TEST(Reference, DimensionOfSizeOne) {
  const Offsets offsets = Offsets::from_list(1, {{1}, {-3}, {0}, {2}});
  // Periodic: every offset wraps onto the process itself.
  EXPECT_TRUE(same_blocks(run(Grid({1}, {true}), offsets, Collective::alltoall, numbered(1, 4, 0), numbered(1, 4, 200)),
                          (Blocks{{b({0}), b({1}), b({2}), b({3})}})));
  // Non-periodic: only the zero offset has a peer (the process itself).
  EXPECT_TRUE(same_blocks(run(Grid({1}, {false}), offsets, Collective::alltoall, numbered(1, 4, 0), numbered(1, 4, 200)),
                          (Blocks{{b({200}), b({201}), b({2}), b({203})}})));
}

TEST(Reference, DimensionOfSizeTwo) {
  const Grid grid({2}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}, {-1}, {2}, {3}});
  const Blocks expected{
      {b({10}), b({11}), b({2}), b({13})},
      {b({0}), b({1}), b({12}), b({3})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, numbered(2, 4, 0), numbered(2, 4, 200)), expected));
}

TEST(Reference, TwoDimensionsMixedPeriodicity) {
  // 2 x 3, dimension 0 a mesh, dimension 1 a ring. Ranks: (0,0)=0 (0,1)=1 (0,2)=2 (1,0)=3 (1,1)=4 (1,2)=5.
  const Grid grid({2, 3}, {false, true});
  const Offsets offsets = Offsets::from_list(2, {{1, 0}, {0, 1}, {1, -1}});
  const Blocks expected{
      {b({200}), b({21}), b({202})},
      {b({210}), b({1}), b({212})},
      {b({220}), b({11}), b({222})},
      {b({0}), b({51}), b({12})},
      {b({10}), b({31}), b({22})},
      {b({20}), b({41}), b({2})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, numbered(6, 3, 0), numbered(6, 3, 200)), expected));
}

TEST(Reference, AllgatherRing) {
  const Grid grid({3}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}, {-1}, {0}, {1}});
  const Blocks send{{b({50, 60})}, {b({51, 61})}, {b({52, 62})}};
  Blocks recv(3);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < 4; ++i) recv[static_cast<std::size_t>(r)].push_back(b({200 + 10 * r + i, 0}));
  const Blocks expected{
      {b({52, 62}), b({51, 61}), b({50, 60}), b({52, 62})},
      {b({50, 60}), b({52, 62}), b({51, 61}), b({50, 60})},
      {b({51, 61}), b({50, 60}), b({52, 62}), b({51, 61})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::allgather, send, recv), expected));
}

TEST(Reference, AllgatherLine) {
  const Grid grid({3}, {false});
  const Offsets offsets = Offsets::from_list(1, {{1}, {-1}});
  const Blocks send{{b({50})}, {b({51})}, {b({52})}};
  const Blocks expected{
      {b({200}), b({51})},
      {b({50}), b({52})},
      {b({51}), b({221})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::allgather, send, numbered(3, 2, 200)), expected));
}

TEST(Reference, BlockSizesVaryPerBlock) {
  // Ring of 3, offsets +1, -1, 0 with blocks of 2, 0 and 1 bytes.
  const Grid grid({3}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}, {-1}, {0}});
  const Blocks send{{b({1, 2}), b({}), b({7})}, {b({3, 4}), b({}), b({8})}, {b({5, 6}), b({}), b({9})}};
  const Blocks recv{{b({90, 90}), b({}), b({90})}, {b({91, 91}), b({}), b({91})}, {b({92, 92}), b({}), b({92})}};
  const Blocks expected{
      {b({5, 6}), b({}), b({7})},
      {b({1, 2}), b({}), b({8})},
      {b({3, 4}), b({}), b({9})},
  };
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, send, recv), expected));
}

TEST(Reference, NoOffsets) {
  const Grid grid({3}, {true});
  const Offsets offsets(1, {});
  const Blocks recv(3);
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::alltoall, Blocks(3), recv), Blocks(3)));
  EXPECT_TRUE(same_blocks(run(grid, offsets, Collective::allgather, Blocks{{b({1})}, {b({2})}, {b({3})}}, recv),
                          Blocks(3)));
}

TEST(Reference, RejectsMismatchedBlockSizes) {
  const Grid grid({2}, {true});
  const Offsets offsets = Offsets::from_list(1, {{1}});
  const Blocks send{{b({1, 2})}, {b({3, 4})}};
  const Blocks recv{{b({9})}, {b({9})}};
  EXPECT_ANY_THROW(run(grid, offsets, Collective::alltoall, send, recv));
}

}  // namespace
}  // namespace cartcoll
