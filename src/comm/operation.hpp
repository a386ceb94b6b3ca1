#pragma once
// A collective bound to its buffers: the schedule lowered for MPI, plus what a request needs to know.
#include <memory>

#include "../exec/mpi_executor.hpp"

namespace cartcoll::detail {

class Operation {
 public:
  Operation(MPI_Comm user_comm, const Schedule& schedule, const Layout& layout, MPI_Comm library_comm, int tag,
            bool persistent, Reuse reuse = {})
      : user_comm_(user_comm),
        persistent_(persistent),
        execution_(schedule, layout, library_comm, tag,
                   persistent ? Execution::Mode::persistent : Execution::Mode::once, reuse) {}

  MPI_Comm user_comm() const noexcept { return user_comm_; }
  bool persistent() const noexcept { return persistent_; }
  Execution& execution() noexcept { return execution_; }

 private:
  MPI_Comm user_comm_;
  bool persistent_;
  Execution execution_;
};

}  // namespace cartcoll::detail
