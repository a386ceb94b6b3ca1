// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The simulated transport: the protocols of all p processes in one process, in lockstep rounds, with
// each process's rounds, messages, bytes and compute time counted.
#include <span>
#include <vector>

#include "core/planning/setup.hpp"
#include "transport.hpp"

namespace cartcoll::detail {

// Per process and per round (core/planning/setup.hpp).
using SimulatedRun = SetupCosts;

// processes[r] is rank r's protocol. Error(Errc::intern) if their round counts differ or a parcel
// names no process or carries no value.
SimulatedRun run_simulated(std::span<RoundProtocol* const> processes);

}  // namespace cartcoll::detail
