// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The halo exchange of a stencil code, as byte runs (MPI-free): what the planner's tests and
// cartcoll-plan --halo plan (the examples and the benchmark build the same blocks as MPI subarrays). A process owns a block of n^d
// cells (elements of `element_bytes` bytes) inside an array of (n + 2 width)^d, row-major (the first
// dimension slowest), whose outer `width` layers are the ghost cells. Its neighbors are the Moore
// neighborhood {-1, 0, 1}^d without 0, in lexicographic order (neighborhood_offsets). The send block
// for offset o is the interior slab next to that side, per dimension [width, 2 width) for o = -1,
// [n, n + width) for o = +1 and [width, n + width) for o = 0; the receive block from the source -o
// is the ghost slab on the opposite side, [n + width, n + 2 width) for o = -1, [0, width) for o = +1.
// Send blocks overlap: a corner is also part of the edges and faces around it.
#include <cstdint>
#include <vector>

#include "cartcoll/export.h"
#include "cartcoll/topology.hpp"
#include "core/model/shared_sends.hpp"

namespace cartcoll {

struct HaloLayout {
  int ndims = 2;
  int width = 1;
  int n = 8;
  int element_bytes = 8;

  // (n + 2 width)^d elements: the array's bytes.
  std::int64_t array_bytes() const;
  // {-1, 0, 1}^d without 0, in lexicographic order.
  Offsets offsets() const;
  // Per offset, the runs of its send block (addresses relative to the array, in row-major order,
  // which is its datatype's order: a subarray type), and of its receive block.
  std::vector<std::vector<ByteRun>> send_runs() const;
  std::vector<std::vector<ByteRun>> recv_runs() const;
};

}  // namespace cartcoll
