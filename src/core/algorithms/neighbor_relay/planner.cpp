// SPDX-License-Identifier: BSD-3-Clause
// neighbor-relay's schedule from one process's RelayPattern (neighbor_relay.hpp), in two phases:
//   phase 0: to each out-neighbor the blocks that go there now: its own block where it goes direct
//            in phase 0, then the blocks it relays, by receiver ascending (into temps shaped like
//            the relay's receive block from this process: one count matches them in a regular
//            alltoall; the message carries their sizes where sizes travel); the messages in order of
//            their receivers' phase-1 messages, most first, so that the busiest start phase 1 first;
//   phase 1: to each receiver its blocks of this phase, by origin ascending: this process's own
//            where it goes direct in phase 1, and those it relays.
// allgather sends its one block once a message and a relay keeps an origin's block once for all the
// receivers it relays it to. Repeated and self edges go direct in phase 0. Without a pattern this
// is the direct exchange.
#include <algorithm>
#include <map>

#include "core/planning/direct_graph.hpp"
#include "core/planning/plan.hpp"
#include "core/setup/single_edges.hpp"
#include "neighbor_relay.hpp"

namespace cartcoll::detail {

namespace {

// A process's blocks by neighbor: alltoall's one per out-edge, allgather's one for all.
struct Blocks {
  const SingleEdgeIndex& out;
  const SingleEdgeIndex& in;
  bool allgather;
  BlockRef own(int receiver) const { return {Buffer::send, allgather ? 0 : out(receiver)}; }
  BlockRef from(int origin) const { return {Buffer::recv, in(origin)}; }
};

// Phase 0's sends, to the busiest receivers of phase 1 first. allgather's own block goes once a
// message, for the receiver and all it relays to.
void add_first_sends(const RelayPattern& pattern, const Blocks& blocks, Phase& phase) {
  std::map<int, Message> sends;  // by peer
  auto add = [&](int peer, int receiver) -> Message& {
    Message& message = sends.try_emplace(peer, Message{peer, {}}).first->second;
    if (!blocks.allgather || message.blocks.empty()) message.blocks.push_back(blocks.own(receiver));
    return message;
  };
  for (const auto& [receiver, route] : pattern.routes)
    if (route == relay_direct_first) add(receiver, receiver);
  for (const auto& [receiver, route] : pattern.routes)
    if (route >= 0) add(route, receiver).carries_sizes = true;
  const std::map<int, int> busy(pattern.second_messages.begin(), pattern.second_messages.end());
  auto busyness = [&](const Message& message) {
    const auto found = busy.find(message.peer);
    return found != busy.end() ? found->second : 0;
  };
  for (auto& [peer, message] : sends) phase.sends.push_back(std::move(message));
  std::stable_sort(phase.sends.begin(), phase.sends.end(),
                   [&](const Message& a, const Message& b) { return busyness(a) > busyness(b); });
}

// Phase 0's receives, and where each block to relay waits (by (origin, receiver)): a temp shaped like
// the receive block from its origin; allgather's one block of an origin for all its receivers, in
// the receive block itself where it is for this process too.
void add_first_receives(const RelayPattern& pattern, const Blocks& blocks, Schedule& schedule,
                        std::map<std::pair<int, int>, BlockRef>& waiting) {
  Phase& phase = schedule.phases[0];
  std::map<int, Message> recvs;
  for (const auto& [origin, route] : pattern.arrivals)
    if (route == relay_direct_first) recvs[origin] = Message{origin, {blocks.from(origin)}};
  auto temp = [&](int origin) {
    schedule.temps.push_back({Buffer::recv, blocks.in(origin)});
    return BlockRef{Buffer::temp, static_cast<int>(schedule.temps.size()) - 1};
  };
  for (const auto& [origin, receivers] : pattern.relayed) {
    Message& message = recvs.try_emplace(origin, Message{origin, {}}).first->second;
    message.carries_sizes = true;
    if (blocks.allgather && message.blocks.empty()) message.blocks.push_back(temp(origin));
    for (int receiver : receivers) {
      if (!blocks.allgather) message.blocks.push_back(temp(origin));
      waiting[{origin, receiver}] = message.blocks.back();
    }
  }
  for (auto& [peer, message] : recvs) phase.recvs.push_back(std::move(message));
}

// Phase 1: to each receiver, by origin, this process's own block and the ones it relays there.
void add_second_phase(const RelayPattern& pattern, const Blocks& blocks, int self, Phase& phase,
                      const std::map<std::pair<int, int>, BlockRef>& waiting) {
  std::map<int, std::map<int, BlockRef>> sends;  // receiver -> origin -> block
  for (const auto& [receiver, route] : pattern.routes)
    if (route == relay_direct_second) sends[receiver][self] = blocks.own(receiver);
  for (const auto& [origin, receivers] : pattern.relayed)
    for (int receiver : receivers) sends[receiver][origin] = waiting.at({origin, receiver});
  for (const auto& [receiver, by_origin] : sends) {
    Message message{receiver, {}};
    for (const auto& [origin, block] : by_origin) message.blocks.push_back(block);
    phase.sends.push_back(std::move(message));
  }
  std::map<int, std::map<int, BlockRef>> recvs;  // carrier -> origin -> block
  for (const auto& [origin, route] : pattern.arrivals) {
    if (route == relay_direct_second) recvs[origin][origin] = blocks.from(origin);
    if (route >= 0) recvs[route][origin] = blocks.from(origin);
  }
  for (const auto& [carrier, by_origin] : recvs) {
    Message message{carrier, {}};
    for (const auto& [origin, block] : by_origin) message.blocks.push_back(block);
    phase.recvs.push_back(std::move(message));
  }
}

std::vector<int> firsts(const std::vector<std::pair<int, int>>& pairs) {
  std::vector<int> keys;
  for (const auto& pair : pairs) keys.push_back(pair.first);
  return keys;
}

}  // namespace

Schedule plan_neighbor_relay(const GraphView& view, Collective collective) {
  Schedule schedule;
  schedule.collective = collective;
  schedule.send_blocks = collective == Collective::allgather ? 1 : static_cast<int>(view.destinations.size());
  schedule.recv_blocks = static_cast<int>(view.sources.size());
  schedule.phases.resize(1);
  const RelayPattern* pattern = setup_result_of<RelayPattern>(view);
  if (pattern == nullptr) {
    add_direct_graph_edges(view, collective, schedule.phases[0]);
    return schedule;
  }
  schedule.phases.resize(2);
  const SingleEdgeIndex out(view.destinations, view.rank), in(view.sources, view.rank);
  const Blocks blocks{out, in, collective == Collective::allgather};
  std::map<std::pair<int, int>, BlockRef> waiting;
  add_first_sends(*pattern, blocks, schedule.phases[0]);
  add_first_receives(*pattern, blocks, schedule, waiting);
  add_second_phase(*pattern, blocks, view.rank, schedule.phases[1], waiting);
  add_direct_graph_edges(view, collective, schedule.phases[0], firsts(pattern->routes), firsts(pattern->arrivals));
  return schedule;
}

extern const PlannerEntry neighbor_relay_planner{
    "neighbor-relay",
    "relaying through common neighbors on distributed graphs: each block direct or through a neighbor of both ends, "
    "routes balanced in a set-up so that no process sends many messages in either of the 2 phases",
    true, true, false, nullptr, plan_neighbor_relay, &relay_setup, false, false, true};

}  // namespace cartcoll::detail
