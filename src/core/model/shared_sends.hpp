// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Send blocks that share bytes: the analysis behind sending data that several neighbors need once
// (Träff, Hunold, Mercier and Holmes, "MPI Collective Interfaces: a single set...", section 3.5,
// alltoallw with full structural information). In a stencil halo the corner that goes to a diagonal
// neighbor is also part of the row and the column that go to the principal ones. Each send block is
// given as the runs of bytes MPI would pack for it (its typemap, in order); the analysis cuts the
// send buffer into parts, each a set of bytes that exactly the same blocks contain, and says where
// each part lies in the stream of each block that contains it. MPI-free: the runtime flattens the
// datatypes, a planner that plans shared sends (PlannerEntry::plans_shared_sends) routes the parts.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cartcoll/export.h"

namespace cartcoll {

// `length` bytes from `offset`: an address relative to a base (the send buffer) or a position in a
// block's packed stream.
struct ByteRun {
  std::int64_t offset = 0;
  std::int64_t length = 0;
  friend bool operator==(const ByteRun&, const ByteRun&) = default;
};

// Bytes of the send buffer that exactly the send blocks `blocks` contain: the runs in increasing
// address order, which is also the order in which the part travels.
struct SharedPart {
  std::vector<ByteRun> runs;  // addresses relative to the send buffer
  std::vector<int> blocks;    // ascending send block indices, at least one
  std::int64_t bytes = 0;     // the sum of the runs' lengths
  friend bool operator==(const SharedPart&, const SharedPart&) = default;
};

// Part `part` as block `block` holds it: the positions in that block's packed stream of the part's
// bytes, in the part's order (the stream runs' lengths sum to the part's bytes).
struct Piece {
  int block = 0;
  int part = 0;
  std::vector<ByteRun> stream;
  friend bool operator==(const Piece&, const Piece&) = default;
};

struct CARTCOLL_API SharedSends {
  std::vector<SharedPart> parts;
  // Ordered by block, then part: the receive blocks of a schedule that moves parts (piece k is its
  // receive block k; part a is its send block a).
  std::vector<Piece> pieces;
  std::vector<std::int64_t> block_bytes;  // each send block's packed size

  // Whether some part goes to more than one block (otherwise the analysis changes nothing).
  bool shares() const;
  // A hash of everything above, equal on processes whose send blocks have the same structure.
  std::uint64_t digest() const;
};

// The analysis of send blocks given as their runs (addresses relative to the send buffer, in stream
// order). nullopt where some block holds a byte twice: MPI allows it, but a part would then have
// two places in one block's stream, and the plain exchange serves such blocks (and where a run's
// length is negative). Empty runs and blocks are allowed: a block without bytes is in no part. A sweep
// over the sorted run boundaries: O(R log R) in the runs, whatever their lengths.
CARTCOLL_API std::optional<SharedSends> find_shared_sends(std::span<const std::vector<ByteRun>> blocks);

// The addresses of stream positions `stream` of a block whose stream is `block_runs` (addresses in
// stream order): where a receiver puts a piece, through its own receive block's runs. Adjacent
// addresses are joined; Error(Errc::intern) for positions outside the block.
CARTCOLL_API std::vector<ByteRun> addresses_of(std::span<const ByteRun> block_runs, std::span<const ByteRun> stream);

}  // namespace cartcoll
