// SPDX-License-Identifier: BSD-3-Clause
#include "simulator.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace cartcoll {

namespace {

using reference::Bytes;

std::string where(int rank, std::size_t phase) {
  return "rank " + std::to_string(rank) + ", phase " + std::to_string(phase);
}

class Process {
 public:
  Process(int rank, const Schedule& schedule, const std::vector<Bytes>& send, std::vector<Bytes> recv)
      : rank_(rank), schedule_(&schedule), send_(&send), recv_(std::move(recv)), sizes_travel_(schedule.sizes_travel) {
    if (static_cast<int>(send.size()) != schedule.send_blocks || static_cast<int>(recv_.size()) != schedule.recv_blocks)
      throw ScheduleError("rank " + std::to_string(rank) + ": the schedule has " +
                          std::to_string(schedule.send_blocks) + " send and " + std::to_string(schedule.recv_blocks) +
                          " receive blocks, the buffers " + std::to_string(send.size()) + " and " +
                          std::to_string(recv_.size()));
    for (const TempBlock& temp : schedule.temps) {
      if (temp.like == Buffer::temp) throw ScheduleError(where(rank, 0) + ": a temp block is declared like a temp");
      // Where sizes travel, a temp has no size until the message that fills it gives it one.
      if (sizes_travel_) temps_.emplace_back();
      else if (temp.bytes >= 0) temps_.emplace_back(static_cast<std::size_t>(temp.bytes));
      else temps_.emplace_back(block(temp.like == Buffer::send ? *send_ : recv_, temp.index).size());
    }
    filled_.assign(temps_.size(), !sizes_travel_);
    absent_.assign(temps_.size(), false);
  }

  const Bytes& read(BlockRef ref) const {
    switch (ref.buffer) {
      case Buffer::send: return block(*send_, ref.block);
      case Buffer::recv: return block(recv_, ref.block);
      case Buffer::temp:
        if (!filled(ref.block)) throw ScheduleError("rank " + std::to_string(rank_) + ": a temp block is read before a message filled it");
        return block(temps_, ref.block);
    }
    throw ScheduleError("bad buffer");
  }
  Bytes& write(BlockRef ref) {
    if (ref.buffer == Buffer::send) throw ScheduleError("rank " + std::to_string(rank_) + ": a schedule writes the send buffer");
    if (ref.buffer == Buffer::temp) {
      static_cast<void>(block(temps_, ref.block));
      filled_[static_cast<std::size_t>(ref.block)] = true;
    }
    return const_cast<Bytes&>(block(ref.buffer == Buffer::recv ? recv_ : temps_, ref.block));
  }
  // The size of block `ref` as a message that carries sizes gives it (sizes_travel: temps take it,
  // receive blocks must have it).
  Bytes& write_sized(BlockRef ref, std::size_t size, int peer) {
    Bytes& into = write(ref);
    if (ref.buffer == Buffer::temp) into.resize(size);
    else if (into.size() != size)
      throw ScheduleError("rank " + std::to_string(rank_) + ": a block of " + std::to_string(size) + " bytes from rank " +
                          std::to_string(peer) + " meets a receive block of " + std::to_string(into.size()));
    return into;
  }
  bool sizes_travel() const { return sizes_travel_; }
  const Schedule& schedule() const { return *schedule_; }
  // Whether message k of `messages` carries sizes, as this process sees it (Schedule::message_carries_sizes).
  bool carries_sizes(std::span<const Message> messages, std::size_t k, bool sent) const {
    return sizes_travel_ ? schedule_->message_carries_sizes(messages, k, sent) : messages[k].carries_sizes;
  }
  // Under the size gate: whether block `ref` of a message is absent from it (a large own block in a
  // message that carries sizes, which goes straight to its receiver instead, or a temp that was
  // announced absent), and the straight messages beside the phases.
  bool absent_from(BlockRef ref, bool carries_sizes) {
    if (!schedule_->forward_up_to) return false;
    if (ref.buffer == Buffer::temp) return filled(ref.block) && absent_[static_cast<std::size_t>(ref.block)];
    if (ref.buffer != Buffer::send || !carries_sizes ||
        static_cast<std::size_t>(ref.block) >= schedule_->send_peers.size())
      return false;
    if (static_cast<long long>(read(ref).size()) <= *schedule_->forward_up_to) return false;
    direct_sends.emplace_back(ref.block, schedule_->send_peers[static_cast<std::size_t>(ref.block)]);
    return true;
  }
  void announce_absent(BlockRef ref) {
    if (ref.buffer == Buffer::temp) {
      write(ref).clear();
      absent_[static_cast<std::size_t>(ref.block)] = true;
    } else if (ref.buffer == Buffer::recv && static_cast<std::size_t>(ref.block) < schedule_->recv_peers.size()) {
      direct_recvs.emplace_back(ref.block, schedule_->recv_peers[static_cast<std::size_t>(ref.block)]);
    } else {
      throw ScheduleError("rank " + std::to_string(rank_) + ": a block announced absent where none can be");
    }
  }
  std::vector<std::pair<int, int>> direct_sends, direct_recvs;  // (block, peer), in order
  std::vector<Bytes> release() { return std::move(recv_); }

