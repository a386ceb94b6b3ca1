// SPDX-License-Identifier: BSD-3-Clause
// CartesianNaming (MPI-free): ranks and coordinates in both orders, wrapping and leaving the mesh,
// relative ranks and coordinates, sub-grids. The oracle numbers the grid by counting through it (an
// odometer), not by Grid's arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "cartcoll/cartesian_naming.hpp"
#include "../naming_oracle.hpp"
#include "throws.hpp"

namespace cartcoll {
namespace {

using test::Coordinates;
using test::NamedGrid;
using test::RankTable;

struct Case {
  std::vector<int> dims;
  std::vector<bool> periods;
};

std::vector<Case> cases() {
  return {{{1}, {false}},
          {{5}, {true}},
          {{6}, {false}},
          {{2, 3}, {true, false}},
          {{4, 4}, {true, true}},
          {{3, 1, 2}, {false, true, true}},
          {{2, 3, 4}, {false, false, false}},
          {{1, 2, 1, 3}, {true, false, true, true}}};
}

// Every case in both orders: the naming and the oracle's table.
template <typename Check>
void for_each_naming(const Check& check) {
  for (const Case& grid : cases())
    for (DimOrder order : {DimOrder::row_major, DimOrder::column_major}) {
      SCOPED_TRACE(testing::Message() << "grid of " << grid.dims.size() << " dimensions, size " << grid.dims[0]
                                      << "..., " << (order == DimOrder::row_major ? "row" : "column") << "-major");
      const CartesianNaming naming(grid.dims, grid.periods, order);
      check(naming, RankTable(NamedGrid{grid.dims, grid.periods, order == DimOrder::row_major}));
    }
}

// Every position and beyond, either way.
std::vector<Coordinates> vectors_around(const CartesianNaming& naming) {
  return test::vectors_within(std::vector<int>(naming.dims().begin(), naming.dims().end()));
}

TEST(CartesianNaming, RanksAndCoordinatesCountThroughTheGridInEitherOrder) {
  for_each_naming([](const CartesianNaming& naming, const RankTable& table) {
    ASSERT_EQ(naming.size(), table.size());
    for (int rank = 0; rank < naming.size(); ++rank) {
      EXPECT_EQ(naming.coordinates(rank), table.position(rank));
      EXPECT_EQ(naming.rank(table.position(rank)), rank);
    }
  });
}

TEST(CartesianNaming, PeriodicCoordinatesWrapAndOthersLeaveTheGrid) {
  for_each_naming([](const CartesianNaming& naming, const RankTable& table) {
    for (const Coordinates& at : vectors_around(naming)) EXPECT_EQ(naming.rank(at), table.rank(at));
  });
}

TEST(CartesianNaming, RelativeRanksAddTheVectorToTheSource) {
  for_each_naming([](const CartesianNaming& naming, const RankTable& table) {
    for (int source = 0; source < naming.size(); ++source)
      for (const Coordinates& v : vectors_around(naming)) {
        EXPECT_EQ(naming.relative_rank(source, v), table.relative(source, v));
        EXPECT_EQ(naming.relative_rank(source, v, -1), table.relative(source, v, -1));
      }
  });
}

TEST(CartesianNaming, RelativeCoordinatesLeadToTheDestinationAndAreTheSameFromEverySource) {
  for_each_naming([](const CartesianNaming& naming, const RankTable& table) {
    for (int source = 0; source < naming.size(); ++source)
      for (int dest = 0; dest < naming.size(); ++dest) {
        const Coordinates relative = naming.relative_coordinates(source, dest);
        EXPECT_EQ(table.relative(source, relative), dest);
        for (int k = 0; k < naming.ndims(); ++k) {
          const auto at = static_cast<std::size_t>(k);
          const int n = naming.dims()[at];
          if (naming.periods()[at]) {
            EXPECT_GT(2 * relative[at], -n);
            EXPECT_LE(2 * relative[at], n);
          } else {
            EXPECT_EQ(relative[at], table.position(dest)[at] - table.position(source)[at]);
          }
        }
      }
    // On a torus one offset is one vector, wherever it starts.
    const auto& periods = naming.periods();
    if (std::find(periods.begin(), periods.end(), false) != periods.end()) return;
    for (const Coordinates& v : vectors_around(naming)) {
      const Coordinates first = naming.relative_coordinates(0, *table.relative(0, v));
      for (int source = 1; source < naming.size(); ++source)
        EXPECT_EQ(naming.relative_coordinates(source, *table.relative(source, v)), first);
    }
  });
}

TEST(CartesianNaming, TorusTiesGoToThePositiveHalf) {
  const CartesianNaming ring({4}, {true}, DimOrder::row_major);
  EXPECT_EQ(ring.relative_coordinates(0, 2), Coordinates{2});
  EXPECT_EQ(ring.relative_coordinates(3, 1), Coordinates{2});
  EXPECT_EQ(ring.relative_coordinates(0, 3), Coordinates{-1});
  const CartesianNaming mesh({4}, {false}, DimOrder::row_major);
  EXPECT_EQ(mesh.relative_coordinates(0, 3), Coordinates{3});
  EXPECT_EQ(mesh.relative_coordinates(3, 0), Coordinates{-3});
}

TEST(CartesianNaming, SubgridsShareTheExcludedCoordinates) {
  for_each_naming([](const CartesianNaming& naming, const RankTable& table) {
    const auto d = static_cast<std::size_t>(naming.ndims());
    for (unsigned mask = 0; mask < (1u << d); ++mask) {
      std::vector<bool> excluded(d);
      for (std::size_t k = 0; k < d; ++k) excluded[k] = (mask >> k) & 1u;
      for (int a = 0; a < naming.size(); ++a)
        for (int b = 0; b < naming.size(); ++b) {
          bool same = true;
          for (std::size_t k = 0; k < d; ++k)
            if (excluded[k] && table.position(a)[k] != table.position(b)[k]) same = false;
          EXPECT_EQ(naming.subgrid_of(a, excluded) == naming.subgrid_of(b, excluded), same);
        }
      // Named by its first rank: the one with coordinate 0 in every kept dimension.
      for (int a = 0; a < naming.size(); ++a) {
        const int first = naming.subgrid_of(a, excluded);
        for (std::size_t k = 0; k < d; ++k) EXPECT_EQ(table.position(first)[k], excluded[k] ? table.position(a)[k] : 0);
      }
    }
  });
}

TEST(CartesianNaming, RanksWithoutANameAndWrongLengths) {
  const CartesianNaming naming({2, 3}, {true, false}, DimOrder::column_major);
  EXPECT_FALSE(naming.has_name(6));
  EXPECT_FALSE(naming.has_name(-1));
  EXPECT_TRUE(throws_error([&] { naming.coordinates(6); }, Errc::rank));
  EXPECT_TRUE(throws_error([&] { naming.coordinates(-2); }, Errc::rank));
  EXPECT_TRUE(throws_error([&] { naming.relative_coordinates(0, 6); }, Errc::rank));
  EXPECT_TRUE(throws_error([&] { naming.relative_coordinates(7, 0); }, Errc::rank));
  EXPECT_TRUE(throws_error([&] { naming.subgrid_of(6, {true, false}); }, Errc::rank));
  EXPECT_EQ(naming.relative_rank(6, Coordinates{0, 0}), std::nullopt);
  EXPECT_EQ(naming.relative_rank(-1, Coordinates{1, 0}), std::nullopt);
  EXPECT_TRUE(throws_error([&] { naming.rank(Coordinates{0}); }, Errc::arg));
  EXPECT_TRUE(throws_error([&] { naming.relative_rank(0, Coordinates{0, 0, 0}); }, Errc::arg));
  EXPECT_TRUE(throws_error([&] { naming.subgrid_of(0, {true}); }, Errc::arg));
}

TEST(CartesianNaming, RejectsBadGrids) {
  EXPECT_TRUE(throws_error([] { CartesianNaming({}, {}, DimOrder::row_major); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { CartesianNaming({2, 0}, {false, false}, DimOrder::row_major); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { CartesianNaming({-4}, {true}, DimOrder::column_major); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { CartesianNaming({65536, 65536}, {true, true}, DimOrder::row_major); }, Errc::dims));
  const CartesianNaming kept({3, 2}, {false, true}, DimOrder::column_major);
  EXPECT_EQ(std::vector<int>(kept.dims().begin(), kept.dims().end()), (std::vector<int>{3, 2}));
  EXPECT_EQ(kept.periods(), (std::vector<bool>{false, true}));
  EXPECT_EQ(kept.order(), DimOrder::column_major);
  EXPECT_EQ(kept.ndims(), 2);
}

}  // namespace
}  // namespace cartcoll
