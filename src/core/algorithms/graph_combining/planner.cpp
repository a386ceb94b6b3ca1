// SPDX-License-Identifier: BSD-3-Clause
// Mirsadeghi et al.'s (Exploiting Common Neighborhoods) schedule (Algorithm 3) from one process's
// set-up pattern (graph_combining.hpp). A process tracks, per out-neighbor it still serves, the
// bundle of blocks it carries there (its own first) and the first phase in which they are all here
// (0 for the own block alone).
//   friend exchange, per step with a friend: to the friend the bundles for the offloaded
//            out-neighbors (allgather: each origin's block once, origins ascending; alltoall: per
//            offloaded out-neighbor, ascending, its bundle's blocks), in the first phase in which
//            they are all here; from it its bundles for the onloaded ones, in the phase the set-up
//            agreed (step.receive_phase), into temp blocks shaped like this process's own block for
//            the same receiver (equal bytes: both are matched by the receiver's one count of a
//            regular alltoall or allgather). Without cumulative combining every bundle handed over
//            is the own block alone, so every exchange goes in phase 0 and the schedule has two.
//   direct:  one message per remaining edge, as trivial, in the budget's last phase
//            (direct_phase), before the combined messages. The phases before then hold the
//            exchanges alone, so a process starts its deliveries as soon as its friends' blocks are
//            in, not when the last direct message to it is: a busy in-neighbor's direct message,
//            sent after its other 40, held up every sender of the next phase it reached
//            (docs/graph-combining.md, "The split follows the loads, and where the direct messages
//            go").
//   combined: to each out-neighbor with a bundle of more than the own block, the bundle, in the
//            last phase as well (its blocks are all here by then: a bundle complete in phase b is
//            handed on in b at the latest and b + 1 < the budget); from each carrier, its origins'
//            blocks in the order the set-up recorded. Delivering in the phase a bundle completes
//            instead left each phase of a cumulative schedule waiting for the busiest sender of
//            the one before (docs/graph-combining.md, "Every delivery in the last phase").
// A message is received in the phase it is sent in, and within a phase two processes post their
// messages to each other in the same order (exchanges, direct edges, combined messages). Without a
// pattern (no set-up ran) this is the direct exchange, in one phase.
#include <algorithm>
#include <map>
#include <string>

#include "core/setup/single_edges.hpp"
#include "cartcoll/error.hpp"
#include "graph_combining.hpp"
#include "core/planning/plan.hpp"
#include "core/planning/direct_graph.hpp"
#include "planner.hpp"

namespace cartcoll::detail {

namespace {

// Where the blocks this process carries are, by origin and receiver: its own send blocks and the
// temps friends filled. An allgather exchange brings an origin's block once for all the receivers
// it is for; the same origin may come again, for other receivers, in another phase.
class CarriedBlocks {
 public:
  CarriedBlocks(Schedule& schedule, const SingleEdgeIndex& out, int self)
      : schedule_(schedule), out_(out), self_(self), allgather_(schedule.collective == Collective::allgather) {}

  BlockRef at(int origin, int receiver) const {
    if (origin == self_) return own(receiver);
    const auto found = temps_.find({origin, receiver});
    if (found == temps_.end()) throw Error(Errc::intern, "the combining pattern forwards a block never received");
    return found->second;
  }
  // A new temp block for `origin`'s block for `receivers` (one of them unless allgather).
  BlockRef receive(int origin, const std::vector<int>& receivers) {
    schedule_.temps.push_back({Buffer::send, own(receivers.front()).block});
    const BlockRef temp{Buffer::temp, static_cast<int>(schedule_.temps.size()) - 1};
    for (int receiver : receivers) temps_[{origin, receiver}] = temp;
    return temp;
  }
  bool allgather() const { return allgather_; }

 private:
  BlockRef own(int receiver) const { return {Buffer::send, allgather_ ? 0 : out_(receiver)}; }

