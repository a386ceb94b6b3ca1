// The direct algorithm (000 Listing 4), with all t messages in one phase, as MPI libraries run
// MPI_Neighbor_alltoall: t concurrent sends and receives, one per offset.
#include "cartcoll/plan.hpp"

namespace cartcoll::detail {

namespace {

Schedule plan_trivial(const CartesianView& view, Collective collective) {
  const int t = view.offsets.count();
  Schedule schedule{collective, collective == Collective::allgather ? 1 : t, t, {}, {}};
  const int self = view.grid.rank_of(view.coords);
  const Peers peers = peers_of(view.grid, view.offsets, view.coords);
  Phase phase;
  for (int i = 0; i < t; ++i) {
    const BlockRef send{Buffer::send, collective == Collective::allgather ? 0 : i};
    const auto target = peers.targets[static_cast<std::size_t>(i)];
    const auto source = peers.sources[static_cast<std::size_t>(i)];
    // target == self exactly when source == self (the offset vanishes modulo every dimension),
    // so such a block never needs a message.
    if (target == self) {
      phase.copies.push_back({send, {Buffer::recv, i}});
      continue;
    }
    if (target) phase.sends.push_back({*target, {send}});
    if (source) phase.recvs.push_back({*source, {{Buffer::recv, i}}});
  }
  schedule.phases.push_back(std::move(phase));
  return schedule;
}

}  // namespace

extern const PlannerEntry trivial_planner{
    "trivial", "direct: one message per neighbor, all in one phase (what MPI libraries do)", true, true, true,
    plan_trivial};

}  // namespace cartcoll::detail
