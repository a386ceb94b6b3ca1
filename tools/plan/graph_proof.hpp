// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// cartcoll-plan --verify: every process's schedule of one planner run in the simulator on blocks of
// one size whose bytes depend on sender, block and position, compared with the reference model.
#include <span>

#include "core/model/graph.hpp"
#include "core/model/schedule.hpp"

namespace cartcoll::plan_tool {

// The received bytes that differ from the reference model's (the simulator's protocol errors throw
// ScheduleError).
long long wrong_bytes(const Graph& graph, Collective collective, std::span<const Schedule> schedules);

}  // namespace cartcoll::plan_tool
