// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The MPI executor: lowers a Schedule plus a Layout to MPI messages (one struct datatype over a
// message's blocks where it has more than one) and runs the phases in order, advanced by the
// process's progress engine (progress.hpp).
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "block_arena.hpp"
#include "runtime/progress/comm_gate.hpp"
#include "cartcoll/layout.hpp"
#include "core/model/schedule.hpp"
#include "mpi_handles.hpp"
#include "runtime/progress/progress.hpp"
#include "sized_messages.hpp"
#include "staging.hpp"
#include "straight_blocks.hpp"
#include "type_cache.hpp"

namespace cartcoll::detail {

// What an execution may take from a TypeCache instead of making its own: struct datatypes (any
// call), and the temp blocks (only a blocking call: nonblocking ones may overlap).
// And how it lowers multi-block messages: those of at most stage_up_to bytes go through staging
// (staging.hpp), the others as struct datatypes. And where the blocks the size gate keeps from
// forwarding travel: on the execution's tag plus straight_offset (TagSpace::straight_offset).
struct Reuse {
  TypeCache* cache = nullptr;
  bool temp = false;
  std::size_t stage_up_to = 0;
  int straight_offset = 0;
};

class Execution : public Progressing {
 public:
  // Everything but the messages is built here: datatypes, temp blocks, copies. Each start posts the
  // messages with MPI_Irecv/MPI_Isend, persistent operations too: Open MPI 4.1.4's persistent
  // point-to-point requests cost more per start than MPI_Isend/MPI_Irecv (0.29-0.32 against
  // 0.18-0.23 us for a one-int exchange between two processes over shared memory; MPICH 4.0.2:
  // equal), and they save nothing the execution does not keep already (docs/performance.md).
  // `comm` may still be being made by MPI_Comm_idup: `gate` then opens when it is ready, and the
  // execution's messages are posted from then on.
  Execution(const Schedule& schedule, const Layout& layout, MPI_Comm comm, int tag, Reuse reuse = {},
            std::shared_ptr<CommGate> gate = nullptr);
  ~Execution() override;

  // Starts the schedule through the engine (or when the gate opens); wait or test it there.
  void start();
  // Starts and completes the schedule (a blocking call). With the engine idle, no other operation
  // needs progress meanwhile, so each phase is posted and completed with one MPI_Waitall and none of
  // the engine's bookkeeping; otherwise through the engine.
  void run();
  bool active() const noexcept { return !complete(); }
  // Between runs: the tag of the next start (an execution kept from one nonblocking call for the
  // next, each of which holds a tag of its own).
  void retag(int tag) noexcept { tag_ = tag; }

 private:
  struct Lowered {
    void* buffer;
    int count;
    MPI_Datatype type;
    int peer;
    std::ptrdiff_t staged_at = -1;  // its run's offset in the staging buffer, if staged
  };
  // A local copy: `bytes` > 0 where both blocks are one run of bytes (a memmove), else 0 (MPI_Pack
  // and MPI_Unpack through the scratch buffer).
  struct LoweredCopy {
    BlockSpec from, to;
    std::size_t bytes;
  };
  struct LoweredPhase {
    std::vector<Lowered> recvs, sends;
    std::vector<LoweredCopy> copies;
    std::vector<std::pair<BlockSpec, BlockSpec>> reductions;  // (from, into)
    std::vector<StagedCopy> gathered, scattered;  // into the sends' runs, out of the receives'
    // Where sizes travel: messages sent as packed bytes, and those received in slots.
    std::vector<PackedSend> packed_sends;
    std::vector<std::uint8_t> packed_first;  // per send, in schedule order: whether it is the next packed one (sizes travel)
    std::vector<SizedReceive> sized_recvs;
  };

  void advance(ProgressEngine& engine) noexcept override;
  // A message that failed (a peer sent more than this process expects: block sizes that differ
  // between processes, against the call's contract) leaves its blocks undefined, but the schedule
  // goes on, so that every peer still gets the messages it waits for and none hangs; the call then
  // fails with the first such error.
  void message_failed(int code) noexcept override { record(code); }
  void post_phase(ProgressEngine& engine);
  bool post_tails(ProgressEngine& engine);
  template <typename Post, typename PostTail>
  void post_sends(LoweredPhase& phase, const Post& post_request, const PostTail& post_tail);
  void wait_alone();
  MPI_Request post(const Lowered& message, bool send);
  bool run_alone();
  void run_copies();
  void run_reductions();
  void lower_reductions(const Phase& phase, LoweredPhase& lowered);

  BlockSpec resolve(BlockRef ref) const;
  Lowered lower(const Message& message, std::vector<StagedCopy>& staged);
  void bind_staged_runs();
  BlockSpec packable(const BlockSpec& block);
  void lower_phase(const Phase& phase);
  bool lower_sized(const Phase& phase, LoweredPhase& lowered);
  std::vector<PackedPart> packed_parts(const Message& message, bool sent, bool header);
  void unpack_sized();
  enum class StraightStep : std::uint8_t { early_receives, sends, learned_receives };
  void post_straight(ProgressEngine& engine, StraightStep step);
  void layout_temps(const Schedule& schedule);

  const Layout* layout_ = nullptr;      // only while constructing
  const Schedule* schedule_ = nullptr;  // only while constructing
  MPI_Comm comm_;
  int tag_;
  Reuse reuse_;  // its straight_offset: the size gate's blocks' tag is tag_ plus it
  MPI_Op op_;
  std::vector<LoweredPhase> phases_;
  std::vector<Datatype> owned_types_;
  std::vector<std::shared_ptr<const Datatype>> shared_types_;
  BlockArena own_temps_;
  Staging staging_;
  std::span<const BlockSpec> temp_blocks_;  // own_temps_'s or the cache's
  std::vector<std::byte> pack_scratch_;
  std::vector<MPI_Request> alone_;  // run_alone: the current phase's requests
  std::vector<MPI_Status> alone_statuses_;
  bool sizes_travel_ = false;     // Schedule::sizes_travel
  bool slots_ = false;            // some message carries sizes (never run alone: its tail goes aside)
  LearnedBlocks learned_;         // sizes_travel_: the temp blocks, as the messages that filled them hold them
  // Under the size gate (Schedule::forward_up_to): the blocks kept from forwarding.
  StraightBlocks straight_;
  bool gated_ = false;                          // straight_ holds a block
  std::vector<MPI_Request> straight_requests_;  // scratch: the requests just posted for them
  std::size_t current_ = 0;
  bool posted_ = false;        // the current phase's messages are posted
  bool tails_posted_ = false;  // and, once they are in, the tails of its messages longer than their slots
  std::shared_ptr<CommGate> gate_;
};

}  // namespace cartcoll::detail
