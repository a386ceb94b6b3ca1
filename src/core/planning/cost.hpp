// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Automatic algorithm selection: a linear cost model over a schedule's figures (no MPI).
//
// A call costs, per phase that communicates, one latency; per message, a per-message overhead; per
// byte sent, a transfer time. Träff and Hunold's (Cartesian Collective Communication) cut-off
// (message combining pays while m < a/b (t-C)/(V-t)) is the special case with no per-message term
// and one phase per round.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cartcoll/cost_model.hpp"
#include "cartcoll/export.h"
#include "plan.hpp"

namespace cartcoll {


// What a schedule costs, independent of buffers: phases, messages, and how often each of the call's
// blocks is sent (a temp block counts for the call block it is shaped like; sizes come per call).
struct Figures {
  int phases = 0;
  int messages = 0;
  std::vector<int> messages_per_phase;   // indexed by the schedule's phases, empty ones included
  std::vector<int> sends_of_send_block;  // indexed by send block
  std::vector<int> sends_of_recv_block;  // indexed by receive block
};

CARTCOLL_API Figures figures_of(const Schedule& schedule);

// The neighborhood's figures: planned for the middle process of a torus on which no offset wraps,
// so every process computes the same figures and makes the same choice.
CARTCOLL_API Figures neighborhood_figures(Algorithm algorithm, const Offsets& offsets, Collective collective);

// Bytes of each send block and each receive block of the call.
CARTCOLL_API double predicted_seconds(const Figures& figures, const CostModel& model,
                                      std::span<const std::size_t> send_bytes,
                                      std::span<const std::size_t> recv_bytes);

// A graph schedule as all processes judge it: the most messages one process sends in each phase and
// in all, and the most blocks one process sends (maxima over processes: one allreduce agrees them).
struct GraphLoad {
  std::vector<int> messages_per_phase;
  int messages = 0;
  int blocks_sent = 0;
};

// Its time with every block `block_bytes` bytes long. A phase's messages wait for the blocks the phase
// before brought, so the slowest path lies between two bounds: the busiest process's own work (a
// latency per phase that sends, its messages, nothing waited for) and phases in lockstep (per phase,
// a latency and that phase's busiest sender). The prediction is their midpoint, plus the most blocks'
// bytes; it ordered the budgets as the simulation did in 5 of 5 graphs, and trivial against them in
// 4 of 5 (docs/graph-combining.md, "Choosing the phase budget").
CARTCOLL_API double predicted_seconds(const GraphLoad& load, const CostModel& model, double block_bytes);

// The registered planners `auto` chooses among for `collective` on a neighborhood of `kind`, in
// registry order.
CARTCOLL_API std::span<const Algorithm> auto_candidates(Collective collective, NeighborhoodKind kind);

// The candidate the model predicts to be fastest for a call with these block sizes; the earlier
// candidate wins a tie. `figures(candidate)` gives a candidate's figures (Figures or const Figures&).
template <typename FiguresOf>
Algorithm cheapest(std::span<const Algorithm> candidates, FiguresOf&& figures, const CostModel& model,
                   std::span<const std::size_t> send_bytes, std::span<const std::size_t> recv_bytes) {
  std::optional<Algorithm> best;
  double best_seconds = 0;
  for (Algorithm candidate : candidates) {
    const double seconds = predicted_seconds(figures(candidate), model, send_bytes, recv_bytes);
    if (!best || seconds < best_seconds) {
      best = candidate;
      best_seconds = seconds;
    }
  }
  return best.value_or(Algorithm::automatic());
}

}  // namespace cartcoll
