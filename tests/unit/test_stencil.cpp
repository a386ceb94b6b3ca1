// SPDX-License-Identifier: BSD-3-Clause
// The neighborhood generators (the unified-interfaces paper by Träff, Hunold, Mercier and Holmes,
// Listing 6): the papers' stencils by count and by list, every small shape against the box filtered
// by its norm (src/core/model/neighborhoods.hpp: a different walk), the order, the shadow, sizes far
// beyond what can be listed, and bad shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "cartcoll/stencil.hpp"
#include "throws.hpp"
#include "core/model/neighborhoods.hpp"

namespace cartcoll {
namespace {

using neighborhoods::box;
using neighborhoods::filter;
using neighborhoods::norm1;
using neighborhoods::norm_max;

constexpr Metric manhattan = Metric::manhattan, chebyshev = Metric::chebyshev;

std::vector<int> listed(int d, Metric metric, int shadow, int depth, int max_count = INT_MAX) {
  const Offsets offsets = neighborhood_offsets({d, metric, shadow, depth}, max_count);
  return {offsets.flat().begin(), offsets.flat().end()};
}

int size(int d, Metric metric, int shadow, int depth) { return neighborhood_size({d, metric, shadow, depth}); }

// The oracle: every vector of [-depth, depth]^d in lexicographic order, kept by its norm.
std::vector<int> expected(int d, Metric metric, int shadow, int depth) {
  return filter(box(d, 2 * depth + 1, -depth, true), d, [&](const std::vector<int>& v) {
    const int distance = metric == manhattan ? norm1(v) : norm_max(v);
    return distance >= shadow && distance <= depth;
  });
}

TEST(Stencil, ThePapersStencilsHaveTheirSizes) {
  EXPECT_EQ(size(2, manhattan, 1, 1), 4);    // von Neumann
  EXPECT_EQ(size(2, manhattan, 0, 1), 5);    // 5-point, D2Q5
  EXPECT_EQ(size(2, manhattan, 1, 2), 12);
  EXPECT_EQ(size(2, manhattan, 0, 2), 13);   // 13-point
  EXPECT_EQ(size(3, manhattan, 0, 1), 7);    // 7-point, D3Q7
  EXPECT_EQ(size(3, manhattan, 1, 1), 6);
  EXPECT_EQ(size(2, chebyshev, 0, 1), 9);    // D2Q9
  EXPECT_EQ(size(2, chebyshev, 1, 1), 8);    // Moore, Game of Life (the unified-interfaces paper, Listing 7)
  EXPECT_EQ(size(3, chebyshev, 0, 1), 27);   // D3Q27
  EXPECT_EQ(size(2, chebyshev, 0, 2), 25);   // Moore of depth 2
  EXPECT_EQ(size(2, chebyshev, 1, 2), 24);
  EXPECT_EQ(size(1, manhattan, 1, 3), 6);
  for (const auto& [d, metric, shadow, depth] :
       std::vector<std::tuple<int, Metric, int, int>>{{2, manhattan, 1, 1}, {2, manhattan, 0, 2}, {3, manhattan, 0, 1},
                                                      {2, chebyshev, 0, 1}, {3, chebyshev, 0, 1}, {2, chebyshev, 0, 2}})
    EXPECT_EQ(listed(d, metric, shadow, depth).size(), static_cast<std::size_t>(size(d, metric, shadow, depth) * d));
}

TEST(Stencil, ListsInLexicographicOrderFirstCoordinateSlowest) {
  EXPECT_EQ(listed(2, manhattan, 1, 1), (std::vector<int>{-1, 0, 0, -1, 0, 1, 1, 0}));
  EXPECT_EQ(listed(2, manhattan, 0, 1), (std::vector<int>{-1, 0, 0, -1, 0, 0, 0, 1, 1, 0}));
  EXPECT_EQ(listed(2, chebyshev, 1, 1), (std::vector<int>{-1, -1, -1, 0, -1, 1, 0, -1, 0, 1, 1, -1, 1, 0, 1, 1}));
  EXPECT_EQ(listed(2, manhattan, 0, 2),
            (std::vector<int>{-2, 0, -1, -1, -1, 0, -1, 1, 0, -2, 0, -1, 0, 0, 0, 1, 0, 2, 1, -1, 1, 0, 1, 1, 2, 0}));
  EXPECT_EQ(listed(3, manhattan, 1, 1), (std::vector<int>{-1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 1, 0, 1, 0, 1, 0, 0}));
}

TEST(Stencil, EverySmallShapeIsTheBoxFilteredByItsNorm) {
  for (int d = 1; d <= 4; ++d)
    for (Metric metric : {manhattan, chebyshev})
      for (int depth = 0; depth <= (d <= 2 ? 4 : 2); ++depth)
        for (int shadow = 0; shadow <= depth + 1; ++shadow) {
          SCOPED_TRACE(testing::Message() << "d=" << d << " metric=" << static_cast<int>(metric) << " shadow=" << shadow
                                          << " depth=" << depth);
          const std::vector<int> all = expected(d, metric, shadow, depth);
          EXPECT_EQ(listed(d, metric, shadow, depth), all);
          EXPECT_EQ(static_cast<std::size_t>(size(d, metric, shadow, depth) * d), all.size());
        }
}

TEST(Stencil, ShadowLeavesOutTheInnerBall) {
  // Shadow 1 drops exactly the zero vector; shadow == depth is the shell; shadow > depth nothing.
  const std::vector<int> with_zero = listed(3, chebyshev, 0, 2);
  std::vector<int> all_but_zero;
  for (std::size_t i = 0; i < with_zero.size(); i += 3)
    if (with_zero[i] != 0 || with_zero[i + 1] != 0 || with_zero[i + 2] != 0)
      all_but_zero.insert(all_but_zero.end(), with_zero.begin() + static_cast<long>(i),
                          with_zero.begin() + static_cast<long>(i + 3));
  EXPECT_EQ(all_but_zero.size() + 3, with_zero.size());
  EXPECT_EQ(listed(3, chebyshev, 1, 2), all_but_zero);
  const std::vector<int> shell = listed(2, manhattan, 3, 3);
  ASSERT_EQ(shell.size(), 2u * 12u);  // 4 * depth offsets at Manhattan distance exactly 3
  for (std::size_t i = 0; i < shell.size(); i += 2) EXPECT_EQ(std::abs(shell[i]) + std::abs(shell[i + 1]), 3);
  EXPECT_EQ(size(2, chebyshev, 3, 2), 0);
  EXPECT_TRUE(listed(2, chebyshev, 3, 2).empty());
  EXPECT_EQ(listed(2, manhattan, 0, 0), (std::vector<int>{0, 0}));
}

TEST(Stencil, MaxCountGivesTheFirstOffsets) {
  const std::vector<int> all = listed(3, chebyshev, 1, 1);
  for (int max_count : {0, 1, 5, 25, 26, 27, 1000}) {
    const std::size_t kept = static_cast<std::size_t>(std::min(max_count, 26)) * 3;
    EXPECT_EQ(listed(3, chebyshev, 1, 1, max_count), std::vector<int>(all.begin(), all.begin() + static_cast<long>(kept)));
  }
}

TEST(Stencil, SizesAreComputedWithoutListingUpToIntMax) {
  EXPECT_EQ(size(2, manhattan, 0, 30000), 2 * 30000 * 30000 + 2 * 30000 + 1);
  EXPECT_EQ(size(3, manhattan, 20000, 20000), 4 * 20000 * 20000 + 2);  // a shell whose ball does not fit
  EXPECT_EQ(size(1, chebyshev, 0, INT_MAX / 2), INT_MAX);
  EXPECT_EQ(size(19, chebyshev, 0, 1), 1162261467);  // 3^19
  EXPECT_EQ(size(100000, manhattan, 1, 1), 200000);
  EXPECT_TRUE(throws_error([] { size(1, chebyshev, 0, INT_MAX / 2 + 1); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { size(20, chebyshev, 0, 1); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { size(3, manhattan, 0, 30000); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { size(64, manhattan, 0, INT_MAX); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { size(INT_MAX, chebyshev, 1, INT_MAX); }, Errc::arg));
}

TEST(Stencil, ManyDimensionsAreListedWithoutDeepRecursion) {
  EXPECT_EQ(listed(1000000, chebyshev, 0, 0), std::vector<int>(1000000, 0));
  const int d = 500;
  // -e0, -e1, ..., -e(d-1), +e(d-1), ..., +e0: the unit vectors in lexicographic order.
  const std::vector<int> units = listed(d, manhattan, 1, 1);
  ASSERT_EQ(units.size(), static_cast<std::size_t>(2 * d * d));
  for (int i = 0; i < 2 * d; ++i) {
    const int axis = i < d ? i : 2 * d - 1 - i, sign = i < d ? -1 : 1;
    for (int k = 0; k < d; ++k)
      ASSERT_EQ(units[static_cast<std::size_t>(i * d + k)], k == axis ? sign : 0) << "offset " << i << " coordinate " << k;
  }
}

TEST(Stencil, RejectsBadShapes) {
  EXPECT_TRUE(throws_error([] { size(0, manhattan, 0, 1); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { size(-2, chebyshev, 0, 1); }, Errc::dims));
  EXPECT_TRUE(throws_error([] { size(2, manhattan, -1, 1); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { size(2, manhattan, 0, -1); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { size(2, static_cast<Metric>(7), 0, 1); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { listed(2, manhattan, 0, 1, -1); }, Errc::arg));
  EXPECT_TRUE(throws_error([] { listed(2, manhattan, -1, 1); }, Errc::arg));
}

}  // namespace
}  // namespace cartcoll
