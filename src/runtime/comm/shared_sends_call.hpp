// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A persistent alltoallv or alltoallw whose send blocks share bytes (a stencil's halo: the corner
// that goes to a diagonal neighbor lies in the row and the column that go to the principal ones),
// run as the unified-interfaces paper (Träff, Hunold, Mercier and Holmes, section 3.5) sketches it
// for an implementation with full structural information: each shared byte is sent once and
// forwarded by the processes that need it too. The init finds the shared bytes
// (core/model/shared_sends.hpp), all processes agree that they found the same, and the call then runs
// a schedule of parts over a layout of its own: send block a is part a of the send buffer, receive
// block k piece k, placed through the receiver's own receive datatypes.
#include <optional>
#include <vector>

#include "cartcoll/layout.hpp"
#include "core/model/schedule.hpp"
#include "runtime/exec/mpi_handles.hpp"
#include "state.hpp"

namespace cartcoll::detail {

struct SharedSendsCall {
  Schedule schedule;
  Layout layout;
  std::vector<Datatype> types;  // the parts' and pieces' datatypes, which `layout` names
  Choice choice;
};

// Collective over the state's library communicator where shared_sends_planner allows the call (the
// same on every process), local and nullopt otherwise: the call as a schedule of parts where every
// process found its send blocks to share bytes alike (one allreduce agrees it, and, under `auto`,
// the model's prices of `plain` and of the parts), nullopt where the call runs `plain`.
std::optional<SharedSendsCall> shared_sends_call(CommState& state, Algorithm requested, const Layout& layout,
                                                 const Schedule& plain);

}  // namespace cartcoll::detail
