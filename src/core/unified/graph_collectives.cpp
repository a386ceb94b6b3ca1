// SPDX-License-Identifier: BSD-3-Clause
// The unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) rooted and reduction
// collectives on a distributed graph, as schedules: one phase of at most one message per pair of
// processes, then local copies and the reduction fold.
#include "graph_collectives.hpp"

#include <algorithm>
#include <map>

#include "cartcoll/error.hpp"

namespace cartcoll {

namespace {

constexpr BlockRef send_block{Buffer::send, 0};
constexpr BlockRef result_block{Buffer::recv, 0};

// The neighbors other than `self` (and no_process), each once, in the order they first appear.
std::vector<int> distinct_peers(std::span<const int> neighbors, int self) {
  std::vector<int> peers;
  for (int neighbor : neighbors)
    if (neighbor != no_process && neighbor != self && std::find(peers.begin(), peers.end(), neighbor) == peers.end())
      peers.push_back(neighbor);
  return peers;
}

// The positions at which `neighbor` appears in the list.
std::vector<int> slots_of(std::span<const int> neighbors, int neighbor) {
  std::vector<int> slots;
  for (std::size_t i = 0; i < neighbors.size(); ++i)
    if (neighbors[i] == neighbor) slots.push_back(static_cast<int>(i));
  return slots;
}

bool names(std::span<const int> neighbors, int neighbor) {
  return std::find(neighbors.begin(), neighbors.end(), neighbor) != neighbors.end();
}

int count_of(std::span<const int> neighbors) { return static_cast<int>(neighbors.size()); }

Schedule one_phase(Collective collective, int send_blocks, int recv_blocks) {
  Schedule schedule{collective, send_blocks, recv_blocks, {}, {}};
  schedule.phases.emplace_back();
  return schedule;
}

BlockRef new_temp(Schedule& schedule, TempBlock like) {
  schedule.temps.push_back(like);
  return {Buffer::temp, static_cast<int>(schedule.temps.size()) - 1};
}

// The one block of each distinct other source arrives in a temp block; then receive block 0 becomes
// s_0 op s_1 op ... over the in-edges, folded from the last: a copy of s_(n-1), then s_i reduced
// into it for i = n-2 .. 0 (Reduction's order makes that the left-to-right product). The process's
// own block (a self edge) is its send block, or with MPI_IN_PLACE receive block 0 itself, which is
// first copied aside since the fold overwrites it.
void fold_sources(const GraphView& view, Contribution own, Schedule& schedule) {
  Phase& phase = schedule.phases.back();
  std::map<int, BlockRef> arrived;
  for (int from : distinct_peers(view.sources, view.rank)) {
    arrived[from] = new_temp(schedule, {Buffer::recv, 0});
    phase.recvs.push_back({from, {arrived[from]}});
  }
  BlockRef own_block = send_block;
  if (own == Contribution::in_place && names(view.sources, view.rank)) {
    own_block = new_temp(schedule, {Buffer::recv, 0});
    phase.copies.push_back({result_block, own_block});
  }
  std::vector<BlockRef> terms;
  for (int from : view.sources)
    if (from != no_process) terms.push_back(from == view.rank ? own_block : arrived[from]);
  if (terms.empty()) return;  // no in-edge: the receive buffer stays as it is
  phase.copies.push_back({terms.back(), result_block});
  for (std::size_t i = terms.size() - 1; i-- > 0;) phase.reductions.push_back({terms[i], result_block});
}

}  // namespace

Schedule plan_bcast(const GraphView& view, int root) {
  Schedule schedule = one_phase(Collective::allgather, 1, 1);
  Phase& phase = schedule.phases.back();
  if (view.rank == root)
    for (int to : distinct_peers(view.destinations, view.rank)) phase.sends.push_back({to, {send_block}});
  else if (names(view.sources, root))
    phase.recvs.push_back({root, {result_block}});  // every edge from the root carries the same bytes
  return schedule;
}

Schedule plan_gather(const GraphView& view, int root, Contribution own) {
  const bool at_root = view.rank == root;
  const bool in_place = at_root && own == Contribution::in_place;
  Schedule schedule = one_phase(Collective::allgather, in_place ? 0 : 1, at_root ? count_of(view.sources) : 0);
  Phase& phase = schedule.phases.back();
  if (!at_root) {
    if (names(view.destinations, root)) phase.sends.push_back({root, {send_block}});
    return schedule;
  }
  for (int from : distinct_peers(view.sources, view.rank)) {
    const std::vector<int> slots = slots_of(view.sources, from);
    phase.recvs.push_back({from, {{Buffer::recv, slots.front()}}});
    for (std::size_t k = 1; k < slots.size(); ++k)
      phase.copies.push_back({{Buffer::recv, slots.front()}, {Buffer::recv, slots[k]}});
  }
  if (!in_place)
    for (int slot : slots_of(view.sources, view.rank)) phase.copies.push_back({send_block, {Buffer::recv, slot}});
  return schedule;
}

// The root's blocks for Q travel in one message, in the order of Q's occurrences among its
// destinations; Q receives them into its receive blocks 0, 1, ... (one per edge from the root).
Schedule plan_scatter(const GraphView& view, int root, Contribution own) {
  const bool at_root = view.rank == root;
  const int self_edges = count_of(slots_of(view.sources, view.rank));
  const int receives =
      at_root ? (own == Contribution::in_place ? 0 : self_edges) : count_of(slots_of(view.sources, root));
  Schedule schedule = one_phase(Collective::alltoall, at_root ? count_of(view.destinations) : 0, receives);
  Phase& phase = schedule.phases.back();
  if (!at_root) {
    Message message{root, {}};
    for (int k = 0; k < receives; ++k) message.blocks.push_back({Buffer::recv, k});
    if (receives > 0) phase.recvs.push_back(std::move(message));
    return schedule;
  }
  for (int to : distinct_peers(view.destinations, view.rank)) {
    Message message{to, {}};
    for (int j : slots_of(view.destinations, to)) message.blocks.push_back({Buffer::send, j});
    phase.sends.push_back(std::move(message));
  }
  const std::vector<int> to_self = slots_of(view.destinations, view.rank);
  for (int k = 0; k < receives && k < count_of(to_self); ++k)
    phase.copies.push_back({{Buffer::send, to_self[static_cast<std::size_t>(k)]}, {Buffer::recv, k}});
  return schedule;
}

Schedule plan_reduce(const GraphView& view, int root, Contribution own) {
  const bool at_root = view.rank == root;
  Schedule schedule = one_phase(Collective::allgather, 1, at_root ? 1 : 0);
  if (at_root)
    fold_sources(view, own, schedule);
  else if (names(view.destinations, root))
    schedule.phases.back().sends.push_back({root, {send_block}});
  return schedule;
}

Schedule plan_allreduce(const GraphView& view, Contribution own) {
  Schedule schedule = one_phase(Collective::allgather, 1, 1);
  for (int to : distinct_peers(view.destinations, view.rank))
    schedule.phases.back().sends.push_back({to, {send_block}});
  fold_sources(view, own, schedule);
  return schedule;
}

Schedule stage_sends_in_temps(Schedule schedule) {
  if (schedule.send_blocks > schedule.recv_blocks)
    throw Error(Errc::buffer, "MPI_IN_PLACE with more destinations than sources: send block " +
                                  std::to_string(schedule.recv_blocks) + " has no receive block to come from");
  for (TempBlock& temp : schedule.temps)
    if (temp.like == Buffer::send) temp.like = Buffer::recv;
  std::map<int, int> staged;  // send block -> its temp block
  Phase staging;
  auto restage = [&](BlockRef& ref) {
    if (ref.buffer != Buffer::send) return;
    const auto [at, added] = staged.try_emplace(ref.block, static_cast<int>(schedule.temps.size()));
    if (added) {
      schedule.temps.push_back({Buffer::recv, ref.block});
      staging.copies.push_back({{Buffer::recv, ref.block}, {Buffer::temp, at->second}});
    }
    ref = {Buffer::temp, at->second};
  };
  for (Phase& phase : schedule.phases) {
    for (Message& send : phase.sends)
      for (BlockRef& ref : send.blocks) restage(ref);
    for (Copy& copy : phase.copies) restage(copy.from);
    for (Reduction& reduction : phase.reductions) restage(reduction.from);
  }
  schedule.send_blocks = 0;
  if (!staging.copies.empty()) schedule.phases.insert(schedule.phases.begin(), std::move(staging));
  return schedule;
}

}  // namespace cartcoll
