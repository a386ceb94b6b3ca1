// 003's schedule (Algorithm 3) from one process's set-up pattern (graph_combining.hpp), in two phases
// instead of two per step: the steps only ever combine a process's own blocks, so every friend
// exchange and every direct edge can go in phase 0, and every combined message in phase 1.
//   phase 0: to each step's friend the blocks it carries for this process (allgather: the one send
//            block; alltoall: the blocks for the offloaded out-neighbors, ascending), from it the
//            friend's blocks for the onloaded ones, into temp blocks shaped like this process's own
//            block for the same receiver (equal bytes: both are matched by the receiver's one count
//            of a regular alltoall or allgather); then one message per remaining edge, as trivial.
//            Between two processes the friend exchange comes first, so the k-th send meets the
//            k-th receive.
//   phase 1: to each onloaded out-neighbor [own block, friend's block]; from each carrier
//            [carrier's block, partner's block].
// Without a pattern (no set-up ran) this is the direct exchange.
#include <algorithm>
#include <map>
#include <string>

#include "../graph/single_edges.hpp"
#include "cartcoll/error.hpp"
#include "cartcoll/graph_combining.hpp"
#include "cartcoll/plan.hpp"
#include "direct_graph.hpp"

namespace cartcoll::detail {

namespace {

// Block index of each single neighbor (single_edges.hpp) in `neighbors`.
class SingleIndex {
 public:
  SingleIndex(std::span<const int> neighbors, int self) {
    const std::vector<int> single = single_neighbors(neighbors, self);
    for (std::size_t i = 0; i < neighbors.size(); ++i)
      if (std::binary_search(single.begin(), single.end(), neighbors[i])) index_[neighbors[i]] = static_cast<int>(i);
  }
  int operator()(int process) const {
    const auto found = index_.find(process);
    if (found == index_.end())
      throw Error(Errc::intern, "the combining pattern names " + std::to_string(process) + ", no single-edge neighbor");
    return found->second;
  }

 private:
  std::map<int, int> index_;
};

struct Routes {
  std::vector<int> combined_out, combined_in;  // single neighbors served by combining, ascending
};

// A step's friend exchange (phase 0) and combined sends (phase 1).
void add_step(const CombiningStep& step, Schedule& schedule, const SingleIndex& out, Phase& exchange, Phase& combined) {
  const bool allgather = schedule.collective == Collective::allgather;
  auto own_block = [&](int to) { return BlockRef{Buffer::send, allgather ? 0 : out(to)}; };
  Message to_friend{step.partner, {}}, from_friend{step.partner, {}};
  if (allgather && !step.offloaded.empty()) to_friend.blocks.push_back(own_block(step.offloaded.front()));
  if (!allgather)
    for (int to : step.offloaded) to_friend.blocks.push_back(own_block(to));
  for (std::size_t k = 0; k < step.onloaded.size(); ++k) {
    const int to = step.onloaded[k];
    if (!allgather || k == 0) {
      schedule.temps.push_back({Buffer::send, own_block(to).block});
      from_friend.blocks.push_back({Buffer::temp, static_cast<int>(schedule.temps.size()) - 1});
    }
    combined.sends.push_back({to, {own_block(to), from_friend.blocks.back()}});
  }
  if (!to_friend.blocks.empty()) exchange.sends.push_back(std::move(to_friend));
  if (!from_friend.blocks.empty()) exchange.recvs.push_back(std::move(from_friend));
}

Schedule plan_graph_combining(const GraphView& view, Collective collective) {
  Schedule schedule{collective, collective == Collective::allgather ? 1 : static_cast<int>(view.destinations.size()),
                    static_cast<int>(view.sources.size()), {}, {}};
  Phase exchange, combined;
  Routes routes;
  if (view.pattern != nullptr) {
    const SingleIndex out(view.destinations, view.rank), in(view.sources, view.rank);
    for (const CombiningStep& step : view.pattern->steps) {
      add_step(step, schedule, out, exchange, combined);
      routes.combined_out.insert(routes.combined_out.end(), step.onloaded.begin(), step.onloaded.end());
      routes.combined_out.insert(routes.combined_out.end(), step.offloaded.begin(), step.offloaded.end());
    }
    for (const CombinedArrival& arrival : view.pattern->arrivals) {
      combined.recvs.push_back({arrival.carrier, {{Buffer::recv, in(arrival.carrier)}, {Buffer::recv, in(arrival.partner)}}});
      routes.combined_in.insert(routes.combined_in.end(), {arrival.carrier, arrival.partner});
    }
    std::sort(routes.combined_out.begin(), routes.combined_out.end());
    std::sort(routes.combined_in.begin(), routes.combined_in.end());
  }
  add_direct_graph_edges(view, collective, exchange, routes.combined_out, routes.combined_in);
  schedule.phases.push_back(std::move(exchange));
  if (!combined.sends.empty() || !combined.recvs.empty()) schedule.phases.push_back(std::move(combined));
  return schedule;
}

}  // namespace

extern const PlannerEntry graph_combining_planner{
    "graph-combining",
    "003's message combining on distributed graphs: friends sharing out-neighbors split them (2 phases)",
    true, true, false, nullptr, plan_graph_combining, true};

}  // namespace cartcoll::detail
