// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The buffers and argument arrays of one operation at one block size, shared by all implementations.
// A process receives one block per source and sends one per destination (one block for allgather*).
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "halo.hpp"
#include "options.hpp"

namespace bench {

// One side of a call: blocks back to back, in elements of the workload's type.
struct BlockSide {
  std::vector<int> counts, displs;      // per block, in elements (v variants)
  std::vector<MPI_Aint> byte_displs;    // w variants
  std::vector<int> ones;                // w variants: one element of the block's type
  std::vector<MPI_Datatype> types;      // w variants: contiguous counts[i] elements
  std::vector<char> bytes;
  long long elements() const;
};

class Workload {
 public:
  // Cartesian neighborhoods: sources = destinations = t, and block i's size follows the size rule;
  // graphs: every block has m elements, but alltoallv/w blocks on a graph with per-edge counts have
  // count x m (uniform_blocks).
  Workload(const Options& options, int sources, int destinations, int m);
  ~Workload();
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  bool gather() const { return op.starts_with("allgather"); }
  long long send_block_bytes(int i) const;  // send block i (alltoall*) or the one send block (allgather*)
  long long recv_block_bytes(int i) const;
  // The direct pattern's send volume and messages: one message per destination.
  long long direct_bytes() const;
  // The buffers the calls get: the sides' own, or under --halo the one array of both.
  char* send_base() { return halo ? reinterpret_cast<char*>(halo_cells.data()) : send.bytes.data(); }
  char* recv_base() { return halo ? reinterpret_cast<char*>(halo_cells.data()) : recv.bytes.data(); }

  std::string op;
  int sources = 0, destinations = 0, m = 0;
  MPI_Datatype type;
  int element_bytes = 0;
  BlockSide send, recv;
  // allgatherw done as MPI's alltoallw: every destination gets the one send block.
  std::vector<int> gather_ones;
  std::vector<MPI_Aint> gather_displs;
  std::vector<MPI_Datatype> gather_types;
  // --halo: block i is offset i's subarray of halo_cells (send and receive side alike; the sides'
  // byte displacements are 0 and their bytes unused).
  std::optional<HaloArray> halo;
  std::vector<double> halo_cells;
};

}  // namespace bench
