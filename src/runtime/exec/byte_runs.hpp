// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Blocks as the runs of bytes MPI packs for them, and datatypes made back from runs: how the runtime
// hands a call's datatypes to the MPI-free analysis of send blocks that share bytes
// (core/model/shared_sends.hpp) and lowers its parts and pieces again.
#include <mpi.h>

#include <optional>
#include <span>
#include <vector>

#include "cartcoll/layout.hpp"
#include "core/model/shared_sends.hpp"
#include "mpi_handles.hpp"

namespace cartcoll::detail {

// A list of blocks flattened: runs[i] are block i's bytes in the order MPI packs them, as addresses
// relative to `base`, the lowest byte any of the blocks occupies (so that processes whose blocks
// have the same structure get the same runs, wherever their buffers are).
struct FlatBlocks {
  MPI_Aint base = 0;
  std::vector<std::vector<ByteRun>> runs;
};

// nullopt where the blocks span more memory than the library will mirror to find out (blocks far
// apart, as absolute addresses from MPI_BOTTOM can be) or MPI packs them otherwise than as their
// bytes in typemap order.
std::optional<FlatBlocks> flatten(std::span<const BlockSpec> blocks);

// The committed datatype of `runs` (relative addresses) as bytes, in the runs' order.
Datatype bytes_type(std::span<const ByteRun> runs);

}  // namespace cartcoll::detail
