#pragma once
// The simulator: runs the schedules of all p processes of a grid in one process, over an in-memory
// transport, and proves them: every send meets exactly one receive of the same size in the same
// phase, no block is read and written in one phase, and the result can be compared with the
// reference model.
#include <span>
#include <stdexcept>

#include "cartcoll/reference.hpp"
#include "cartcoll/schedule.hpp"

namespace cartcoll {

class ScheduleError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// schedules[r] is rank r's schedule. send/recv as in reference::exchange; temp slots are sized like
// the receive blocks. Throws ScheduleError on any protocol violation.
reference::Blocks simulate(std::span<const Schedule> schedules, const reference::Blocks& send,
                           reference::Blocks recv);

}  // namespace cartcoll
