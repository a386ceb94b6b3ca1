// The direct algorithm (000 Listing 4), with all t rounds in one phase, as MPI libraries run
// MPI_Neighbor_alltoall: t concurrent sends and receives, one per offset.
#include "cartcoll/plan.hpp"

namespace cartcoll {

namespace {

BlockRef send_block(Collective collective, int i) {
  return {Buffer::send, collective == Collective::allgather ? 0 : i};
}

}  // namespace

Schedule plan_trivial(const Grid& grid, const Offsets& offsets, Collective collective,
                      std::span<const int> coords) {
  Schedule schedule;
  schedule.collective = collective;
  schedule.block_count = offsets.count();
  const int self = grid.rank_of(coords);
  const Peers peers = peers_of(grid, offsets, coords);
  Phase phase;
  for (int i = 0; i < offsets.count(); ++i) {
    const auto target = peers.targets[static_cast<std::size_t>(i)];
    const auto source = peers.sources[static_cast<std::size_t>(i)];
    // target == self exactly when source == self (the offset vanishes modulo every dimension),
    // so such a block never needs a message.
    if (target == self) {
      phase.copies.push_back({send_block(collective, i), {Buffer::recv, i}});
      continue;
    }
    if (!target && !source) continue;
    Round round;
    if (target) round.send = {*target, {send_block(collective, i)}};
    if (source) round.recv = {*source, {{Buffer::recv, i}}};
    phase.rounds.push_back(std::move(round));
  }
  schedule.phases.push_back(std::move(phase));
  return schedule;
}

}  // namespace cartcoll
