#include "cartcoll/cost.hpp"

#include <algorithm>
#include <cstdlib>

#include "cartcoll/error.hpp"

namespace cartcoll {

Figures figures_of(const Schedule& schedule) {
  Figures figures;
  figures.phases = schedule.communication_phases();
  figures.messages = schedule.messages();
  figures.sends_per_block.assign(static_cast<std::size_t>(schedule.block_count), 0);
  for (const Phase& phase : schedule.phases)
    for (const Round& round : phase.rounds) {
      if (round.send.peer == no_peer) continue;
      for (const BlockRef& ref : round.send.blocks)
        if (ref.block >= 0) ++figures.sends_per_block[static_cast<std::size_t>(ref.block % std::max(schedule.block_count, 1))];
    }
  return figures;
}

Figures neighborhood_figures(Algorithm algorithm, const Offsets& offsets, Collective collective) {
  const int d = offsets.ndims();
  std::vector<int> dims(static_cast<std::size_t>(d), 1), middle(static_cast<std::size_t>(d), 0);
  for (int k = 0; k < d; ++k) {
    int span = 0;
    for (int i = 0; i < offsets.count(); ++i) span = std::max(span, std::abs(offsets[i][static_cast<std::size_t>(k)]));
    dims[static_cast<std::size_t>(k)] = 2 * span + 1;
    middle[static_cast<std::size_t>(k)] = span;
  }
  try {
    const Grid torus(dims, std::vector<bool>(static_cast<std::size_t>(d), true));
    return figures_of(plan(algorithm, torus, offsets, collective, middle));
  } catch (const Error&) {
    // Offsets so long that no such torus fits in an int: plan on a unit torus (all blocks wrap
    // onto the process), where figures count nothing but rounds, and treat each block as sent once.
    Figures figures;
    figures.phases = algorithm == Algorithm::trivial ? 1 : d;
    figures.messages = offsets.count();
    figures.sends_per_block.assign(static_cast<std::size_t>(offsets.count()), 1);
    return figures;
  }
}

double predicted_seconds(const Figures& figures, const CostModel& model, std::span<const std::size_t> block_bytes,
                         Collective collective) {
  double bytes = 0;
  for (std::size_t i = 0; i < figures.sends_per_block.size(); ++i) {
    const std::size_t size = collective == Collective::allgather ? (block_bytes.empty() ? 0 : block_bytes[0])
                                                                 : (i < block_bytes.size() ? block_bytes[i] : 0);
    bytes += static_cast<double>(figures.sends_per_block[i]) * static_cast<double>(size);
  }
  return figures.phases * model.latency + figures.messages * model.per_message + bytes * model.per_byte;
}

}  // namespace cartcoll
