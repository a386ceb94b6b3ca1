// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The halo workload of --halo D WIDTH N: every process owns an N^D block of doubles inside a halo of
// WIDTH cells, one array of (N + 2 WIDTH)^D doubles (row-major) that is both the send and the receive
// buffer of an alltoallw on the Moore neighborhood of radius 1 (3^D - 1 offsets, lexicographic).
// Block i, for offset o, is a subarray: sent, the part of the interior that faces o (WIDTH thick
// along every dimension where o is not 0: faces, edges, corners), received, the halo on the -o side.
// The send blocks overlap (a corner is in every face and edge that contains it); the receive blocks
// do not. HaloArray adds this process's place on the grid and the values to expect.
#include <mpi.h>

#include <span>
#include <vector>

namespace bench {

struct HaloArray {
  int d = 0, n = 0, width = 0;
  std::vector<int> dims;    // the periodic process grid, from MPI_Dims_create
  std::vector<int> coords;  // this process's place in it (row-major ranks, as MPI_Cart_create without reordering)

  int edge() const { return n + 2 * width; }
  long long cells() const;
  // The block `offset`: what is sent to +offset (halo false) or received from -offset (halo true), as
  // a datatype (committed; the caller frees it) at a byte displacement. A subarray type at 0; under
  // SimGrid's SMPI, whose struct datatypes of subarrays crash when received (SMPI 3.32's
  // Type_Struct::unserialize, in the library's combined messages), nested hvectors at the block's first
  // byte, which describe the same bytes.
  MPI_Datatype block_type(std::span<const int> offset, bool halo, MPI_Aint& displacement) const;
  long long block_elements(std::span<const int> offset) const;
  // The value a cell holds when every halo is exchanged: a number for its global position, wrapped
  // around the torus, so that a block from the wrong process or at the wrong place shows.
  double expected(long long cell) const;
  // The interior as expected, the halo -1 (no global position's value).
  void fill(std::span<double> array) const;
  // Cells that differ from expected(): after one exchange, none.
  long long mismatches(std::span<const double> array) const;
};

HaloArray halo_array(int d, int n, int width, int processes, int rank);

}  // namespace bench