 private:
  const Bytes& block(const std::vector<Bytes>& blocks, int index) const {
    if (index < 0 || static_cast<std::size_t>(index) >= blocks.size())
      throw ScheduleError("rank " + std::to_string(rank_) + ": block index " + std::to_string(index) +
                          " is outside its buffer");
    return blocks[static_cast<std::size_t>(index)];
  }

  bool filled(int temp) const {
    return temp < 0 || static_cast<std::size_t>(temp) >= filled_.size() || filled_[static_cast<std::size_t>(temp)];
  }

  int rank_;
  const Schedule* schedule_;
  const std::vector<Bytes>* send_;
  std::vector<Bytes> recv_;
  std::vector<Bytes> temps_;
  std::vector<bool> filled_;  // sizes_travel: which temps a message has filled
  std::vector<bool> absent_;  // under the size gate: which temps were announced absent
  bool sizes_travel_;
};

const Phase& phase_of(const Schedule& schedule, std::size_t index) {
  static const Phase empty;
  return index < schedule.phases.size() ? schedule.phases[index] : empty;
}

// A block read and written in the same phase, or written twice, makes the real execution racy.
void check_hazards(int rank, std::size_t index, const Phase& phase, const Process& process) {
  std::set<std::pair<Buffer, int>> written, read;
  for (const Message& receive : phase.recvs)
    for (const BlockRef& ref : receive.blocks)
      if (!written.insert({ref.buffer, ref.block}).second)
        throw ScheduleError(where(rank, index) + ": a block is received twice");
  for (const Message& send : phase.sends)
    for (const BlockRef& ref : send.blocks) read.insert({ref.buffer, ref.block});
  for (const auto& block : written)
    if (read.count(block)) throw ScheduleError(where(rank, index) + ": a block is sent and received");
  // A message that carries sizes is received after the phase's other receives are posted, and the
  // rest of a longer one follows it as a second message: it must be the last between its two
  // processes in the phase, so that no other receive takes it or its rest.
  for (const auto* messages : {&phase.sends, &phase.recvs})
    for (auto message = messages->begin(); message != messages->end(); ++message)
      if (process.carries_sizes(*messages, static_cast<std::size_t>(message - messages->begin()), messages == &phase.sends) &&
          std::any_of(message + 1, messages->end(), [&](const Message& later) {
            return later.peer == message->peer;
          }))
        throw ScheduleError(where(rank, index) + ": a message that carries sizes comes before another to or from rank " +
                            std::to_string(message->peer));
}

// A message as it travels: one byte stream, and the sizes of its blocks where it carries them.
struct Sent {
  Bytes stream;
  bool carries_sizes;
  std::vector<long long> sizes;  // -1: announced absent (the size gate)
};
using Mailbox = std::map<std::pair<int, int>, std::deque<Sent>>;  // (from, to) -> FIFO of messages

void check_peer(int rank, std::size_t index, int peer, std::size_t p) {
  if (peer < 0 || static_cast<std::size_t>(peer) >= p)
    throw ScheduleError(where(rank, index) + ": peer " + std::to_string(peer) + " is out of range");
}

// Blocks travel as one byte stream, as in a combined datatype.
void post_sends(int rank, std::size_t index, const Phase& phase, Process& process, std::size_t p,
                Mailbox& mailbox) {
  for (std::size_t k = 0; k < phase.sends.size(); ++k) {
    const Message& send = phase.sends[k];
    check_peer(rank, index, send.peer, p);
    Sent sent{{}, process.carries_sizes(phase.sends, k, true), {}};
    for (const BlockRef& ref : send.blocks) {
      if (process.absent_from(ref, sent.carries_sizes)) {
        sent.sizes.push_back(-1);
        continue;
      }
      const Bytes& block = process.read(ref);
      sent.stream.insert(sent.stream.end(), block.begin(), block.end());
      sent.sizes.push_back(static_cast<long long>(block.size()));
    }
    mailbox[{rank, send.peer}].push_back(std::move(sent));
  }
}

// Where sizes travel, a message that carries them is split by them: temps take them, receive blocks
// must match them.
void deliver_sized(int rank, std::size_t index, const Message& receive, const Sent& sent, Process& process) {
  if (sent.sizes.size() != receive.blocks.size())
    throw ScheduleError(where(rank, index) + ": " + std::to_string(sent.sizes.size()) + " blocks sent by rank " +
                        std::to_string(receive.peer) + ", " + std::to_string(receive.blocks.size()) + " expected");
  std::size_t at = 0;
  for (std::size_t k = 0; k < receive.blocks.size(); ++k) {
    if (sent.sizes[k] < 0) {
      process.announce_absent(receive.blocks[k]);
      continue;
    }
    Bytes& into = process.write_sized(receive.blocks[k], static_cast<std::size_t>(sent.sizes[k]), receive.peer);
    std::copy_n(sent.stream.begin() + static_cast<std::ptrdiff_t>(at), into.size(), into.begin());
    at += into.size();
  }
}

// The stream is split by the receive blocks' sizes (or by the sizes it carries: deliver_sized).
void deliver(int rank, std::size_t index, const Phase& phase, std::size_t k, Mailbox& mailbox, Process& process,
             std::size_t p) {
  const Message& receive = phase.recvs[k];
  check_peer(rank, index, receive.peer, p);
  auto queue = mailbox.find({receive.peer, rank});
  if (queue == mailbox.end() || queue->second.empty())
    throw ScheduleError(where(rank, index) + ": receive from rank " + std::to_string(receive.peer) + " meets no send");
  const Sent sent = std::move(queue->second.front());
  queue->second.pop_front();
  const bool expects_sizes = process.carries_sizes(phase.recvs, k, false);
  if (sent.carries_sizes != expects_sizes)
    throw ScheduleError(where(rank, index) + ": rank " + std::to_string(receive.peer) +
                        (sent.carries_sizes ? " sends sizes that are not expected" : " sends no sizes where they are expected"));
  if (process.sizes_travel() && expects_sizes) return deliver_sized(rank, index, receive, sent, process);
  if (process.sizes_travel())
    for (const BlockRef& ref : receive.blocks)
      if (ref.buffer == Buffer::temp)
        throw ScheduleError(where(rank, index) + ": a temp block is filled by a message that carries no sizes");
  const Bytes& stream = sent.stream;
  std::size_t expected = 0;
  for (const BlockRef& ref : receive.blocks) expected += process.write(ref).size();
  if (stream.size() != expected)
    throw ScheduleError(where(rank, index) + ": " + std::to_string(stream.size()) + " bytes sent by rank " +
                        std::to_string(receive.peer) + ", " + std::to_string(expected) + " expected");
  std::size_t at = 0;
  for (const BlockRef& ref : receive.blocks) {
    Bytes& into = process.write(ref);
    std::copy_n(stream.begin() + static_cast<std::ptrdiff_t>(at), into.size(), into.begin());
    at += into.size();
  }
}

void run_copies(int rank, std::size_t index, const Phase& phase, Process& process) {
  for (const Copy& copy : phase.copies) {
    if (process.sizes_travel() && copy.to.buffer == Buffer::temp)
      throw ScheduleError(where(rank, index) + ": a copy into a temp block where sizes travel");
    const Bytes from = process.read(copy.from);
    Bytes& to = process.write(copy.to);
    if (from.size() != to.size())
      throw ScheduleError(where(rank, index) + ": local copy between blocks of different sizes");
    to = from;
  }
}

void run_reductions(int rank, std::size_t index, const Phase& phase, Process& process, const reference::ReduceOp& op) {
  for (const Reduction& reduction : phase.reductions) {
    if (!op) throw ScheduleError(where(rank, index) + ": a reduction without a reduction operation");
    const Bytes from = process.read(reduction.from);
    Bytes& into = process.write(reduction.into);
    if (from.size() != into.size())
      throw ScheduleError(where(rank, index) + ": reduction between blocks of different sizes");
    op(from, into);
  }
}

// The blocks the size gate kept from forwarding go straight from their origins to their receivers
// (beside the phases, on tags of their own, so when they arrive does not matter here), which expect
// exactly the ones announced absent.
void deliver_absent_blocks(std::vector<Process>& processes, std::size_t p) {
  std::map<std::pair<int, int>, std::deque<Bytes>> direct;
  for (std::size_t rank = 0; rank < p; ++rank)
    for (const auto& [block, peer] : processes[rank].direct_sends) {
      check_peer(static_cast<int>(rank), processes[rank].schedule().phases.size(), peer, p);
      direct[{static_cast<int>(rank), peer}].push_back(processes[rank].read({Buffer::send, block}));
    }
  for (std::size_t rank = 0; rank < p; ++rank)
    for (const auto& [block, peer] : processes[rank].direct_recvs) {
      auto& queue = direct[{peer, static_cast<int>(rank)}];
      Bytes& into = processes[rank].write({Buffer::recv, block});
      if (queue.empty() || queue.front().size() != into.size())
        throw ScheduleError("rank " + std::to_string(rank) + ": a block announced absent does not come from rank " +
                            std::to_string(peer) + " as expected");
      into = std::move(queue.front());
      queue.pop_front();
    }
  for (const auto& [pair, queue] : direct)
    if (!queue.empty())
      throw ScheduleError("rank " + std::to_string(pair.first) + " sends a block straight to rank " +
                          std::to_string(pair.second) + " that was not announced absent");
}

}  // namespace

