#pragma once
// A collective bound to its buffers: the schedule lowered for MPI, the tag it holds, and what a
// request needs to know.
#include <memory>

#include "../exec/mpi_executor.hpp"
#include "state.hpp"

namespace cartcoll::detail {

class Operation {
 public:
  // `tag` was taken from the state's tag space (an ephemeral tag, or, if `persistent`, an agreed
  // persistent one); the operation gives it back when it goes.
  Operation(std::shared_ptr<CommState> state, MPI_Comm user_comm, const Schedule& schedule, const Layout& layout,
            int tag, bool persistent, Reuse reuse = {})
      : state_(std::move(state)),
        library_(state_->library()),
        user_comm_(user_comm),
        tag_(tag),
        persistent_(persistent),
        execution_(schedule, layout, persistent ? library_->ready() : library_->get(), tag,
                   persistent ? Execution::Mode::persistent : Execution::Mode::once, reuse, library_->gate()) {}
  ~Operation() {
    if (persistent_)
      state_->tags().release_persistent(tag_);
    else
      state_->tags().release_ephemeral(tag_);
  }
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  MPI_Comm user_comm() const noexcept { return user_comm_; }
  bool persistent() const noexcept { return persistent_; }
  // Active from start until a wait or a successful test completes it, as an MPI request is, even
  // where the engine finished the schedule earlier.
  bool active() const noexcept { return active_; }

  void start() {
    active_ = true;
    execution_.start();
  }
  void wait() {
    ProgressEngine::instance().wait(execution_);
    complete();
  }
  bool test() {
    if (!ready()) return false;
    complete();
    return true;
  }
  bool ready() { return ProgressEngine::instance().test(execution_); }

 private:
  std::shared_ptr<CommState> state_;      // keeps the tag space alive
  std::shared_ptr<LibraryComm> library_;  // outlives MPI_Comm_free of the user's communicator
  MPI_Comm user_comm_;
  int tag_;
  void complete() {
    active_ = false;
    if (execution_.error() != MPI_SUCCESS) throw Error(Errc::mpi, "a message of the collective failed", execution_.error());
  }

  bool persistent_;
  bool active_ = false;
  Execution execution_;
};

}  // namespace cartcoll::detail
