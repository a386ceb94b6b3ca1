#include "cartcoll/schedule.hpp"

namespace cartcoll {

int Schedule::messages() const {
  int count = 0;
  for (const Phase& phase : phases)
    for (const Round& round : phase.rounds)
      if (round.send.peer != no_peer) ++count;
  return count;
}

int Schedule::volume() const {
  int blocks = 0;
  for (const Phase& phase : phases)
    for (const Round& round : phase.rounds)
      if (round.send.peer != no_peer) blocks += static_cast<int>(round.send.blocks.size());
  return blocks;
}

int Schedule::communication_phases() const {
  int count = 0;
  for (const Phase& phase : phases) {
    for (const Round& round : phase.rounds) {
      if (round.send.peer != no_peer || round.recv.peer != no_peer) {
        ++count;
        break;
      }
    }
  }
  return count;
}

bool Schedule::uses_temp() const {
  auto in_temp = [](const std::vector<BlockRef>& blocks) {
    for (const BlockRef& ref : blocks)
      if (ref.buffer == Buffer::temp) return true;
    return false;
  };
  for (const Phase& phase : phases) {
    for (const Round& round : phase.rounds)
      if (in_temp(round.send.blocks) || in_temp(round.recv.blocks)) return true;
    for (const Copy& copy : phase.copies)
      if (copy.from.buffer == Buffer::temp || copy.to.buffer == Buffer::temp) return true;
  }
  return false;
}

}  // namespace cartcoll