reference::Blocks simulate(std::span<const Schedule> schedules, const reference::Blocks& send, reference::Blocks recv,
                           const reference::ReduceOp& op) {
  const std::size_t p = schedules.size();
  if (send.size() != p || recv.size() != p) throw std::invalid_argument("one buffer set per process");
  std::vector<Process> processes;
  processes.reserve(p);
  std::size_t phase_count = 0;
  for (std::size_t rank = 0; rank < p; ++rank) {
    processes.emplace_back(static_cast<int>(rank), schedules[rank], send[rank], std::move(recv[rank]));
    phase_count = std::max(phase_count, schedules[rank].phases.size());
  }
  for (std::size_t index = 0; index < phase_count; ++index) {
    Mailbox mailbox;
    for (std::size_t rank = 0; rank < p; ++rank) {
      const Phase& phase = phase_of(schedules[rank], index);
      check_hazards(static_cast<int>(rank), index, phase, processes[rank]);
      post_sends(static_cast<int>(rank), index, phase, processes[rank], p, mailbox);
    }
    for (std::size_t rank = 0; rank < p; ++rank) {
      const Phase& phase = phase_of(schedules[rank], index);
      for (std::size_t k = 0; k < phase.recvs.size(); ++k) deliver(static_cast<int>(rank), index, phase, k, mailbox, processes[rank], p);
    }
    for (const auto& [pair, queue] : mailbox)
      if (!queue.empty())
        throw ScheduleError("phase " + std::to_string(index) + ": rank " + std::to_string(pair.first) +
                            " sends to rank " + std::to_string(pair.second) + " with no matching receive");
    for (std::size_t rank = 0; rank < p; ++rank) {
      run_copies(static_cast<int>(rank), index, phase_of(schedules[rank], index), processes[rank]);
      run_reductions(static_cast<int>(rank), index, phase_of(schedules[rank], index), processes[rank], op);
    }
  }
  deliver_absent_blocks(processes, p);
  reference::Blocks result(p);
  for (std::size_t rank = 0; rank < p; ++rank) result[rank] = processes[rank].release();
  return result;
}

}  // namespace cartcoll
