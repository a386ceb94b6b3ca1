// SPDX-License-Identifier: BSD-3-Clause
#include "forwarding.hpp"

#include <algorithm>

namespace cartcoll::detail {

void declare_home_temps(Schedule& schedule) {
  int used = 0;
  auto note = [&used](const BlockRef& ref) {
    if (ref.buffer == Buffer::temp) used = std::max(used, ref.block + 1);
  };
  for (const Phase& phase : schedule.phases) {
    for (const auto* messages : {&phase.sends, &phase.recvs})
      for (const Message& message : *messages)
        for (const BlockRef& ref : message.blocks) note(ref);
    for (const Copy& copy : phase.copies) {
      note(copy.from);
      note(copy.to);
    }
  }
  const int t = schedule.recv_blocks;
  schedule.temps.clear();
  for (int s = 0; s < used; ++s) schedule.temps.push_back({Buffer::recv, s % t});
}

void add_move(Phase& phase, int self, int to, int from, std::vector<BlockRef> send, std::vector<BlockRef> receive,
              Forwarded forwarded_on) {
  if (to == self && !forwarded_on.sizes_travel) {
    // Wrapping onto itself in this dimension wraps both ways: what leaves arrives, block for block.
    for (std::size_t j = 0; j < send.size() && j < receive.size(); ++j) phase.copies.push_back({send[j], receive[j]});
    return;
  }
  const bool sized = forwarded_on.sizes_travel;
  if (!send.empty()) phase.sends.push_back({to, std::move(send), sized && forwarded_on.send});
  if (!receive.empty()) phase.recvs.push_back({from, std::move(receive), sized && forwarded_on.receive});
}

namespace {

void join_per_peer(std::vector<Message>& messages) {
  std::vector<Message> joined;
  for (Message& message : messages) {
    auto same = std::find_if(joined.begin(), joined.end(), [&](const Message& m) { return m.peer == message.peer; });
    if (same == joined.end()) {
      joined.push_back(std::move(message));
      continue;
    }
    same->blocks.insert(same->blocks.end(), message.blocks.begin(), message.blocks.end());
    same->carries_sizes = same->carries_sizes || message.carries_sizes;
  }
  messages = std::move(joined);
}

}  // namespace

void join_messages_per_peer(Schedule& schedule) {
  for (Phase& phase : schedule.phases) {
    join_per_peer(phase.sends);
    join_per_peer(phase.recvs);
  }
}

}  // namespace cartcoll::detail
