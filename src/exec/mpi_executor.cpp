#include "mpi_executor.hpp"

#include <algorithm>
#include <cstdint>

#include "mpi_check.hpp"

namespace cartcoll::detail {

namespace {

void* pointer_of(MPI_Aint address) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(address)); }

}  // namespace

Execution::Execution(const Schedule& schedule, const Layout& layout, MPI_Comm comm, int tag, Mode mode, Reuse reuse)
    : layout_(&layout), comm_(comm), tag_(tag), mode_(mode), reuse_(reuse) {
  if (const int slots = schedule.temp_slots(); slots > 0) layout_temp(slots);
  for (const Phase& phase : schedule.phases) lower_phase(phase);
  layout_ = nullptr;  // everything needed has been copied out; the caller's Layout may go
}

// Temp slot i holds what receive block i holds, with the same datatype, so that forwarding keeps
// type signatures intact (000 section 3.1, 002 Algorithm 1).
void Execution::layout_temp(int slots) {
  std::vector<BlockSpec> like;
  for (int slot = 0; slot < slots; ++slot) like.push_back(layout_->recv[static_cast<std::size_t>(slot) % layout_->recv.size()]);
  if (const BlockArena* shared = reuse_.cache && reuse_.temp ? reuse_.cache->temp_like(like) : nullptr) {
    temp_blocks_ = shared->blocks();
    return;
  }
  own_temp_ = BlockArena(like);
  temp_blocks_ = own_temp_.blocks();
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

// A single block goes as it is; several become one struct datatype over absolute addresses.
Execution::Message Execution::lower(const Transfer& transfer, bool is_send) {
  if (transfer.blocks.size() == 1) {
    const BlockSpec block = resolve(transfer.blocks.front());
    return {pointer_of(block.address), block.count, block.type, transfer.peer, is_send};
  }
  std::vector<BlockSpec> blocks;
  for (const BlockRef& ref : transfer.blocks) blocks.push_back(resolve(ref));
  if (reuse_.cache != nullptr)
    if (auto shared = reuse_.cache->struct_of(blocks)) {
      shared_types_.push_back(std::move(shared));
      return {MPI_BOTTOM, 1, shared_types_.back()->get(), transfer.peer, is_send};
    }
  owned_types_.push_back(committed_struct(blocks));
  return {MPI_BOTTOM, 1, owned_types_.back().get(), transfer.peer, is_send};
}

void Execution::lower_phase(const Phase& phase) {
  LoweredPhase lowered;
  for (const Round& round : phase.rounds)
    if (round.recv.peer != no_peer) lowered.messages.push_back(lower(round.recv, false));
  for (const Round& round : phase.rounds)
    if (round.send.peer != no_peer) lowered.messages.push_back(lower(round.send, true));
  lowered.requests.assign(lowered.messages.size(), MPI_REQUEST_NULL);
  for (const Copy& copy : phase.copies) {
    const BlockSpec from = resolve(copy.from);
    int size = 0;
    check(MPI_Pack_size(from.count, from.type, comm_, &size), "MPI_Pack_size");
    if (size == 0) continue;  // an empty block: nothing to copy (and MPI_Pack dislikes empty buffers)
    lowered.copies.emplace_back(from, resolve(copy.to));
    pack_scratch_.resize(std::max(pack_scratch_.size(), static_cast<std::size_t>(size)));
  }
  if (mode_ == Mode::persistent) {
    for (std::size_t m = 0; m < lowered.messages.size(); ++m) {
      const Message& message = lowered.messages[m];
      RequestSlot& slot = lowered.persistent.emplace_back();
      if (message.is_send)
        check(MPI_Send_init(message.buffer, message.count, message.type, message.peer, tag_, comm_, slot.out()),
              "MPI_Send_init");
      else
        check(MPI_Recv_init(message.buffer, message.count, message.type, message.peer, tag_, comm_, slot.out()),
              "MPI_Recv_init");
      lowered.requests[m] = *slot.out();
    }
  }
  phases_.push_back(std::move(lowered));
}

void Execution::begin_phase() {
  LoweredPhase& phase = phases_[current_];
  if (mode_ == Mode::persistent) {
    if (!phase.requests.empty())
      check(MPI_Startall(static_cast<int>(phase.requests.size()), phase.requests.data()), "MPI_Startall");
    return;
  }
  for (std::size_t m = 0; m < phase.messages.size(); ++m) {
    const Message& message = phase.messages[m];
    if (message.is_send)
      check(MPI_Isend(message.buffer, message.count, message.type, message.peer, tag_, comm_, &phase.requests[m]),
            "MPI_Isend");
    else
      check(MPI_Irecv(message.buffer, message.count, message.type, message.peer, tag_, comm_, &phase.requests[m]),
            "MPI_Irecv");
  }
}

void Execution::finish_phase() {
  for (const auto& [from, to] : phases_[current_].copies) {
    int position = 0;
    const int capacity = static_cast<int>(pack_scratch_.size());
    check(MPI_Pack(pointer_of(from.address), from.count, from.type, pack_scratch_.data(), capacity, &position, comm_),
          "MPI_Pack");
    position = 0;
    check(MPI_Unpack(pack_scratch_.data(), capacity, &position, pointer_of(to.address), to.count, to.type, comm_),
          "MPI_Unpack");
  }
  ++current_;
}

void Execution::start() {
  current_ = 0;
  active_ = true;
  if (!phases_.empty()) begin_phase();
}

bool Execution::test() {
  while (active_ && current_ < phases_.size()) {
    LoweredPhase& phase = phases_[current_];
    int done = 0;
    check(MPI_Testall(static_cast<int>(phase.requests.size()), phase.requests.data(), &done, MPI_STATUSES_IGNORE),
          "MPI_Testall");
    if (!done) return false;
    finish_phase();
    if (current_ < phases_.size()) begin_phase();
  }
  active_ = false;
  return true;
}

void Execution::wait() {
  while (active_ && current_ < phases_.size()) {
    LoweredPhase& phase = phases_[current_];
    check(MPI_Waitall(static_cast<int>(phase.requests.size()), phase.requests.data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall");
    finish_phase();
    if (current_ < phases_.size()) begin_phase();
  }
  active_ = false;
}

}  // namespace cartcoll::detail
