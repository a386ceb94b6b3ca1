// SPDX-License-Identifier: BSD-3-Clause
// The direct algorithm (Träff and Hunold's Cartesian Collective Communication, Listing 4), with all
// messages in one phase, as MPI libraries run MPI_Neighbor_alltoall: one send per destination and
// one receive per source, on Cartesian neighborhoods and on distributed graphs.
#include "core/planning/direct_graph.hpp"

#include <algorithm>

#include "core/planning/plan.hpp"

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

// On a graph: block j to destinations[j], block i from sources[i], in the phase graph-combining
// puts them in (direct_phase).
Schedule plan_trivial_graph(const GraphView& view, Collective collective) {
  Schedule schedule{collective, collective == Collective::allgather ? 1 : static_cast<int>(view.destinations.size()),
                    static_cast<int>(view.sources.size()), {}, {}};
  schedule.phases.resize(static_cast<std::size_t>(direct_phase(view)) + 1);
  add_direct_graph_edges(view, collective, schedule.phases.back());
  return schedule;
}

}  // namespace

// An edge to this process itself is a copy: the k-th occurrence of this process among the
// destinations goes into the receive block of its k-th occurrence among the sources, as MPI 4.1
// matches repeated edges. Skipped neighbors occur once, so skipping them by rank is exact.
void add_direct_graph_edges(const GraphView& view, Collective collective, Phase& phase, std::span<const int> skip_out,
                            std::span<const int> skip_in) {
  const auto in = static_cast<int>(view.sources.size()), out = static_cast<int>(view.destinations.size());
  std::vector<int> self_slots;
  for (int i = 0; i < in; ++i)
    if (view.sources[static_cast<std::size_t>(i)] == view.rank) self_slots.push_back(i);
  std::size_t next_self = 0;
  for (int j = 0; j < out; ++j) {
    const int to = view.destinations[static_cast<std::size_t>(j)];
    const BlockRef send{Buffer::send, collective == Collective::allgather ? 0 : j};
    if (to == no_process || std::binary_search(skip_out.begin(), skip_out.end(), to)) continue;
    if (to != view.rank)
      phase.sends.push_back({to, {send}});
    else if (next_self < self_slots.size())  // more self destinations than self sources: an inconsistent graph
      phase.copies.push_back({send, {Buffer::recv, self_slots[next_self++]}});
  }
  for (int i = 0; i < in; ++i) {
    const int from = view.sources[static_cast<std::size_t>(i)];
    if (from != no_process && from != view.rank && !std::binary_search(skip_in.begin(), skip_in.end(), from))
      phase.recvs.push_back({from, {{Buffer::recv, i}}});
  }
}

extern const PlannerEntry trivial_planner{
    "trivial", "direct: one message per neighbor, all in one phase (what MPI libraries do)", true, true, true,
    plan_trivial, plan_trivial_graph};

}  // namespace cartcoll::detail
