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

void add_move(Phase& phase, int self, int to, int from, std::vector<BlockRef> send, std::vector<BlockRef> receive) {
  if (to == self) {
    // Wrapping onto itself in this dimension wraps both ways: what leaves arrives, block for block.
    for (std::size_t j = 0; j < send.size() && j < receive.size(); ++j) phase.copies.push_back({send[j], receive[j]});
    return;
  }
  if (!send.empty()) phase.sends.push_back({to, std::move(send)});
  if (!receive.empty()) phase.recvs.push_back({from, std::move(receive)});
}

}  // namespace cartcoll::detail
