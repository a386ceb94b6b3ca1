// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The cost model `auto` chooses by (no MPI): what cartcoll::calibrate measures and CARTCOLL_PROFILE
// holds. How it prices a schedule is the library's own.

namespace cartcoll {

// A linear model: per communication phase one latency, per message an overhead, per byte a transfer
// time.
struct CostModel {
  double latency = 5e-6;       // seconds per communication phase
  double per_message = 1e-6;   // seconds per point-to-point message
  double per_byte = 1e-9;      // seconds per byte sent
};

}  // namespace cartcoll
