#include "cartcoll/schedule.hpp"

#include <algorithm>

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

int Schedule::temp_slots() const {
  int slots = 0;
  auto note = [&slots](const BlockRef& ref) {
    if (ref.buffer == Buffer::temp) slots = std::max(slots, ref.block + 1);
  };
  for (const Phase& phase : phases) {
    for (const Round& round : phase.rounds) {
      for (const BlockRef& ref : round.send.blocks) note(ref);
      for (const BlockRef& ref : round.recv.blocks) note(ref);
    }
    for (const Copy& copy : phase.copies) {
      note(copy.from);
      note(copy.to);
    }
  }
  return slots;
}

bool Schedule::uses_temp() const { return temp_slots() > 0; }

}  // namespace cartcoll
