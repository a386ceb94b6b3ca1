// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The simulator: runs the schedules of all p processes in one process, over an in-memory transport,
// and proves them: every send meets exactly one receive of the same size in the same phase (the k-th
// send from P to Q in a phase meets Q's k-th receive from P), no phase receives a block twice or
// sends and receives the same block, nothing writes the send buffer, and the result can be compared
// with the reference model.
#include <span>
#include <stdexcept>

#include "cartcoll/export.h"
#include "reference.hpp"
#include "core/model/schedule.hpp"

namespace cartcoll {

class CARTCOLL_API ScheduleError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// schedules[r] is rank r's schedule; send[r] and recv[r] its send blocks and the initial contents
// of its receive blocks, which must number schedules[r].send_blocks and .recv_blocks. Temp blocks
// are sized like the blocks they are declared like (or have their declared bytes), or, where the schedule's sizes travel
// (Schedule::sizes_travel), by the message that fills them, which must carry sizes; both ends of a
// message must agree on whether it carries sizes. A process with fewer phases than another has
// empty phases at the end. Reductions apply `op` (a schedule with reductions needs one). Throws
// ScheduleError on any protocol violation.
CARTCOLL_API reference::Blocks simulate(std::span<const Schedule> schedules, const reference::Blocks& send,
                                        reference::Blocks recv, const reference::ReduceOp& op = {});

}  // namespace cartcoll
