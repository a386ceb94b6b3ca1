#include "cartcoll/simulator.hpp"

#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace cartcoll {

namespace {

using reference::Bytes;

struct Process {
  const std::vector<Bytes>* send;
  std::vector<Bytes> recv;
  std::vector<Bytes> temp;

  static const Bytes& block_of(const std::vector<Bytes>& blocks, BlockRef ref) {
    if (ref.block < 0 || static_cast<std::size_t>(ref.block) >= blocks.size())
      throw ScheduleError("block index " + std::to_string(ref.block) + " is outside its buffer");
    return blocks[static_cast<std::size_t>(ref.block)];
  }
  const Bytes& read(BlockRef ref) const {
    switch (ref.buffer) {
      case Buffer::send: return block_of(*send, ref);
      case Buffer::recv: return block_of(recv, ref);
      case Buffer::temp: return block_of(temp, ref);
    }
    throw ScheduleError("bad buffer");
  }
  Bytes& write(BlockRef ref) {
    if (ref.buffer == Buffer::send) throw ScheduleError("a schedule writes into the send buffer");
    return const_cast<Bytes&>(block_of(ref.buffer == Buffer::recv ? recv : temp, ref));
  }
};

struct Message {
  int round;
  std::vector<Bytes> payload;
};

std::string where(int rank, std::size_t phase, int round) {
  return "rank " + std::to_string(rank) + ", phase " + std::to_string(phase) + ", round " +
         std::to_string(round);
}

// A block read and written in the same phase, or written twice, makes the real execution racy.
void check_hazards(int rank, std::size_t phase_index, const Phase& phase) {
  std::set<std::pair<Buffer, int>> written, read;
  for (const Round& round : phase.rounds) {
    for (const BlockRef& ref : round.recv.blocks)
      if (round.recv.peer != no_peer && !written.insert({ref.buffer, ref.block}).second)
        throw ScheduleError(where(rank, phase_index, -1) + ": a block is received twice");
    for (const BlockRef& ref : round.send.blocks)
      if (round.send.peer != no_peer) read.insert({ref.buffer, ref.block});
  }
  for (const auto& block : written)
    if (read.count(block)) throw ScheduleError(where(rank, phase_index, -1) + ": a block is sent and received");
}

using Mailbox = std::map<std::pair<int, int>, std::deque<Message>>;  // (from, to) -> FIFO

void post_sends(std::span<const Schedule> schedules, const std::vector<Process>& processes,
                std::size_t phase_index, Mailbox& mailbox) {
  for (int rank = 0; rank < static_cast<int>(schedules.size()); ++rank) {
    const Phase& phase = schedules[static_cast<std::size_t>(rank)].phases[phase_index];
    check_hazards(rank, phase_index, phase);
    for (int r = 0; r < static_cast<int>(phase.rounds.size()); ++r) {
      const Transfer& send = phase.rounds[static_cast<std::size_t>(r)].send;
      if (send.peer == no_peer) continue;
      if (send.peer < 0 || send.peer >= static_cast<int>(schedules.size()))
        throw ScheduleError(where(rank, phase_index, r) + ": peer out of range");
      Message message{r, {}};
      for (const BlockRef& ref : send.blocks) message.payload.push_back(processes[static_cast<std::size_t>(rank)].read(ref));
      mailbox[{rank, send.peer}].push_back(std::move(message));
    }
  }
}

void deliver(int rank, std::size_t phase_index, const Round& round, int r, Mailbox& mailbox,
             Process& process) {
  auto queue = mailbox.find({round.recv.peer, rank});
  if (queue == mailbox.end() || queue->second.empty())
    throw ScheduleError(where(rank, phase_index, r) + ": receive from rank " +
                        std::to_string(round.recv.peer) + " meets no send");
  Message message = std::move(queue->second.front());
  queue->second.pop_front();
  std::size_t sent = 0, expected = 0;
  for (const Bytes& block : message.payload) sent += block.size();
  for (const BlockRef& ref : round.recv.blocks) expected += process.write(ref).size();
  if (sent != expected)
    throw ScheduleError(where(rank, phase_index, r) + ": " + std::to_string(sent) + " bytes sent, " +
                        std::to_string(expected) + " expected");
  // Blocks travel as one byte stream, as in a combined datatype; split it by receive block sizes.
  Bytes stream;
  for (const Bytes& block : message.payload) stream.insert(stream.end(), block.begin(), block.end());
  std::size_t at = 0;
  for (const BlockRef& ref : round.recv.blocks) {
    Bytes& into = process.write(ref);
    std::copy(stream.begin() + static_cast<std::ptrdiff_t>(at),
              stream.begin() + static_cast<std::ptrdiff_t>(at + into.size()), into.begin());
    at += into.size();
  }
}

void run_copies(int rank, std::size_t phase_index, const Phase& phase, Process& process) {
  for (const Copy& copy : phase.copies) {
    const Bytes from = process.read(copy.from);
    Bytes& to = process.write(copy.to);
    if (from.size() != to.size())
      throw ScheduleError(where(rank, phase_index, -1) + ": local copy between blocks of different sizes");
    to = from;
  }
}

}  // namespace

reference::Blocks simulate(std::span<const Schedule> schedules, const reference::Blocks& send,
                           reference::Blocks recv) {
  const std::size_t p = schedules.size();
  if (send.size() != p || recv.size() != p) throw std::invalid_argument("one buffer set per process");
  std::vector<Process> processes(p);
  std::size_t phase_count = p == 0 ? 0 : schedules[0].phases.size();
  for (std::size_t rank = 0; rank < p; ++rank) {
    if (schedules[rank].phases.size() != phase_count)
      throw ScheduleError("rank " + std::to_string(rank) + " has a different number of phases");
    processes[rank].send = &send[rank];
    // Temp slot s is laid out like receive block s % t.
    const int slots = schedules[rank].temp_slots();
    for (int slot = 0; slot < slots && !recv[rank].empty(); ++slot)
      processes[rank].temp.push_back(recv[rank][static_cast<std::size_t>(slot) % recv[rank].size()]);
    processes[rank].recv = std::move(recv[rank]);
  }
  for (std::size_t phase = 0; phase < phase_count; ++phase) {
    Mailbox mailbox;
    post_sends(schedules, processes, phase, mailbox);
    for (int rank = 0; rank < static_cast<int>(p); ++rank) {
      const Phase& current = schedules[static_cast<std::size_t>(rank)].phases[phase];
      for (int r = 0; r < static_cast<int>(current.rounds.size()); ++r) {
        const Round& round = current.rounds[static_cast<std::size_t>(r)];
        if (round.recv.peer != no_peer) deliver(rank, phase, round, r, mailbox, processes[static_cast<std::size_t>(rank)]);
      }
    }
    for (const auto& [pair, queue] : mailbox)
      if (!queue.empty())
        throw ScheduleError("phase " + std::to_string(phase) + ": rank " + std::to_string(pair.first) +
                            " sends to rank " + std::to_string(pair.second) + " with no matching receive");
    for (int rank = 0; rank < static_cast<int>(p); ++rank)
      run_copies(rank, phase, schedules[static_cast<std::size_t>(rank)].phases[phase], processes[static_cast<std::size_t>(rank)]);
  }
  reference::Blocks result(p);
  for (std::size_t rank = 0; rank < p; ++rank) result[rank] = std::move(processes[rank].recv);
  return result;
}

}  // namespace cartcoll
