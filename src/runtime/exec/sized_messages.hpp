// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Messages of a schedule whose sizes travel (Schedule::sizes_travel): a process forwarding blocks it
// has no count for keeps them as packed bytes, learns their sizes from the message that brings
// them, and hands them on as those bytes; their receiver takes them under its own receive type.
//
// Such a message is sent as MPI_PACKED (packed on the communicator), which a receive of any type
// signature that matches the packed data may take (MPI 4.1, section 5.2), so a receiver that sizes
// every block itself posts its receive as for any other message. One that carries sizes
// (Message::carries_sizes, and a message of several blocks that is the last between its two
// processes in its phase: Execution::lower_sized) begins with its blocks' byte sizes (MPI_INT64_T,
// packed). Its receiver posts a receive of a fixed capacity, its *slot* (the sizes and
// slot_payload_bytes), with the phase's other receives, so the message finds its receive posted as
// any other does: no probe, no agreement and no extra message per call. A longer message sends what
// does not fit as a second message, its *tail*, right behind it on the same tag; the receiver posts
// the tail's receive once the slot has told its size. A forwarded block's bytes are copied from the
// packed message that brought it into the one that takes it on, which relies on the packed form of
// data being its bytes with nothing between packing units: MPI's native representation on one
// architecture in Open MPI and MPICH (docs/graph-combining.md, "Sizes that travel").
#include <mpi.h>

#include <cstddef>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cartcoll/layout.hpp"
#include "straight_blocks.hpp"

namespace cartcoll::detail {

// One block of such a message: a call block, packed or unpacked with its own datatype, or a temp
// block whose packed bytes a message brought (`learned` is its index). Under `auto`'s size gate
// (Schedule::forward_up_to) an own block above the gate is `absent`: announced with a size of -1,
// it goes straight to its receiver (straight_blocks.hpp); a receive block the gate may announce
// absent has its handle there in `straight`.
struct PackedPart {
  BlockSpec block;
  int learned = -1;
  bool absent = false;
  int straight = -1;
};

// A temp block a schedule whose sizes travel has learned: packed bytes in the buffer of the message
// that brought them, valid until that message is received again (the next start), or announced
// absent.
struct Learned {
  std::span<const std::byte> bytes;
  bool absent = false;
};
using LearnedBlocks = std::vector<Learned>;

// A slot's bytes after the sizes: both ends split a message there, so it is a constant, never a
// setting (a receiver and a sender that disagreed would leave a tail unreceived). A message of up to
// 8 KiB (a halo of a thousand doubles) is one message; a longer one pays one message more, where
// its bytes already cost more than a message (docs/graph-combining.md, "Sizes that travel").
inline constexpr int slot_payload_bytes = 8192;

class PackedSend {
 public:
  PackedSend(int peer, bool carries_sizes, std::vector<PackedPart> parts, MPI_Comm comm);
  // Packs the parts (the learned ones from `learned`) into the message's buffer and sends it: the
  // message, or where it carries sizes and is longer than its receiver's slot, the slot's bytes and
  // the tail (the second request; MPI_REQUEST_NULL where there is none). The tail's receive is posted
  // only once the slot is in, so its send must hold up no phase of the sender (a pair that sent each
  // other tails would wait for each other): it goes aside (ProgressEngine::post_aside).
  std::array<MPI_Request, 2> post(const LearnedBlocks& learned, int tag);

 private:
  int peer_;
  MPI_Comm comm_;
  std::vector<PackedPart> parts_;
  std::vector<int> bounds_;  // per call block: MPI_Pack_size
  int header_ = 0;           // bytes before the first block: the packed sizes, if carried
  std::vector<std::int64_t> sizes_;
  std::vector<std::byte> buffer_;
};

class SizedReceive {
 public:
  SizedReceive(int peer, std::vector<PackedPart> parts, MPI_Comm comm);
  // The receive of the message's slot, posted after the phase's other receives from the peer.
  MPI_Request post_slot(int tag);
  // Once the slot is received: the receive of the message's tail, or MPI_REQUEST_NULL where the
  // message fitted its slot (or its sizes make no sense: unpack then fails).
  MPI_Request post_tail(int tag);
  // The message received: the learned parts point into its buffer, the call blocks are unpacked,
  // and `straight` learns the fate of each receive block the gate may announce absent. MPI_SUCCESS, or the error
  // class of a block larger than its receive block (MPI_ERR_TRUNCATE; the block is left as it was)
  // or of a message that does not hold the blocks its sizes announce.
  int unpack(LearnedBlocks& learned, StraightBlocks& straight);

 private:
  int unpack_block(std::size_t k, std::span<const std::byte> bytes);

  int peer_;
  MPI_Comm comm_;
  std::vector<PackedPart> parts_;
  std::vector<int> element_bytes_;  // per call block: its datatype's size
  int header_ = 0;
  std::vector<std::int64_t> sizes_;
  std::vector<std::byte> buffer_;
  int slot_ = 0;      // the slot's capacity: header_ plus slot_payload_bytes
  int received_ = 0;  // the message's bytes, as its sizes tell them; -1 where they make no sense
};

}  // namespace cartcoll::detail
