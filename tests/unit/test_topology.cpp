// SPDX-License-Identifier: BSD-3-Clause
// Grid, Offsets and peers_of: validation, row-major numbering, shifts on tori and meshes.
#include <gtest/gtest.h>

#include <climits>
#include <optional>
#include <vector>

#include "cartcoll/error.hpp"
#include "cartcoll/topology.hpp"
#include "throws.hpp"

namespace cartcoll {
namespace {

std::optional<int> shift1(const Grid& grid, int coord, int offset, int sign = +1) {
  const int coords[] = {coord};
  const int off[] = {offset};
  return grid.shift(coords, off, sign);
}

TEST(Grid, RejectsBadDimensions) {
  EXPECT_TRUE(throws_error([] { Grid({}, {}); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { Grid({0}, {true}); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { Grid({-3}, {false}); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { Grid({4, 0, 2}, {true, true, true}); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { Grid({4, 2, -1}, {false, true, false}); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { Grid({INT_MIN}, {true}); }, Errc::dims));
}

TEST(Grid, RejectsSizeOverflowingInt) {
  EXPECT_TRUE(throws_error([] { Grid({46341, 46341}, {true, true}); }, Errc::dims));  // 2147488281 > INT_MAX
  EXPECT_TRUE(throws_error([] { Grid({INT_MAX, 2}, {true, true}); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { Grid({65536, 65536, 65536, 65536}, {true, true, true, true}); }, Errc::dims));
  EXPECT_NO_THROW(Grid({46340, 46340}, {true, true}));  // 2147395600 fits
  EXPECT_NO_THROW(Grid({INT_MAX}, {false}));
}

TEST(Grid, RejectsPeriodsOfWrongLength) {
  EXPECT_THROW(Grid({2, 2}, {true}), Error);
  EXPECT_THROW(Grid({2}, {true, false}), Error);
}

TEST(Grid, Accessors) {
  const Grid grid({2, 3, 4}, {true, false, true});
  EXPECT_EQ(grid.ndims(), 3);
  EXPECT_EQ(grid.size(), 24);
  EXPECT_EQ(std::vector<int>(grid.dims().begin(), grid.dims().end()), (std::vector<int>{2, 3, 4}));
  EXPECT_TRUE(grid.periodic(0));
  EXPECT_FALSE(grid.periodic(1));
  EXPECT_TRUE(grid.periodic(2));
  EXPECT_EQ(grid.periods(), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(Grid({1}, {false}).size(), 1);
  EXPECT_EQ(grid, Grid({2, 3, 4}, {true, false, true}));
  EXPECT_NE(grid, Grid({2, 3, 4}, {true, true, true}));
  EXPECT_NE(grid, Grid({2, 4, 3}, {true, false, true}));
}

TEST(Grid, RowMajorNumbering) {
  const Grid grid({2, 3, 4}, {false, false, false});
  // Hand-checked: the last coordinate varies fastest, as in MPI_Cart_create.
  EXPECT_EQ(grid.coords_of(0), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(grid.coords_of(1), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(grid.coords_of(3), (std::vector<int>{0, 0, 3}));
  EXPECT_EQ(grid.coords_of(4), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(grid.coords_of(11), (std::vector<int>{0, 2, 3}));
  EXPECT_EQ(grid.coords_of(12), (std::vector<int>{1, 0, 0}));
  EXPECT_EQ(grid.coords_of(17), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(grid.coords_of(23), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(grid.rank_of(std::vector<int>{1, 2, 0}), 20);
  EXPECT_EQ(grid.rank_of(std::vector<int>{0, 1, 3}), 7);

  // Round trip over all ranks, and ranks enumerate coordinates in lexicographic order.
  std::vector<int> expected{0, 0, 0};
  for (int rank = 0; rank < grid.size(); ++rank) {
    const std::vector<int> coords = grid.coords_of(rank);
    EXPECT_EQ(coords, expected) << "rank " << rank;
    EXPECT_EQ(grid.rank_of(coords), rank);
    for (int k = 2; k >= 0; --k) {  // odometer increment
      if (++expected[static_cast<std::size_t>(k)] < grid.dims()[static_cast<std::size_t>(k)]) break;
      expected[static_cast<std::size_t>(k)] = 0;
    }
  }
}

TEST(Grid, RoundTripVariousShapes) {
  for (const std::vector<int>& dims : {std::vector<int>{7}, std::vector<int>{1, 5}, std::vector<int>{3, 1, 2},
                                       std::vector<int>{2, 2, 2, 2, 3}, std::vector<int>{64, 64}}) {
    const Grid grid(dims, std::vector<bool>(dims.size(), true));
    for (int rank = 0; rank < grid.size(); ++rank) {
      const std::vector<int> coords = grid.coords_of(rank);
      ASSERT_EQ(coords.size(), dims.size());
      for (std::size_t k = 0; k < dims.size(); ++k) {
        ASSERT_GE(coords[k], 0);
        ASSERT_LT(coords[k], dims[k]);
      }
      ASSERT_EQ(grid.rank_of(coords), rank);
    }
  }
}

TEST(Grid, ShiftPeriodic) {
  const Grid ring({5}, {true});
  EXPECT_EQ(shift1(ring, 0, +1), 1);
  EXPECT_EQ(shift1(ring, 4, +1), 0);
  EXPECT_EQ(shift1(ring, 0, -1), 4);
  EXPECT_EQ(shift1(ring, 2, -4), 3);
  EXPECT_EQ(shift1(ring, 0, +7), 2);    // larger than the dimension
  EXPECT_EQ(shift1(ring, 0, -12), 3);   // -12 = 3 mod 5
  EXPECT_EQ(shift1(ring, 3, +10), 3);   // a multiple of the dimension lands on the process itself
  EXPECT_EQ(shift1(ring, 3, 0), 3);
  EXPECT_EQ(shift1(ring, 0, +1, -1), 4);  // sign -1: the source
  EXPECT_EQ(shift1(ring, 1, -7, -1), 3);  // 1 + 7 = 8 = 3 mod 5
  // No overflow near the int limits: (4 + INT_MAX) mod 5 = 1, (0 + 2^31) mod 5 = 3.
  EXPECT_EQ(shift1(ring, 4, INT_MAX), 1);
  EXPECT_EQ(shift1(ring, 0, INT_MIN, -1), 3);
  EXPECT_EQ(shift1(ring, 0, INT_MIN), 2);  // -2^31 mod 5 = 2

  const Grid one({1}, {true});
  for (int offset : {-5, -1, 0, 1, 2, 9}) EXPECT_EQ(shift1(one, 0, offset), 0) << offset;

  const Grid two({2}, {true});
  EXPECT_EQ(shift1(two, 0, +1), 1);
  EXPECT_EQ(shift1(two, 0, -1), 1);
  EXPECT_EQ(shift1(two, 1, +1), 0);
  EXPECT_EQ(shift1(two, 1, -1), 0);
  EXPECT_EQ(shift1(two, 0, +2), 0);
  EXPECT_EQ(shift1(two, 1, +3), 0);
  EXPECT_EQ(shift1(two, 1, -4), 1);
}

TEST(Grid, ShiftNonPeriodic) {
  const Grid line({4}, {false});
  EXPECT_EQ(shift1(line, 0, +1), 1);
  EXPECT_EQ(shift1(line, 3, +1), std::nullopt);
  EXPECT_EQ(shift1(line, 0, -1), std::nullopt);
  EXPECT_EQ(shift1(line, 3, -3), 0);
  EXPECT_EQ(shift1(line, 3, -4), std::nullopt);
  EXPECT_EQ(shift1(line, 1, +2), 3);
  EXPECT_EQ(shift1(line, 1, +5), std::nullopt);  // no wrap
  EXPECT_EQ(shift1(line, 2, 0), 2);
  EXPECT_EQ(shift1(line, 0, +1, -1), std::nullopt);
  EXPECT_EQ(shift1(line, 0, -3, -1), 3);
  EXPECT_EQ(shift1(line, 0, INT_MAX), std::nullopt);
  EXPECT_EQ(shift1(line, 3, INT_MIN), std::nullopt);
  EXPECT_EQ(shift1(line, 0, INT_MIN, -1), std::nullopt);

  const Grid one({1}, {false});
  EXPECT_EQ(shift1(one, 0, 0), 0);
  EXPECT_EQ(shift1(one, 0, +1), std::nullopt);
  EXPECT_EQ(shift1(one, 0, -1), std::nullopt);
}

TEST(Grid, ShiftMixed) {
  // 3 x 4, periodic in dimension 0 only. Rank = 4 * row + column.
  const Grid grid({3, 4}, {true, false});
  const std::vector<int> corner{2, 3};  // rank 11
  EXPECT_EQ(grid.shift(corner, std::vector<int>{1, 0}, +1), 3);    // (0, 3)
  EXPECT_EQ(grid.shift(corner, std::vector<int>{1, -3}, +1), 0);   // (0, 0)
  EXPECT_EQ(grid.shift(corner, std::vector<int>{0, 1}, +1), std::nullopt);
  EXPECT_EQ(grid.shift(corner, std::vector<int>{-5, -1}, +1), 2);  // (2-5 = 0 mod 3, 2)
  EXPECT_EQ(grid.shift(corner, std::vector<int>{4, -2}, -1), std::nullopt);
  EXPECT_EQ(grid.shift(corner, std::vector<int>{4, 2}, -1), 5);   // (2-4 = 1 mod 3, 1)
  EXPECT_EQ(grid.shift(corner, std::vector<int>{0, 0}, +1), 11);
}

TEST(Offsets, FromListAndAccess) {
  const Offsets offsets = Offsets::from_list(2, {{1, 0}, {0, -1}, {0, 0}, {-3, 7}, {1, 0}});
  EXPECT_EQ(offsets.ndims(), 2);
  EXPECT_EQ(offsets.count(), 5);
  EXPECT_EQ(std::vector<int>(offsets[1].begin(), offsets[1].end()), (std::vector<int>{0, -1}));
  EXPECT_EQ(std::vector<int>(offsets[3].begin(), offsets[3].end()), (std::vector<int>{-3, 7}));
  EXPECT_EQ(std::vector<int>(offsets.flat().begin(), offsets.flat().end()),
            (std::vector<int>{1, 0, 0, -1, 0, 0, -3, 7, 1, 0}));
  EXPECT_FALSE(offsets.is_zero(0));
  EXPECT_FALSE(offsets.is_zero(1));
  EXPECT_TRUE(offsets.is_zero(2));
  EXPECT_FALSE(offsets.is_zero(3));
  EXPECT_EQ(offsets, Offsets(2, {1, 0, 0, -1, 0, 0, -3, 7, 1, 0}));
  EXPECT_NE(offsets, Offsets(2, {1, 0, 0, -1, 0, 0, 7, -3, 1, 0}));

  const Offsets empty = Offsets::from_list(3, {});
  EXPECT_EQ(empty.count(), 0);
  EXPECT_EQ(empty.ndims(), 3);
  EXPECT_TRUE(Offsets(1, {0}).is_zero(0));
  EXPECT_FALSE(Offsets(3, {0, 0, 1}).is_zero(0));
}

TEST(Offsets, RejectsBadLength) {
  EXPECT_TRUE(throws_error([] { Offsets::from_list(2, {{1, 0}, {1}}); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { Offsets::from_list(2, {{1, 0, 0}}); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { Offsets::from_list(2, {{1}, {1}}); }, Errc::arg));  // flat length 2 would fit
  EXPECT_TRUE(throws_error([] { Offsets::from_list(1, {{}}); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { Offsets(2, {1, 0, 1}); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { Offsets(3, {1, 0}); }, Errc::arg));
  EXPECT_THROW(Offsets(0, {}), Error);
  EXPECT_THROW(Offsets(-1, {1}), Error);
}

TEST(Peers, OnAMeshAndATorus) {
  const Offsets offsets = Offsets::from_list(2, {{1, 0}, {0, 1}, {-1, 0}, {0, 0}, {2, -1}});
  // 3 x 3 mesh: rank = 3 * row + column; corner (0, 0).
  const Grid mesh({3, 3}, {false, false});
  const Peers corner = peers_of(mesh, offsets, std::vector<int>{0, 0});
  EXPECT_EQ(corner.targets, (std::vector<std::optional<int>>{3, 1, std::nullopt, 0, std::nullopt}));
  EXPECT_EQ(corner.sources, (std::vector<std::optional<int>>{std::nullopt, std::nullopt, 3, 0, std::nullopt}));
  const Peers centre = peers_of(mesh, offsets, std::vector<int>{1, 1});
  EXPECT_EQ(centre.targets, (std::vector<std::optional<int>>{7, 5, 1, 4, std::nullopt}));
  EXPECT_EQ(centre.sources, (std::vector<std::optional<int>>{1, 3, 7, 4, std::nullopt}));
  // Same offsets on the 3 x 3 torus.
  const Grid torus({3, 3}, {true, true});
  const Peers wrapped = peers_of(torus, offsets, std::vector<int>{0, 0});
  EXPECT_EQ(wrapped.targets, (std::vector<std::optional<int>>{3, 1, 6, 0, 8}));  // (2,-1) -> (2,2)
  EXPECT_EQ(wrapped.sources, (std::vector<std::optional<int>>{6, 2, 3, 0, 4}));  // (-2,1) -> (1,1)
  const Peers none = peers_of(torus, Offsets(2, {}), std::vector<int>{1, 2});
  EXPECT_TRUE(none.targets.empty());
  EXPECT_TRUE(none.sources.empty());
}

}  // namespace
}  // namespace cartcoll
