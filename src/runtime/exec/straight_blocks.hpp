// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The blocks `auto`'s size gate keeps from forwarding (Schedule::forward_up_to). Each goes from its
// origin straight to its receiver, on a tag of its own (the operation's plus
// TagSpace::straight_offset, so no receive of the schedule can take it), posted when the execution
// starts, beside the schedule's phases and holding none of them up: a large block then travels
// while the small ones are forwarded, as in the direct exchange. Its receiver learns which of its
// blocks come so from the messages that would have brought them (a size of -1).
//
// A receiver that has one such block from a sender posts its receive as the execution starts too,
// where its own size is above the gate: in a program whose counts agree its sender gates it alike,
// and the block travels from the start, as in the direct exchange (where a transfer waits for its
// receive, as large ones do, a receive posted only once the block is announced absent would hold it
// back by the whole schedule). Where the counts disagree, the announcement settles it: a block
// announced delivered after all has its early receive cancelled (no other message of the operation
// can match it: it is the one block of that pair), and one announced absent without an early
// receive gets its receive then. Other receives are posted as they are learned, per sender in block
// order, the order in which the sender posts them, so that two blocks between one pair (a repeated
// edge) meet their own receives.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cartcoll/layout.hpp"

namespace cartcoll::detail {

class StraightBlocks {
 public:
  // While lowering: a send block the gate keeps from forwarding, and a receive block it may
  // announce absent (its handle for learned()).
  // `above_gate`: the receive block's own size is above the gate.
  void add_send(const BlockSpec& block, int index, int peer);
  int expect(const BlockSpec& block, int index, int peer, bool above_gate);
  // After lowering: orders both sides by peer and block.
  void seal();
  bool empty() const noexcept { return sends_.empty() && receives_.empty(); }

  // Each start forgets what the last one learned.
  void restart();
  // As the execution starts: the early receives, then (after the first phase's sends, which the
  // phases that follow wait for) the sends, each as its own message. Their requests are appended to
  // `requests`.
  void post_early_receives(MPI_Comm comm, int tag, std::vector<MPI_Request>& requests);
  void post_sends(MPI_Comm comm, int tag, std::vector<MPI_Request>& requests);
  // A receive block's fate, from the message that would have brought it: absent (it comes
  // straight) or delivered (an early receive of it is cancelled).
  void learned(int handle, bool absent);
  // The receives of the blocks learned absent whose earlier blocks from the same sender are all
  // learned too, each once.
  void post_receives(MPI_Comm comm, int tag, std::vector<MPI_Request>& requests);

 private:
  struct Block {
    BlockSpec block;
    int index;
    int peer;
    bool early = false;  // a receive posted as the execution starts
  };
  enum class Fate : std::uint8_t { unknown, absent, delivered };
  struct Run {  // receives_[begin, end) come from one sender; those before `next` are posted or delivered
    std::size_t begin, end, next;
  };

  std::vector<Block> sends_;
  std::vector<Block> receives_;
  std::vector<std::size_t> position_;  // per handle: its place in receives_
  std::vector<Fate> fates_;            // per place in receives_, this start
  std::vector<MPI_Request> early_;     // per place in receives_: its early receive this start, until learned
  std::vector<Run> runs_;
};

}  // namespace cartcoll::detail
