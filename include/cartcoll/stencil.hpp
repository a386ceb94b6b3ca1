// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Neighborhood generators (the unified-interfaces paper by Träff, Hunold, Mercier and Holmes,
// Listing 6): the stencil offsets around a process, as plain data (no MPI).
// CC_Cart_neighbors(_count) are these functions with the dimension taken from a naming.
#include <climits>

#include "cartcoll/export.h"
#include "cartcoll/topology.hpp"

namespace cartcoll {

// Manhattan: |v| = sum of |v_k| (von Neumann neighborhoods: 5, 7 and 13-point stencils);
// Chebyshev: |v| = max of |v_k| (Moore neighborhoods: D2Q9, D3Q27).
enum class Metric { manhattan, chebyshev };

// The offsets v of `ndims` coordinates with shadow <= |v| <= depth: shadow 0 keeps the zero vector,
// shadow 1 drops it, shadow == depth is the shell at that distance, shadow > depth is empty.
struct NeighborhoodShape {
  int ndims = 0;
  Metric metric = Metric::manhattan;
  int shadow = 0;
  int depth = 0;
};

// How many offsets the shape has, computed without listing them. Error(Errc::dims) for ndims < 1,
// Errc::arg for a negative shadow or depth, or more than INT_MAX offsets.
CARTCOLL_API int neighborhood_size(const NeighborhoodShape& shape);

// The first `max_count` offsets of the shape (all of them by default) in lexicographic order, first
// coordinate slowest, last fastest: the order of MPI_ORDER_C over the box [-depth, depth]^ndims. The
// grid plays no part: every process of a torus or mesh gets the same list (the isomorphic rule).
// Errors as neighborhood_size; Errc::arg for a negative max_count.
CARTCOLL_API Offsets neighborhood_offsets(const NeighborhoodShape& shape, int max_count = INT_MAX);

}  // namespace cartcoll
