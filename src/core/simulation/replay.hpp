// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A timed replay of the schedules of all p processes on a model machine, without data: what a call
// takes where every message costs its sender a fixed overhead and arrives a fixed latency (plus a
// time per byte) after its sender paid for it, and nothing else costs anything. That is LogP without
// the gap, and exactly what SimGrid's SMPI charges on its latency-only (Constant) network with a send
// overhead (docs/simulation.md), so it predicts those simulations in milliseconds instead of hours.
#include <span>
#include <vector>

#include "cartcoll/export.h"
#include "core/model/schedule.hpp"

namespace cartcoll {

struct MessageTiming {
  double overhead = 0.5e-6;  // seconds of the sender's time per message
  double latency = 1e-6;     // seconds from the end of the sender's overhead to the arrival
  double per_byte = 0;       // seconds per byte on the way
};

// schedules[r] is rank r's; every block `block_bytes` long. All processes start at 0. A process
// starts phase k + 1 when phase k is complete there (schedule.hpp): it pays the overhead of each of
// the phase's sends in order, and the phase is complete when the last of them is paid and the last
// of its receives has arrived. Returns when each process completes (its last phase). Throws
// Error(Errc::intern) where a receive has no send to match (the k-th receive from Q in a phase
// matches Q's k-th send to this process in that phase).
CARTCOLL_API std::vector<double> replayed_completion(std::span<const Schedule> schedules, const MessageTiming& timing,
                                                      double block_bytes);

// The call's time: when the last process completes (0 for no process).
CARTCOLL_API double replayed_call(std::span<const Schedule> schedules, const MessageTiming& timing, double block_bytes);

}  // namespace cartcoll
