// SPDX-License-Identifier: BSD-3-Clause
#include "cost.hpp"

#include <algorithm>
#include <cstdlib>

#include "cartcoll/error.hpp"

namespace cartcoll {

Figures figures_of(const Schedule& schedule) {
  Figures figures;
  figures.phases = schedule.communication_phases();
  figures.messages = schedule.messages();
  figures.sends_of_send_block.assign(static_cast<std::size_t>(schedule.send_blocks), 0);
  figures.sends_of_recv_block.assign(static_cast<std::size_t>(schedule.recv_blocks), 0);
  for (const Phase& phase : schedule.phases) {
    figures.messages_per_phase.push_back(static_cast<int>(phase.sends.size()));
    for (const Message& send : phase.sends)
      for (const BlockRef& ref : send.blocks) {
        const BlockRef shape = schedule.shape_of(ref);
        auto& counts = shape.buffer == Buffer::send ? figures.sends_of_send_block : figures.sends_of_recv_block;
        ++counts.at(static_cast<std::size_t>(shape.block));
      }
  }
  return figures;
}

Figures neighborhood_figures(Algorithm algorithm, const Offsets& offsets, Collective collective) {
  try {
    const Grid torus = unwrapped_torus(offsets);
    return figures_of(plan(algorithm, {torus, offsets, middle_of(torus)}, collective));
  } catch (const Error&) {
    // Offsets so long that no such torus fits in an int: the planner's phases, planned on a torus of
    // one process, where everything is a copy; and every block counted as sent once, as its own message.
    const auto d = static_cast<std::size_t>(offsets.ndims());
    const int t = offsets.count();
    const Grid unit(std::vector<int>(d, 1), std::vector<bool>(d, true));
    Figures figures;
    figures.phases = static_cast<int>(plan(algorithm, {unit, offsets, std::vector<int>(d, 0)}, collective).phases.size());
    figures.messages = t;
    figures.sends_of_send_block.assign(collective == Collective::allgather ? 1 : static_cast<std::size_t>(t),
                                       collective == Collective::allgather ? t : 1);
    figures.sends_of_recv_block.assign(static_cast<std::size_t>(t), 0);
    return figures;
  }
}

namespace {

double bytes_sent(std::span<const int> sends, std::span<const std::size_t> bytes) {
  double total = 0;
  for (std::size_t i = 0; i < sends.size() && i < bytes.size(); ++i)
    total += static_cast<double>(sends[i]) * static_cast<double>(bytes[i]);
  return total;
}

}  // namespace

double predicted_seconds(const Figures& figures, const CostModel& model, std::span<const std::size_t> send_bytes,
                         std::span<const std::size_t> recv_bytes) {
  const double bytes =
      bytes_sent(figures.sends_of_send_block, send_bytes) + bytes_sent(figures.sends_of_recv_block, recv_bytes);
  return figures.phases * model.latency + figures.messages * model.per_message + bytes * model.per_byte;
}

double predicted_seconds(const GraphLoad& load, const CostModel& model, double block_bytes) {
  double own_work = load.messages * model.per_message, lockstep = 0;
  for (int messages : load.messages_per_phase)
    if (messages > 0) {
      own_work += model.latency;
      lockstep += model.latency + messages * model.per_message;
    }
  return (own_work + lockstep) / 2 + load.blocks_sent * block_bytes * model.per_byte;
}

namespace {

std::vector<Algorithm> candidates_for(Collective collective, NeighborhoodKind kind) {
  std::vector<Algorithm> candidates;
  const auto table = planners();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i].auto_candidate && table[i].serves(collective) && table[i].serves(kind))
      candidates.push_back(Algorithm::from_id(static_cast<int>(i)));
  return candidates;
}

}  // namespace

std::span<const Algorithm> auto_candidates(Collective collective, NeighborhoodKind kind) {
  // Fixed by the registry, so computed once: [collective][kind].
  static const std::vector<Algorithm> table[2][2] = {
      {candidates_for(Collective::alltoall, NeighborhoodKind::cartesian),
       candidates_for(Collective::alltoall, NeighborhoodKind::graph)},
      {candidates_for(Collective::allgather, NeighborhoodKind::cartesian),
       candidates_for(Collective::allgather, NeighborhoodKind::graph)}};
  return table[collective == Collective::alltoall ? 0 : 1][kind == NeighborhoodKind::cartesian ? 0 : 1];
}

}  // namespace cartcoll
