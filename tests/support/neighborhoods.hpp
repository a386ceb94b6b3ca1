// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Grids and offset lists the MPI tests sweep over, derived from the process count.
#include <vector>

#include "cartcoll/topology.hpp"

namespace support {

// Periodic, non-periodic and mixed grids of 1 to 5 dimensions using all p processes (dims of size
// 1 everywhere they fit, size 2 where p is even), plus one grid smaller than p.
std::vector<cartcoll::Grid> grids_for(int p);

// Von Neumann, Moore (radius 1; the {-1,0}^d box for d >= 4), the positive octant, a seeded random
// list with repeated and zero offsets and coordinates beyond the grid, and the empty list.
std::vector<cartcoll::Offsets> offsets_for(int ndims, unsigned seed);

}  // namespace support
