// SPDX-License-Identifier: BSD-3-Clause
#include "mpi_executor.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "address.hpp"
#include "mpi_check.hpp"
#include "staging.hpp"

namespace cartcoll::detail {

Execution::Execution(const Schedule& schedule, const Layout& layout, MPI_Comm comm, int tag, Reuse reuse,
                     std::shared_ptr<CommGate> gate)
    : layout_(&layout),
      schedule_(&schedule),
      comm_(comm),
      tag_(tag),
      reuse_(reuse),
      op_(layout.op),
      staging_(reuse.stage_up_to),
      sizes_travel_(schedule.sizes_travel),
      gate_(std::move(gate)) {
  if (layout.send.size() != static_cast<std::size_t>(schedule.send_blocks) ||
      layout.recv.size() != static_cast<std::size_t>(schedule.recv_blocks))
    throw Error(Errc::arg, "the call's blocks do not match the schedule's");
  layout_temps(schedule);
  for (const Phase& phase : schedule.phases) lower_phase(phase);
  straight_.seal();
  gated_ = !straight_.empty();
  if (gated_ && reuse_.straight_offset <= 0)
    throw Error(Errc::intern, "a size gate on a communicator without straight tags");
  bind_staged_runs();
  layout_ = nullptr;  // everything needed has been copied out; the caller's Layout and Schedule may go
  schedule_ = nullptr;
}

// Temp block i gets the count and datatype of the call block the schedule declares it like (or is a
// run of bytes, TempBlock::bytes), unless sizes travel: then it is what the message that fills it
// brings.
void Execution::layout_temps(const Schedule& schedule) {
  if (schedule.temps.empty()) return;
  if (sizes_travel_) {
    learned_.assign(schedule.temps.size(), {});
    return;
  }
  std::vector<BlockSpec> like;
  like.reserve(schedule.temps.size());
  for (const TempBlock& temp : schedule.temps)
    like.push_back(temp.bytes >= 0 ? BlockSpec{0, static_cast<int>(temp.bytes), MPI_BYTE} : resolve({temp.like, temp.index}));
  if (const BlockArena* shared = reuse_.cache && reuse_.temp ? reuse_.cache->temp_like(like) : nullptr) {
    temp_blocks_ = shared->blocks();
    return;
  }
  own_temps_ = BlockArena(like);
  temp_blocks_ = own_temps_.blocks();
}

BlockSpec Execution::resolve(BlockRef ref) const {
  const auto index = static_cast<std::size_t>(ref.block);
  switch (ref.buffer) {
    case Buffer::send: return layout_->send.at(index);
    case Buffer::recv: return layout_->recv.at(index);
    case Buffer::temp:
      if (index >= temp_blocks_.size()) break;
      return temp_blocks_[index];
  }
  throw Error(Errc::arg, "bad buffer in schedule");
}

// A single block goes as it is; several as one run in the staging buffer where Staging takes them
// (its buffer is bound after the last phase: bind_staged_runs), else as one struct datatype over
// absolute addresses.
Execution::Lowered Execution::lower(const Message& message, std::vector<StagedCopy>& staged) {
  if (message.blocks.size() == 1) {
    const BlockSpec block = resolve(message.blocks.front());
    return {pointer_of(block.address), block.count, block.type, message.peer};
  }
  std::vector<BlockSpec> blocks;
  blocks.reserve(message.blocks.size());
  for (const BlockRef& ref : message.blocks) blocks.push_back(resolve(ref));
  if (const auto run = staging_.reserve(blocks, staged))
    return {nullptr, run->count, run->type, message.peer, static_cast<std::ptrdiff_t>(run->offset)};
  if (reuse_.cache != nullptr)
    if (auto shared = reuse_.cache->struct_of(blocks)) {
      shared_types_.push_back(std::move(shared));
      return {MPI_BOTTOM, 1, shared_types_.back()->get(), message.peer};
    }
  owned_types_.push_back(committed_struct(blocks));
  return {MPI_BOTTOM, 1, owned_types_.back().get(), message.peer};
}

// MPICH 4.0.2's MPI_Pack and MPI_Unpack refuse MPI_BOTTOM (which is NULL) even where the datatype
// holds absolute addresses, so such a block is re-expressed relative to its first byte.
BlockSpec Execution::packable(const BlockSpec& block) {
  if (block.address != 0) return block;
  MPI_Aint first = 0, extent = 0;
  check(MPI_Type_get_true_extent(block.type, &first, &extent), "MPI_Type_get_true_extent");
  const MPI_Aint displacement = -first;
  MPI_Datatype rebased = MPI_DATATYPE_NULL;
  check(MPI_Type_create_struct(1, &block.count, &displacement, &block.type, &rebased), "MPI_Type_create_struct");
  owned_types_.emplace_back(rebased);
  check(MPI_Type_commit(&rebased), "MPI_Type_commit");
  return {first, 1, rebased};
}

void Execution::lower_phase(const Phase& phase) {
  LoweredPhase lowered;
  if (!lower_sized(phase, lowered)) {
    for (const Message& receive : phase.recvs) lowered.recvs.push_back(lower(receive, lowered.scattered));
    for (const Message& send : phase.sends) lowered.sends.push_back(lower(send, lowered.gathered));
  }
  for (const Copy& copy : phase.copies) {
    const BlockSpec from = resolve(copy.from), to = resolve(copy.to);
    // MPI_Unpack would read past the packed bytes or leave the target short: a mismatch of the call's
    // own arguments (a self edge whose two ends the process sized differently).
    if (bytes_of(from) != bytes_of(to)) throw Error(Errc::count, "a block copied to this process itself changes size");
    int size = 0;
    check(MPI_Pack_size(from.count, from.type, MPI_COMM_SELF, &size), "MPI_Pack_size");
    if (size == 0) continue;  // an empty block: nothing to copy (and MPI_Pack dislikes empty buffers)
    if (const std::size_t bytes = contiguous_bytes(from); bytes > 0 && contiguous_bytes(to) == bytes) {
      lowered.copies.push_back({from, to, bytes});
      continue;
    }
    lowered.copies.push_back({packable(from), packable(to), 0});
    pack_scratch_.resize(std::max(pack_scratch_.size(), static_cast<std::size_t>(size)));
  }
  lower_reductions(phase, lowered);
  phases_.push_back(std::move(lowered));
}

// Where sizes travel, a message that carries sizes (Schedule::message_carries_sizes) is received in a
// slot (sized_messages.hpp), and one that holds a temp block (a forwarded block's packed bytes) or
// carries sizes is sent as packed bytes; the others as usual. False where sizes do not travel.
bool Execution::lower_sized(const Phase& phase, LoweredPhase& lowered) {
  if (!sizes_travel_) return false;
  auto holds_temp = [](const Message& message) {
    return std::any_of(message.blocks.begin(), message.blocks.end(), [](BlockRef ref) { return ref.buffer == Buffer::temp; });
  };
  for (std::size_t k = 0; k < phase.recvs.size(); ++k) {
    const Message& receive = phase.recvs[k];
    if (schedule_->message_carries_sizes(phase.recvs, k, false)) {
      lowered.sized_recvs.emplace_back(receive.peer, packed_parts(receive, false, true), comm_);
      slots_ = true;
    } else if (holds_temp(receive)) {
      throw Error(Errc::intern, "a temp block filled by a message that carries no sizes");
    } else {
      lowered.recvs.push_back(lower(receive, lowered.scattered));
    }
  }
  for (std::size_t k = 0; k < phase.sends.size(); ++k) {
    const Message& send = phase.sends[k];
    const bool header = schedule_->message_carries_sizes(phase.sends, k, true);
    const bool packed = header || holds_temp(send);
    if (packed) lowered.packed_sends.emplace_back(send.peer, header, packed_parts(send, true, header), comm_);
    else lowered.sends.push_back(lower(send, lowered.gathered));
    lowered.packed_first.push_back(packed ? 1 : 0);
    slots_ = slots_ || header;
  }
  return true;
}

// Under the size gate an own block in a message that carries sizes (one forwarded through another
// process, or one delivered beside forwarded blocks) is absent where it is larger than the gate: it
// goes straight to its receiver (straight_), not held back until the phase that would have carried
// it; and a receive block is expected there, should it be announced absent.
std::vector<PackedPart> Execution::packed_parts(const Message& message, bool sent, bool header) {
  std::vector<PackedPart> parts;
  const Schedule& schedule = *schedule_;
  for (const BlockRef& ref : message.blocks) {
    if (ref.buffer == Buffer::temp) {
      if (static_cast<std::size_t>(ref.block) >= learned_.size()) throw Error(Errc::arg, "bad buffer in schedule");
      parts.push_back({{}, ref.block});
      continue;
    }
    const BlockSpec block = resolve(ref);
    PackedPart part{packable(block)};
    const auto at = static_cast<std::size_t>(ref.block);
    const bool gated = schedule.forward_up_to && bytes_of(block) > *schedule.forward_up_to;
    if (sent && header && gated && ref.buffer == Buffer::send && at < schedule.send_peers.size()) {
      part.absent = true;
      straight_.add_send(block, ref.block, schedule.send_peers[at]);
    }
    if (!sent && schedule.forward_up_to && at < schedule.recv_peers.size())
      part.straight = straight_.expect(block, ref.block, schedule.recv_peers[at], bytes_of(block) > *schedule.forward_up_to);
    parts.push_back(part);
  }
  return parts;
}

// The size gate's blocks, beside the phases (StraightBlocks): the sends and early receives as the
// execution starts, the other receives once their blocks are learned absent.
void Execution::post_straight(ProgressEngine& engine, StraightStep step) {
  straight_requests_.clear();
  const int tag = tag_ + reuse_.straight_offset;
  switch (step) {
    case StraightStep::early_receives: straight_.post_early_receives(comm_, tag, straight_requests_); break;
    case StraightStep::sends: straight_.post_sends(comm_, tag, straight_requests_); break;
    case StraightStep::learned_receives: straight_.post_receives(comm_, tag, straight_requests_); break;
  }
  for (const MPI_Request request : straight_requests_) engine.post_aside(*this, request);
}

// MPI_Reduce_local takes one count and datatype for both blocks: the call's blocks of a reduction
// all have the same ones (MPI_Reduce's one count and datatype), and so have temps declared like them.
void Execution::lower_reductions(const Phase& phase, LoweredPhase& lowered) {
  for (const Reduction& reduction : phase.reductions) {
    if (op_ == MPI_OP_NULL) throw Error(Errc::arg, "a schedule that reduces, for a call without an operation");
    const BlockSpec from = resolve(reduction.from), into = resolve(reduction.into);
    if (from.count != into.count || from.type != into.type)
      throw Error(Errc::arg, "a reduction between blocks of different counts or datatypes");
    if (from.count > 0) lowered.reductions.emplace_back(from, into);
  }
}

void Execution::bind_staged_runs() {
  staging_.allocate();
  for (LoweredPhase& phase : phases_)
    for (auto* messages : {&phase.recvs, &phase.sends})
      for (Lowered& message : *messages)
        if (message.staged_at >= 0) message.buffer = staging_.at(static_cast<std::size_t>(message.staged_at));
}

Execution::~Execution() {
  if (gate_) gate_->forget(*this);
}

void Execution::start() {
  current_ = 0;
  posted_ = false;
  tails_posted_ = false;
  if (gated_) straight_.restart();
  if (gate_ && !gate_->open())
    gate_->start_when_open(*this);
  else
    ProgressEngine::instance().start(*this);
}

// Receives first (the slots after the others: a message that carries sizes is the last from its
// peer in the phase), so that an eager send from a peer finds its receive posted where possible.
void Execution::post_phase(ProgressEngine& engine) {
  LoweredPhase& phase = phases_[current_];
  staging_.gather(phase.gathered);
  const auto to_engine = [&](MPI_Request request) { engine.post(*this, request, ProgressEngine::Kind::owned_by_engine); };
  for (const Lowered& m : phase.recvs) to_engine(post(m, false));
  for (SizedReceive& receive : phase.sized_recvs) to_engine(receive.post_slot(tag_));
  const bool opening = gated_ && current_ == 0;
  if (opening) post_straight(engine, StraightStep::early_receives);
  post_sends(phase, to_engine, [&](MPI_Request tail) { engine.post_aside(*this, tail); });
  // The size gate's sends after the first phase's: the phases that follow wait for those.
  if (opening) post_straight(engine, StraightStep::sends);
}

// The tails of the current phase's messages longer than their slots; true where one was posted.
bool Execution::post_tails(ProgressEngine& engine) {
  for (SizedReceive& receive : phases_[current_].sized_recvs)
    if (const MPI_Request request = receive.post_tail(tag_); request != MPI_REQUEST_NULL)
      engine.post(*this, request, ProgressEngine::Kind::owned_by_engine);
  return waiting();
}

// The current phase's messages received in slots: what they bring placed, a failed one recorded.
void Execution::unpack_sized() {
  for (SizedReceive& receive : phases_[current_].sized_recvs)
    if (const int code = receive.unpack(learned_, straight_); code != MPI_SUCCESS) record(code);
}

// In the schedule's order, packed or not: two messages to one peer must leave in the order its
// receives expect them.
template <typename Post, typename PostTail>
void Execution::post_sends(LoweredPhase& phase, const Post& post_request, const PostTail& post_tail) {
  if (phase.packed_first.empty()) {
    for (const Lowered& m : phase.sends) post_request(post(m, true));
    return;
  }
  std::size_t plain = 0, packed = 0;
  for (const std::uint8_t is_packed : phase.packed_first) {
    if (is_packed == 0) {
      post_request(post(phase.sends[plain++], true));
      continue;
    }
    const auto [message, tail] = phase.packed_sends[packed++].post(learned_, tag_);
    post_request(message);
    if (tail != MPI_REQUEST_NULL) post_tail(tail);
  }
}

MPI_Request Execution::post(const Lowered& m, bool send) {
  MPI_Request request = MPI_REQUEST_NULL;
  if (send)
    check(MPI_Isend(m.buffer, m.count, m.type, m.peer, tag_, comm_, &request), "MPI_Isend");
  else
    check(MPI_Irecv(m.buffer, m.count, m.type, m.peer, tag_, comm_, &request), "MPI_Irecv");
  return request;
}

void Execution::run() {
  if (run_alone()) return;
  start();
  ProgressEngine::instance().wait(*this);
}

// False, doing nothing, where the engine must run it. A failed phase leaves nothing behind: what
// MPI_Waitall did not complete is cancelled and freed.
bool Execution::run_alone() {
  if (gate_ || slots_ || gated_ || !ProgressEngine::instance().idle()) return false;
  begin();
  try {
    for (current_ = 0; current_ < phases_.size(); ++current_) {
      const LoweredPhase& phase = phases_[current_];
      alone_.clear();
      staging_.gather(phase.gathered);
      const auto to_alone = [&](MPI_Request request) { alone_.push_back(request); };
      for (const Lowered& m : phase.recvs) to_alone(post(m, false));
      post_sends(phases_[current_], to_alone, to_alone);  // no tails: slots_ is false
      wait_alone();
      staging_.scatter(phase.scattered);
      run_copies();
      run_reductions();
    }
    finish();
  } catch (const Error& error) {
    for (MPI_Request& request : alone_) {
      if (request == MPI_REQUEST_NULL) continue;
      MPI_Cancel(&request);
      MPI_Request_free(&request);
    }
    fail(error.mpi_code() != MPI_SUCCESS ? error.mpi_code() : MPI_ERR_INTERN);
  }
  return true;
}

// The phase's requests to their end: a failed message is recorded (message_failed) and the ones
// still pending (MPI_ERR_PENDING) are waited for again.
void Execution::wait_alone() {
  if (alone_.empty()) return;
  alone_statuses_.resize(alone_.size());
  for (;;) {
    const int code = MPI_Waitall(static_cast<int>(alone_.size()), alone_.data(), alone_statuses_.data());
    if (code == MPI_SUCCESS) return;
    if (code != MPI_ERR_IN_STATUS) throw Error(Errc::mpi, "MPI_Waitall", code);
    bool pending = false;
    for (const MPI_Status& status : alone_statuses_) {
      if (status.MPI_ERROR == MPI_ERR_PENDING) pending = true;
      else if (status.MPI_ERROR != MPI_SUCCESS) message_failed(status.MPI_ERROR);
    }
    if (!pending) return;
  }
}

void Execution::run_copies() {
  for (const auto& [from, to, bytes] : phases_[current_].copies) {
    if (bytes > 0) {
      std::memmove(pointer_of(to.address), pointer_of(from.address), bytes);
      continue;
    }
    int position = 0;
    const int capacity = static_cast<int>(pack_scratch_.size());
    check(MPI_Pack(pointer_of(from.address), from.count, from.type, pack_scratch_.data(), capacity, &position, MPI_COMM_SELF),
          "MPI_Pack");
    position = 0;
    check(MPI_Unpack(pack_scratch_.data(), capacity, &position, pointer_of(to.address), to.count, to.type, MPI_COMM_SELF),
          "MPI_Unpack");
  }
}

void Execution::run_reductions() {
  for (const auto& [from, into] : phases_[current_].reductions)
    check(MPI_Reduce_local(pointer_of(from.address), pointer_of(into.address), into.count, into.type, op_),
          "MPI_Reduce_local");
}

// Called with nothing outstanding: the current phase has completed (or was not posted yet).
void Execution::advance(ProgressEngine& engine) noexcept {
  try {
    while (current_ < phases_.size()) {
      if (!posted_) {
        posted_ = true;
        post_phase(engine);
        if (waiting()) return;
      }
      if (slots_ && !tails_posted_) {
        tails_posted_ = true;
        if (post_tails(engine)) return;
      }
      staging_.scatter(phases_[current_].scattered);
      if (slots_) unpack_sized();
      if (gated_) post_straight(engine, StraightStep::learned_receives);
      run_copies();
      run_reductions();
      ++current_;
      posted_ = false;
      tails_posted_ = false;
    }
    if (waiting_aside()) return;  // the size gate's blocks: the last one to complete advances this again
    finish();
  } catch (const Error& error) {
    fail(error.mpi_code() != MPI_SUCCESS ? error.mpi_code() : MPI_ERR_INTERN);
  }
}

}  // namespace cartcoll::detail
