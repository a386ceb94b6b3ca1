// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// An alltoallw over a Cartesian neighborhood whose blocks are datatypes over one send and one receive
// array, for the tests of send blocks that share bytes (the unified-interfaces paper by Träff, Hunold,
// Mercier and Holmes, section 3.5): the stencil halos of its Figure 1 and their 3-D kin, or any
// blocks a test adds. The oracle is the plain exchange's meaning, computed from the senders' arrays
// (bytes that depend on sender rank, address and start) through each block's datatypes.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace support {

// An owned committed datatype.
class OwnedType {
 public:
  explicit OwnedType(MPI_Datatype made);
  OwnedType(OwnedType&& other) noexcept;
  OwnedType& operator=(OwnedType&&) = delete;
  ~OwnedType();
  MPI_Datatype get() const noexcept { return handle_; }

 private:
  MPI_Datatype handle_;
};

// Block j goes to R + offsets[j] and comes from R - offsets[j] (d coordinates each).
struct HaloCase {
  std::vector<int> dims, periods, offsets;
  std::vector<OwnedType> send_types, recv_types;
  std::vector<int> sendcounts, recvcounts;
  std::vector<MPI_Aint> sdispls, rdispls;
  std::size_t send_bytes = 0, recv_bytes = 0;

  int blocks() const { return static_cast<int>(sendcounts.size()); }
  // Takes both datatypes (uncommitted, made for this block).
  void add(MPI_Datatype send, int sendcount, MPI_Aint sdispl, MPI_Datatype recv, int recvcount, MPI_Aint rdispl);
  std::vector<MPI_Datatype> send_handles() const;
  std::vector<MPI_Datatype> recv_handles() const;
  // Process `rank`'s send array at start `start`.
  std::vector<std::uint8_t> send_array(int rank, int start) const;
  // What the plain exchange leaves in `recv` at start `start`: block j of process sources[j], as
  // that process's send datatype packs it and this one's receive datatype places it; untouched where
  // sources[j] is MPI_PROC_NULL. `sender_case`, where given, is each sender's own case (processes
  // whose send blocks differ); else every sender's blocks are this case's. `sender_blocks[j]`, where
  // given, is the sender's block that lands in receive block j (an MPI Cartesian topology's: the
  // opposite direction's), else j.
  void expect_plain_result(std::span<const int> sources, int start, std::vector<std::uint8_t>& recv,
                           const std::function<const HaloCase&(int)>& sender_case = {},
                           std::span<const int> sender_blocks = {}) const;
};

// A d-dimensional torus of all processes (MPI_Dims_create), each an n^d block of doubles with a halo
// of width w, row-major: its 3^d - 1 neighbors' blocks (offsets in lexicographic order) are the
// faces, edges and corners of its interior (send) and of its halo (receive), as subarrays of the one
// array, as the 9-point stencil of Figure 1 passes ROW, COL and COR.
HaloCase stencil_halo(int d, int n, int w);

}  // namespace support
