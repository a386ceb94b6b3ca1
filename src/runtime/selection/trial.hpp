// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// `auto` by measurement: the candidate schedules run a few times each on scratch buffers shaped
// like the call's (same counts and datatypes), the way the call will run them, and the fastest wins.
#include <mpi.h>

#include <optional>
#include <vector>

#include "cartcoll/layout.hpp"
#include "core/planning/plan.hpp"
#include "runtime/comm/state.hpp"

namespace cartcoll::detail {

// Collective over the state's library communicator. Every process returns the same algorithm: the
// one whose median time, taken as the maximum over processes, is lowest; the first candidate keeps
// ties within 2 %. `modelled` is the cost model's price of each candidate (auto_candidates order);
// the trial is bounded by it and by the first runs (trial.cpp, give_up_factor and unrun_factor;
// docs/design.md, "Choosing: `auto`"). nullopt, on every process alike, when the call's blocks hold
// more bytes than the scratch budget (decided from the bytes, which are equal everywhere, never from
// extents, which a process's datatypes may stretch).
std::optional<Algorithm> fastest_by_trial(CommState& state, const Layout& layout, CallKind kind,
                                          std::vector<double> modelled);

// Collective over the state's library communicator, on a graph where a set-up ran under `auto`:
// the largest block (bytes) up to which verdict.forwarding is measured faster than verdict.direct in
// a regular `collective` that every process runs with blocks of one size, -1 where it is not even
// at the smallest. Sizes go up by factors of 8 until combining loses (its cost grows faster with
// the size: it forwards blocks), and the limit lies halfway (geometrically) to the next size. The
// same on every process. With `sizes_travel` the forwarding schedule runs as a v or w call's does
// (Schedule::sizes_travel: packed, sizes at the heads), which costs more per byte.
long long combining_limit_by_trial(CommState& state, const ForwardingVerdict& verdict, Collective collective,
                                   CallKind kind, bool sizes_travel);

// Where a call's blocks lie: [send_low, send_low + send_bytes) and [recv_low, recv_low + recv_bytes)
// (absolute addresses).
struct CallRegions {
  MPI_Aint send_low = 0, send_bytes = 0, recv_low = 0, recv_bytes = 0;
};

// Collective over the state's library communicator: whether `second` (a schedule and a layout within
// `regions`) runs faster than `first` as a persistent request runs them, measured as the trial
// measures candidates, on fresh memory standing for the regions (never the call's buffers); `first`
// keeps ties within 2 %. The same on every process; nullopt, alike everywhere, where some process's
// regions exceed the scratch budget.
std::optional<bool> second_faster_by_trial(CommState& state, const Schedule& first, const Layout& first_layout,
                                           const Schedule& second, const Layout& second_layout,
                                           const CallRegions& regions);

}  // namespace cartcoll::detail
