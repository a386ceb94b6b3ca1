// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Message staging: a message of several blocks sent or received as one run of bytes in the
// execution's staging buffer instead of through a struct datatype over the blocks. The blocks are
// copied into the run before the send is posted and out of it after the receive completes.
// Why: both MPIs handle a struct datatype block by block, which costs most where processes share
// cores: a combining alltoall (Moore 3-D, 4 processes on 2 cores, 1 to 100 ints) took 1.4-2.1x the
// time of the same messages pre-packed with struct datatypes and 1.0-1.4x staged, on MPICH 4.0.2
// and Open MPI 4.1.4 alike. Large messages are not staged: there the two copies cost more than
// the MPI's own packing, from a size that depends on the MPI (CARTCOLL_STAGE_BYTES, default_stage_up_to;
// docs/performance.md, "Staged messages").
// Only messages whose blocks are all runs of bytes of one predefined datatype are staged, so the
// run is `count` elements of that datatype: the message keeps its type signature, and either end
// may stage or not.
#include <mpi.h>

#include <cstddef>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cartcoll/layout.hpp"

namespace cartcoll::detail {

// The bytes of a block that is one run of them from its address: a predefined datatype without gaps
// (its size is its extent and its lower bound 0), as the blocks of halo exchanges mostly are; else 0.
std::size_t contiguous_bytes(const BlockSpec& block);

// One block's bytes and their place in the staging buffer.
struct StagedCopy {
  std::byte* block;
  std::size_t offset;
  std::size_t bytes;
};

// Where a staged message lies in the staging buffer, as MPI sends or receives it.
struct StagedRun {
  std::size_t offset;
  int count;
  MPI_Datatype type;
};

class Staging {
 public:
  // Messages of at most `up_to` bytes are staged (0: none).
  explicit Staging(std::size_t up_to) : up_to_(up_to) {}

  // Reserves a run for a message of `blocks` and appends their copies to `copies`, if the message
  // can and should be staged; else nullopt, touching nothing.
  std::optional<StagedRun> reserve(std::span<const BlockSpec> blocks, std::vector<StagedCopy>& copies);
  // Allocates the buffer, after the last reserve().
  void allocate();
  void* at(std::size_t offset) const { return memory_.get() + offset; }

  // Blocks into their runs (before a phase's sends are posted), runs into their blocks (after its
  // receives completed).
  // (Inline: most phases have none, and the check costs less than a call.)
  void gather(std::span<const StagedCopy> copies) const {
    for (const StagedCopy& copy : copies) std::memcpy(memory_.get() + copy.offset, copy.block, copy.bytes);
  }
  void scatter(std::span<const StagedCopy> copies) const {
    for (const StagedCopy& copy : copies) std::memcpy(copy.block, memory_.get() + copy.offset, copy.bytes);
  }

 private:
  std::size_t up_to_;
  std::size_t size_ = 0;
  std::unique_ptr<std::byte[]> memory_;
};

}  // namespace cartcoll::detail