  Schedule& schedule_;
  const SingleEdgeIndex& out_;
  int self_;
  bool allgather_;
  std::map<std::pair<int, int>, BlockRef> temps_;
};

// The blocks of an exchange, each with the receivers it is for: allgather's distinct origins,
// ascending; alltoall's bundles receiver by receiver.
struct Exchanged {
  int origin;
  std::vector<int> receivers;
};
std::vector<Exchanged> exchanged(const std::vector<int>& receivers, const std::vector<std::vector<int>>& bundles,
                                 bool allgather) {
  std::vector<Exchanged> blocks;
  std::map<int, std::vector<int>> by_origin;
  for (std::size_t k = 0; k < receivers.size(); ++k)
    for (int origin : bundles[k]) {
      if (allgather) by_origin[origin].push_back(receivers[k]);
      else blocks.push_back({origin, {receivers[k]}});
    }
  for (auto& [origin, served] : by_origin) blocks.push_back({origin, std::move(served)});
  return blocks;
}

// The bundles this process carries, by out-neighbor: origins (its own first) and the first phase in
// which all their blocks are here (0: only the own block).
struct Bundle {
  std::vector<int> origins;
  int phase = 0;
};
using Bundles = std::map<int, Bundle>;

Phase& phase_at(std::vector<Phase>& phases, int index) {
  if (phases.size() <= static_cast<std::size_t>(index)) phases.resize(static_cast<std::size_t>(index) + 1);
  return phases[static_cast<std::size_t>(index)];
}

// This process's side of one step: the exchange with the friend (its half goes out in the phase in
// which it is all here, the friend's comes in step.receive_phase), and its bundles afterwards.
void add_step(const CombiningStep& step, CarriedBlocks& carried, Bundles& bundles, std::vector<Phase>& phases, int self) {
  if (step.carried.size() != step.onloaded.size()) throw Error(Errc::intern, "a combining step without its bundles");
  auto bundle = [&](int receiver) -> Bundle& {
    auto [at, created] = bundles.try_emplace(receiver);
    if (created) at->second.origins.push_back(self);
    return at->second;
  };
  std::vector<std::vector<int>> handed;
  int ready = 0;
  for (int to : step.offloaded) {
    handed.push_back(bundle(to).origins);
    ready = std::max(ready, bundle(to).phase);
  }
  // The friend keeps what it receives to forward it: the exchange carries the blocks' sizes.
  Message to_friend{step.partner, {}, true}, from_friend{step.partner, {}, true};
  for (const Exchanged& block : exchanged(step.offloaded, handed, carried.allgather()))
    to_friend.blocks.push_back(carried.at(block.origin, block.receivers.front()));
  for (const Exchanged& block : exchanged(step.onloaded, step.carried, carried.allgather()))
    from_friend.blocks.push_back(carried.receive(block.origin, block.receivers));
  for (std::size_t k = 0; k < step.onloaded.size(); ++k) {
    Bundle& mine = bundle(step.onloaded[k]);
    mine.origins.insert(mine.origins.end(), step.carried[k].begin(), step.carried[k].end());
    mine.phase = std::max(mine.phase, step.receive_phase + 1);
  }
  for (int to : step.offloaded) bundles.erase(to);
  if (!to_friend.blocks.empty()) phase_at(phases, ready).sends.push_back(std::move(to_friend));
  if (!from_friend.blocks.empty()) phase_at(phases, step.receive_phase).recvs.push_back(std::move(from_friend));
}


}  // namespace

Schedule plan_graph_combining(const GraphView& view, Collective collective) {
  Schedule schedule{collective, collective == Collective::allgather ? 1 : static_cast<int>(view.destinations.size()),
                    static_cast<int>(view.sources.size()), {}, {}};
  std::vector<Phase> phases(1);
  std::vector<int> combined_out, combined_in;  // single neighbors served by combining, ascending
  std::vector<Message> combined_sends, combined_recvs;
  if (const CombiningPattern* pattern = setup_result_of<CombiningPattern>(view)) {
    const SingleEdgeIndex out(view.destinations, view.rank), in(view.sources, view.rank);
    CarriedBlocks carried(schedule, out, view.rank);
    Bundles bundles;
    for (const CombiningStep& step : pattern->steps) {
      add_step(step, carried, bundles, phases, view.rank);
      combined_out.insert(combined_out.end(), step.onloaded.begin(), step.onloaded.end());
      combined_out.insert(combined_out.end(), step.offloaded.begin(), step.offloaded.end());
    }
    for (const auto& [to, bundle] : bundles) {
      Message message{to, {}};
      for (int origin : bundle.origins) message.blocks.push_back(carried.at(origin, to));
      combined_sends.push_back(std::move(message));
    }
    for (const CombinedArrival& arrival : pattern->arrivals) {
      Message message{arrival.carrier, {}};
      for (int origin : arrival.origins) message.blocks.push_back({Buffer::recv, in(origin)});
      combined_recvs.push_back(std::move(message));
      combined_in.insert(combined_in.end(), arrival.origins.begin(), arrival.origins.end());
    }
    std::sort(combined_out.begin(), combined_out.end());
    std::sort(combined_in.begin(), combined_in.end());
  }
  const int deliveries = direct_phase(view);
  add_direct_graph_edges(view, collective, phase_at(phases, deliveries), combined_out, combined_in);
  for (Message& message : combined_sends) phase_at(phases, deliveries).sends.push_back(std::move(message));
  for (Message& message : combined_recvs) phase_at(phases, deliveries).recvs.push_back(std::move(message));
  schedule.phases = std::move(phases);
  return schedule;
}

extern const PlannerEntry graph_combining_planner{
    "graph-combining",
    "Mirsadeghi et al.'s message combining on distributed graphs: friends sharing out-neighbors split them "
    "(2 phases; cumulative: one more than the longest chain of forwards)",
    true, true, false, nullptr, plan_graph_combining, &combining_setup, false, false, true};

}  // namespace cartcoll::detail
