#include "cartcoll/schedule.hpp"

#include <stdexcept>

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

Schedule relabel_receives(Schedule schedule, std::span<const int> order) {
  auto rename = [&order](BlockRef& ref) {
    if (ref.buffer == Buffer::recv) ref.block = order[static_cast<std::size_t>(ref.block)];
  };
  for (TempBlock& temp : schedule.temps)
    if (temp.like == Buffer::recv) temp.index = order[static_cast<std::size_t>(temp.index)];
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
  return schedule;
}

}  // namespace cartcoll
