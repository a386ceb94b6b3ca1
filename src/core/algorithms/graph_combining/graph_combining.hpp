// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Message combining on distributed graphs (Mirsadeghi et al.'s Exploiting Common Neighborhoods):
// what the set-up computes for one process, and the set-up run for all processes of a graph in one
// process (the simulated transport), for tests and cartcoll-plan. The planner `graph-combining`
// turns a process's pattern into its schedule; the MPI layer runs the same set-up over MPI at graph
// creation (docs/graph-combining.md).
#include <vector>

#include "cartcoll/export.h"
#include "core/model/graph.hpp"
#include "core/planning/setup.hpp"

namespace cartcoll {

// The set-up's parameters; equal on all processes (agreed at creation).
struct CombiningParameters {
  int threshold = 4;        // Θ: friends share at least this many out-neighbors (at least 2)
  int steps = 16;           // matching steps: a process has at most one friend per step
  int candidates = 8;       // the best friends a process proposes to in one step
  int matching_rounds = 6;  // proposal rounds per step (Hoepman-style: mutual proposals pair)
  // The most phases a schedule may have (at least 2). 2 is Mirsadeghi et al.'s combining: a block
  // is forwarded at most once. More allows cumulative combining (Mirsadeghi et al.'s future work):
  // a carrier keeps an onloaded out-neighbor while the bundle it carries there is complete before
  // the last phase but one, so that the bundle can be handed on in a later step.
  int phases = 2;
  // node-combining on graphs: friends only on the same node (ranks with equal rank / node_size), so
  // that every handover stays within a node and only combined messages leave it; 0: friends
  // anywhere (graph-combining).
  int node_size = 0;
};

// Error(Errc::info_value) unless threshold >= 2, steps >= 0, candidates >= 1, matching_rounds >= 1,
// phases >= 2 and node_size >= 0.
CARTCOLL_API void validate(const CombiningParameters& parameters);

// One step in which this process has a friend: of their common active out-neighbors (sorted by
// rank), the process carries both bundles to `onloaded`, the friend to `offloaded`. A bundle is the
// list of origins whose blocks for that out-neighbor a process carries: itself, then what earlier
// steps handed it (only itself without cumulative combining). carried[k]: the friend's bundle for
// onloaded[k], which it hands over in this step's exchange, in phase `receive_phase` of the
// schedule (the first phase after the friend received the last block it hands over; 0 when it
// hands over only its own blocks).
struct CombiningStep {
  int step = 0;
  int partner = 0;
  std::vector<int> onloaded, offloaded;
  std::vector<std::vector<int>> carried;
  int receive_phase = 0;
};

// A combined message this process receives from `carrier`: the blocks of `origins` in this order
// (the carrier's own first), complete at the carrier from phase `phase` on.
struct CombinedArrival {
  int carrier = 0;
  std::vector<int> origins;
  int phase = 1;
};

// One process's result of the set-up. Only edges that occur once between two different processes
// take part; repeated edges, self edges and absent neighbors stay direct.
struct CombiningPattern : SetupResult {
  std::vector<CombiningStep> steps;
  std::vector<CombinedArrival> arrivals;
  // The phase budget the set-up ran with, the same on every process: the schedules deliver
  // everything (direct edges, combined messages) in its last phase, after the exchanges of the
  // phases before (docs/graph-combining.md, "Every delivery in the last phase").
  int phases = 2;

  // The last phase of the budget, with the combined messages. The phases before hold the friend
  // exchanges alone, so that no process starts its deliveries late for a direct message it does not
  // forward.
  int direct_phase() const override { return phases - 1; }
};

// The pattern without the side(s) `sides` leaves out: what is left out goes directly.
// Under `auto` a process combines what it sends where its send blocks are small enough, and what it
// receives where its receive blocks are (docs/graph-combining.md): on a regular alltoall or
// allgather, friends, the carriers of a combined message and its receiver all size their blocks
// alike, so both ends of every message decide alike.
CARTCOLL_API CombiningPattern restricted_to(const CombiningPattern& pattern, CombinedSides sides);

struct SimulatedSetup : SetupCosts {
  std::vector<CombiningPattern> patterns;  // per rank
};

// The set-up of every process of `graph` (consistent), run in lockstep rounds in this process.
CARTCOLL_API SimulatedSetup simulate_combining_setup(const Graph& graph, const CombiningParameters& parameters);

namespace detail {
// The set-up plug-in of the planners that plan from a CombiningPattern (graph-combining, and
// node-combining on graphs, whose set-up pairs friends within a node).
extern const SetupPlugin combining_setup;
}  // namespace detail

}  // namespace cartcoll
