// SPDX-License-Identifier: BSD-3-Clause
#include "schedule.hpp"

#include <algorithm>
#include <stdexcept>

#include "cartcoll/error.hpp"

namespace cartcoll {

int Schedule::messages() const {
  int count = 0;
  for (const Phase& phase : phases) count += static_cast<int>(phase.sends.size());
  return count;
}

int Schedule::volume() const {
  int blocks = 0;
  for (const Phase& phase : phases)
    for (const Message& send : phase.sends) blocks += static_cast<int>(send.blocks.size());
  return blocks;
}

int Schedule::communication_phases() const {
  int count = 0;
  for (const Phase& phase : phases) count += phase.sends.empty() && phase.recvs.empty() ? 0 : 1;
  return count;
}

BlockRef Schedule::shape_of(BlockRef ref) const {
  if (ref.buffer != Buffer::temp) return ref;
  if (ref.block < 0 || static_cast<std::size_t>(ref.block) >= temps.size())
    throw std::out_of_range("temp block " + std::to_string(ref.block) + " is not declared");
  const TempBlock& temp = temps[static_cast<std::size_t>(ref.block)];
  return {temp.like, temp.index};
}

bool Schedule::message_carries_sizes(std::span<const Message> messages, std::size_t k, bool sent) const {
  const Message& message = messages[k];
  if (message.carries_sizes) return true;
  const std::vector<int>& peers = sent ? send_peers : recv_peers;
  const bool forwarded_block = forward_up_to && std::any_of(message.blocks.begin(), message.blocks.end(), [&](BlockRef ref) {
    if (ref.buffer == Buffer::temp) return true;
    const auto at = static_cast<std::size_t>(ref.block);
    return at < peers.size() && peers[at] != message.peer;
  });
  if (forwarded_block) return true;
  return message.blocks.size() > 1 && std::none_of(messages.begin() + static_cast<std::ptrdiff_t>(k) + 1, messages.end(),
                                                   [&](const Message& later) { return later.peer == message.peer; });
}

namespace {

int present_blocks(std::span<const int> order) {
  return static_cast<int>(std::count_if(order.begin(), order.end(), [](int block) { return block >= 0; }));
}

}  // namespace

Schedule relabel_receives(Schedule schedule, std::span<const int> order) {
  return relabel_blocks(std::move(schedule), {}, order);
}

Schedule relabel_blocks(Schedule schedule, std::span<const int> send_order, std::span<const int> receive_order) {
  if (schedule.collective != Collective::alltoall) send_order = {};  // allgather's one send block stays
  auto order_of = [&](Buffer buffer) {
    return buffer == Buffer::send ? send_order : buffer == Buffer::recv ? receive_order : std::span<const int>();
  };
  auto rename = [&](BlockRef& ref) {
    const std::span<const int> order = order_of(ref.buffer);
    if (order.empty()) return;
    ref.block = order[static_cast<std::size_t>(ref.block)];
    if (ref.block < 0) throw Error(Errc::intern, "a schedule names a block the neighborhood does not have");
  };
  for (TempBlock& temp : schedule.temps) {
    if (temp.bytes >= 0) continue;  // a run of bytes, shaped like no call block
    const std::span<const int> order = order_of(temp.like);
    if (!order.empty()) temp.index = std::max(order[static_cast<std::size_t>(temp.index)], 0);
  }
  for (Phase& phase : schedule.phases) {
    for (auto* messages : {&phase.sends, &phase.recvs})
      for (Message& message : *messages)
        for (BlockRef& ref : message.blocks) rename(ref);
    for (Copy& copy : phase.copies) {
      rename(copy.from);
      rename(copy.to);
    }
    for (Reduction& reduction : phase.reductions) {
      rename(reduction.from);
      rename(reduction.into);
    }
  }
  if (!send_order.empty()) schedule.send_blocks = present_blocks(send_order);
  if (!receive_order.empty()) schedule.recv_blocks = present_blocks(receive_order);
  return schedule;
}

}  // namespace cartcoll
