// SPDX-License-Identifier: BSD-3-Clause
// neighbor-relay's schedule from one process's RelayPattern (neighbor_relay.hpp), in two phases:
//   phase 0: to each out-neighbor the blocks that go there now: its own block where it goes direct
//            in phase 0, then the blocks it relays, by receiver ascending (into temps shaped like
//            the relay's receive block from this process: one count matches them in a regular
//            alltoall; the message carries their sizes where sizes travel); the messages in order of
//            their receivers' phase-1 messages, most first, so that the busiest start phase 1 first;
//   phase 1: to each receiver its blocks of this phase, by origin ascending: this process's own
//            where it goes direct in phase 1, and those it relays.
// Repeated and self edges go direct in phase 0. Without a pattern this is the direct exchange.
#include <algorithm>
#include <map>

#include "cartcoll/error.hpp"
#include "core/planning/direct_graph.hpp"
#include "core/planning/plan.hpp"
#include "core/setup/single_edges.hpp"
#include "neighbor_relay.hpp"

namespace cartcoll::detail {

namespace {

// Phase 0's sends, and the temps its receives fill (by (origin, receiver)).
void add_first_phase(const RelayPattern& pattern, const SingleEdgeIndex& out, const SingleEdgeIndex& in,
                     Schedule& schedule, std::map<std::pair<int, int>, BlockRef>& temps) {
  Phase& phase = schedule.phases[0];
  std::map<int, Message> sends;  // by peer
  auto to = [&](int peer) -> Message& { return sends.try_emplace(peer, Message{peer, {}}).first->second; };
  for (const auto& [receiver, route] : pattern.routes)
    if (route == relay_direct_first) to(receiver).blocks.push_back({Buffer::send, out(receiver)});
  for (const auto& [receiver, route] : pattern.routes)
    if (route >= 0) {
      Message& message = to(route);
      message.blocks.push_back({Buffer::send, out(receiver)});
      message.carries_sizes = true;
    }
  std::map<int, int> busy(pattern.second_messages.begin(), pattern.second_messages.end());
  for (auto& [peer, message] : sends) phase.sends.push_back(std::move(message));
  std::stable_sort(phase.sends.begin(), phase.sends.end(),
                   [&](const Message& a, const Message& b) { return busy[a.peer] > busy[b.peer]; });
  std::map<int, Message> recvs;
  for (const auto& [origin, route] : pattern.arrivals)
    if (route == relay_direct_first) recvs[origin] = Message{origin, {{Buffer::recv, in(origin)}}};
  for (const auto& [origin, receivers] : pattern.relayed) {
    Message& message = recvs.try_emplace(origin, Message{origin, {}}).first->second;
    message.carries_sizes = true;
    for (int receiver : receivers) {
      schedule.temps.push_back({Buffer::recv, in(origin)});
      const BlockRef temp{Buffer::temp, static_cast<int>(schedule.temps.size()) - 1};
      message.blocks.push_back(temp);
      temps[{origin, receiver}] = temp;
    }
  }
  for (auto& [peer, message] : recvs) phase.recvs.push_back(std::move(message));
}

void add_second_phase(const RelayPattern& pattern, const SingleEdgeIndex& out, const SingleEdgeIndex& in, int self,
                      Schedule& schedule, const std::map<std::pair<int, int>, BlockRef>& temps) {
  Phase& phase = schedule.phases[1];
  std::map<int, std::map<int, BlockRef>> sends;  // receiver -> origin -> block
  for (const auto& [receiver, route] : pattern.routes)
    if (route == relay_direct_second) sends[receiver][self] = {Buffer::send, out(receiver)};
  for (const auto& [origin, receivers] : pattern.relayed)
    for (int receiver : receivers) sends[receiver][origin] = temps.at({origin, receiver});
  for (const auto& [receiver, blocks] : sends) {
    Message message{receiver, {}};
    for (const auto& [origin, block] : blocks) message.blocks.push_back(block);
    phase.sends.push_back(std::move(message));
  }
  std::map<int, std::map<int, BlockRef>> recvs;  // carrier -> origin -> block
  for (const auto& [origin, route] : pattern.arrivals) {
    if (route == relay_direct_second) recvs[origin][origin] = {Buffer::recv, in(origin)};
    if (route >= 0) recvs[route][origin] = {Buffer::recv, in(origin)};
  }
  for (const auto& [carrier, blocks] : recvs) {
    Message message{carrier, {}};
    for (const auto& [origin, block] : blocks) message.blocks.push_back(block);
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
  if (collective != Collective::alltoall) throw Error(Errc::arg, "neighbor-relay plans alltoall only");
  Schedule schedule;
  schedule.collective = collective;
  schedule.send_blocks = static_cast<int>(view.destinations.size());
  schedule.recv_blocks = static_cast<int>(view.sources.size());
  schedule.phases.resize(1);
  const RelayPattern* pattern = setup_result_of<RelayPattern>(view);
  if (pattern == nullptr) {
    add_direct_graph_edges(view, collective, schedule.phases[0]);
    return schedule;
  }
  schedule.phases.resize(2);
  const SingleEdgeIndex out(view.destinations, view.rank), in(view.sources, view.rank);
  std::map<std::pair<int, int>, BlockRef> temps;
  add_first_phase(*pattern, out, in, schedule, temps);
  add_second_phase(*pattern, out, in, view.rank, schedule, temps);
  add_direct_graph_edges(view, collective, schedule.phases[0], firsts(pattern->routes), firsts(pattern->arrivals));
  return schedule;
}

extern const PlannerEntry neighbor_relay_planner{
    "neighbor-relay",
    "relaying through common neighbors on distributed graphs: each block direct or through a neighbor of both ends, "
    "routes balanced in a set-up so that no process sends many messages in either of the 2 phases",
    true, false, false, nullptr, plan_neighbor_relay, &relay_setup, false, false, true};

}  // namespace cartcoll::detail
