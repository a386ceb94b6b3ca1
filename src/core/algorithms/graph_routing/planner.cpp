// SPDX-License-Identifier: BSD-3-Clause
// graph-routing's schedule from one process's routing pattern (core/algorithms/graph_routing/graph_routing.hpp).
//   phase k: to each process that differs from this one in coordinate k only, the blocks held here
//            whose destinations have its coordinate k, ordered by (origin, destination) (allgather:
//            each origin's block once); from each arrival of phase k its blocks in that order, the
//            ones for this process into receive blocks, the others into temporary blocks shaped
//            like one of this process's own (the asserted one type signature).
//   direct:  repeated edges and self edges, as trivial, in phase 0 before the routed messages; all
//            edges where no set-up ran, or on an alltoall where some process has no block to shape
//            a temporary block like (RoutingPattern::routes_alltoall).
#include <algorithm>
#include <map>
#include <span>

#include "core/setup/single_edges.hpp"
#include "graph_routing.hpp"
#include "core/planning/plan.hpp"
#include "core/planning/direct_graph.hpp"

namespace cartcoll::detail {

namespace {

// The blocks routed through this process while it plans, by (origin, destination): where each is.
using Held = std::map<RoutedBlock, BlockRef>;

// The runs of `blocks` that travel as one block: each block alone (alltoall), or the blocks of one
// origin (allgather, where they are one and the same block).
template <typename Visit>
void for_each_block_sent(std::span<const RoutedBlock> blocks, bool allgather, Visit visit) {
  for (std::size_t first = 0; first < blocks.size();) {
    std::size_t end = first + 1;
    while (allgather && end < blocks.size() && blocks[end].origin == blocks[first].origin) ++end;
    visit(blocks.subspan(first, end - first));
    first = end;
  }
}

// Phase `k`'s sends: the held blocks whose next hop is another process leave.
void send_held(Held& held, std::span<const int> extents, int k, int self, bool allgather, Phase& phase) {
  std::map<int, std::vector<RoutedBlock>> by_hop;
  for (const auto& [block, where] : held)
    if (const int hop = next_hop(extents, self, block.destination, k); hop != self) by_hop[hop].push_back(block);
  for (const auto& [hop, blocks] : by_hop) {
    // A hop that is not every block's destination keeps some to forward: it learns their sizes.
    const int to = hop;  // clang before 16 cannot capture a structured binding
    const bool forwarded = std::any_of(blocks.begin(), blocks.end(), [to](const RoutedBlock& b) { return b.destination != to; });
    Message message{hop, {}, forwarded};
    for_each_block_sent(blocks, allgather, [&](std::span<const RoutedBlock> run) { message.blocks.push_back(held.at(run.front())); });
    for (const RoutedBlock& block : blocks) held.erase(block);
    phase.sends.push_back(std::move(message));
  }
}

// Phase `k`'s receives: blocks for this process land in its receive blocks, the others in new temps,
// from which later phases send them on.
void receive_arrivals(std::span<const RoutedArrival> arrivals, const SingleEdgeIndex& in, BlockRef shape, int self,
                      bool allgather, Held& held, Schedule& schedule, Phase& phase) {
  for (const RoutedArrival& arrival : arrivals) {
    const bool forwarded = std::any_of(arrival.blocks.begin(), arrival.blocks.end(),
                                       [self](const RoutedBlock& b) { return b.destination != self; });
    Message message{arrival.from, {}, forwarded};
    for_each_block_sent(arrival.blocks, allgather, [&](std::span<const RoutedBlock> run) {
      const bool mine = std::any_of(run.begin(), run.end(), [self](const RoutedBlock& b) { return b.destination == self; });
      if (!mine) schedule.temps.push_back({shape.buffer, shape.block});
      const BlockRef at = mine ? BlockRef{Buffer::recv, in(run.front().origin)}
                               : BlockRef{Buffer::temp, static_cast<int>(schedule.temps.size()) - 1};
      for (const RoutedBlock& block : run)
        if (block.destination != self) held[block] = at;
      message.blocks.push_back(at);
    });
    phase.recvs.push_back(std::move(message));
  }
}

Schedule plan_graph_routing(const GraphView& view, Collective collective) {
  const bool allgather = collective == Collective::allgather;
  Schedule schedule{collective, allgather ? 1 : static_cast<int>(view.destinations.size()),
                    static_cast<int>(view.sources.size()), {}, {}};
  const RoutingPattern* routing = setup_result_of<RoutingPattern>(view);
  if (routing == nullptr || (!allgather && !routing->routes_alltoall)) {
    schedule.phases.resize(1);
    add_direct_graph_edges(view, collective, schedule.phases[0]);
    return schedule;
  }
  schedule.phases.resize(std::max<std::size_t>(1, routing->extents.size()));
  const std::vector<int> routed_out = single_neighbors(view.destinations, view.rank);
  add_direct_graph_edges(view, collective, schedule.phases[0], routed_out, single_neighbors(view.sources, view.rank));
  const SingleEdgeIndex out(view.destinations, view.rank), in(view.sources, view.rank);
  // Every block of the call has the one asserted signature; a process with no send block in an
  // alltoall has a receive block (routes_alltoall).
  const BlockRef shape = allgather || schedule.send_blocks > 0 ? BlockRef{Buffer::send, 0} : BlockRef{Buffer::recv, 0};
  Held held;
  for (int destination : routed_out) held[{view.rank, destination}] = {Buffer::send, allgather ? 0 : out(destination)};
  for (std::size_t k = 0; k < routing->extents.size(); ++k) {
    send_held(held, routing->extents, static_cast<int>(k), view.rank, allgather, schedule.phases[k]);
    receive_arrivals(routing->arrivals.at(k), in, shape, view.rank, allgather, held, schedule, schedule.phases[k]);
  }
  return schedule;
}

}  // namespace

extern const PlannerEntry graph_routing_planner{
    "graph-routing",
    "routing over a virtual grid of the ranks: a block corrects one grid coordinate per phase, so a process sends "
    "at most extent - 1 messages a phase",
    true, true, false, nullptr, plan_graph_routing, &routing_setup, false, true, true};

}  // namespace cartcoll::detail
