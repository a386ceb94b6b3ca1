// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A schedule is plain data: what one process sends, receives and copies, phase by phase, over blocks
// named symbolically (which buffer, which block), never by address. Planners emit it; executors (the
// MPI executor, the simulator) run it. Nothing here knows an algorithm or a neighborhood.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "cartcoll/collective.hpp"
#include "cartcoll/export.h"

namespace cartcoll {


// The three places a block can live: the caller's send and receive buffers, and the temporary blocks
// the schedule declares (Schedule::temps).
enum class Buffer : std::uint8_t { send, recv, temp };

struct BlockRef {
  Buffer buffer;
  int block;
  friend bool operator==(const BlockRef&, const BlockRef&) = default;
};

// A temporary block, allocated by the executor for one execution: it has the count and datatype of
// the call's send block or receive block `index` (`like` is Buffer::send or Buffer::recv), so that
// a forwarded block keeps its type signature (Träff and Hunold's Cartesian Collective
// Communication, section 3.1, the isomorphic-collectives paper by Träff, Carpen-Amarie, Hunold and
// Rougier, Algorithm 1).
// A temp block with `bytes` >= 0 is instead a run of that many bytes (MPI_BYTE): for blocks that are
// not a call block's shape (the parts of send blocks that share bytes, core/model/shared_sends.hpp).
// It still names the block it stands for (`like`, `index`: part `index` is send block `index` of a
// schedule that moves parts), which the figures count it as, and relabelling leaves it alone.
struct TempBlock {
  Buffer like;
  int index;
  long long bytes = -1;
  friend bool operator==(const TempBlock&, const TempBlock&) = default;
};

// One point-to-point message to (or from) `peer`, carrying `blocks` in this order as one message.
// Between a pair of processes within a phase, the k-th send from P to Q matches the k-th receive at
// Q from P (MPI's non-overtaking rule; the simulator checks it).
// `carries_sizes`, set alike on both ends by the planner, marks a message whose receiver keeps blocks
// to forward: in a schedule whose sizes travel (Schedule::sizes_travel) it starts with the byte size
// of each of its blocks, so that a process forwarding a block it has no count for learns its size
// from the message that brings it. Such a message is the last between its two processes in its
// phase (its receiver posts its receive after the phase's others, and where it is longer than
// that receive, the rest follows it as a second message).
struct Message {
  int peer;
  std::vector<BlockRef> blocks;
  bool carries_sizes = false;
  friend bool operator==(const Message&, const Message&) = default;
};

// A block copied locally (offsets that reach the process itself, repeated blocks, moves onto self).
struct Copy {
  BlockRef from;
  BlockRef to;
  friend bool operator==(const Copy&, const Copy&) = default;
};

// A block reduced locally into another with the call's reduction operation: `into` becomes
// `from` op `into`, MPI_Reduce_local's order (`from` is the left operand). Folding a list of blocks
// into an accumulator from the last block to the first therefore applies a non-commutative
// operation in list order: b0 op (b1 op (... op bn)), which is (b0 op b1) op ... since MPI's
// operations are associative.
struct Reduction {
  BlockRef from;
  BlockRef into;
  friend bool operator==(const Reduction&, const Reduction&) = default;
};

// The sends and receives of a phase are independent of each other and run concurrently; the copies
// run after all of them have completed, in list order, and the reductions after the copies, in list
// order. Phase k+1 starts when phase k is complete at this process.
struct Phase {
  std::vector<Message> sends;
  std::vector<Message> recvs;
  std::vector<Copy> copies;
  std::vector<Reduction> reductions = {};
};

struct CARTCOLL_API Schedule {
  Collective collective = Collective::alltoall;
  int send_blocks = 0;           // alltoall: the out-degree; allgather: 1
  int recv_blocks = 0;           // the in-degree
  std::vector<TempBlock> temps;  // block i of Buffer::temp is temps[i]
  std::vector<Phase> phases;
  // Whether forwarded blocks carry their sizes (a v or w call, or a planner forwarding blocks of
  // processes it has no edge with, where the user asserted no one signature): every temp block is
  // then filled by a message that carries sizes (Message::carries_sizes) and takes the size that
  // message gives it, not its declared shape; blocks travel as packed bytes through the forwarders
  // and reach their receiver under its own receive type.
  bool sizes_travel = false;
  // `auto`'s size gate on an alltoall whose sizes travel: a send block of more than `forward_up_to`
  // bytes in a message that carries sizes (forwarded through another process, or delivered beside
  // forwarded blocks) is sent by its origin straight to its receiver instead, beside the schedule's
  // phases (on a tag of its own), and the message announces it absent (a size of -1), so that its
  // receiver knows to expect it; both ends of a block know its size, so each decides alone and
  // alike. Under the gate every message that holds a forwarded block carries sizes
  // (message_carries_sizes). nullopt: every block travels as planned.
  std::optional<long long> forward_up_to;
  // The rank that receives send block j (alltoall) and the one that sends receive block i: the
  // graph's lists, which the gate needs to tell forwarded blocks and their direct peers.
  std::vector<int> send_peers, recv_peers;

  // Figures of merit, per call of this process.
  int messages() const;              // point-to-point sends (local copies not counted)
  int volume() const;                // blocks sent, forwarding included
  int communication_phases() const;  // phases that send or receive at least one message
  // The call block that `ref` has the shape of: itself for send and receive blocks, the declared
  // shape for a temp block (for a temp of `bytes` bytes, the block it stands for, TempBlock).
  BlockRef shape_of(BlockRef ref) const;
  // Where sizes travel, whether message k of `messages` (a phase's sends where `sent`, else its
  // receives) carries sizes: as the planner marked it; under the size gate also wherever it holds a
  // forwarded block (a temp block, or a call block whose peer is not the message's); and, so that a
  // block sized apart from its receive block fails alone, every message of several blocks that is the
  // last between its two processes in the phase. Both ends of a message see the same messages
  // between them, so they agree.
  bool message_carries_sizes(std::span<const Message> messages, std::size_t k, bool sent) const;
};

// The same schedule with receive block j renamed order[j] (a permutation), temp blocks declared like
// receive block j included: for a neighborhood whose receive blocks the user numbers differently.
CARTCOLL_API Schedule relabel_receives(Schedule schedule, std::span<const int> order);

// The same schedule with its slots renamed to the blocks of a neighborhood that numbers them
// differently and may lack some (Cartesian detection: a graph on a mesh has no block for a neighbor
// off the mesh): receive slot j becomes receive block receive_order[j], and, for alltoall, send slot
// j send block send_order[j]; an empty order keeps that buffer's numbering. A slot mapped to a
// negative block is absent: no message, copy or reduction may name it (Error(Errc::intern)), and a
// temp block shaped like it takes the shape of block 0 of the same buffer, which the caller must
// guarantee exists and, as under MPI's one-count alltoall and allgather, has the same size.
CARTCOLL_API Schedule relabel_blocks(Schedule schedule, std::span<const int> send_order,
                                     std::span<const int> receive_order);

}  // namespace cartcoll
