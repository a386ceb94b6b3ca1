// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What a Request holds: a collective started or startable, advanced by the progress engine. Most
// are schedules the library runs (ScheduledOperation); the unified-interfaces paper's (Träff,
// Hunold, Mercier and Holmes) collectives on communicators without a graph topology are MPI's own,
// held as the library's requests where they must be (src/runtime/unified).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/exec/mpi_executor.hpp"
#include "cartcoll/cartcoll.hpp"
#include "cartcoll/error.hpp"
#include "state.hpp"

namespace cartcoll::detail {

class Operation;

// The one way to make a Request from an operation (its constructor is private to users).
struct RequestAccess {
  static Request make(std::unique_ptr<Operation> operation) noexcept { return Request(std::move(operation)); }
};

class Operation {
 public:
  virtual ~Operation() = default;
  Operation(const Operation&) = delete;
  Operation& operator=(const Operation&) = delete;

  MPI_Comm user_comm() const noexcept { return user_comm_; }
  bool persistent() const noexcept { return persistent_; }
  // Active from start until a wait or a successful test completes it, as an MPI request is, even
  // where the engine finished the work earlier.
  bool active() const noexcept { return active_; }

  void start() {
    active_ = true;
    begin();
  }
  void wait() {
    ProgressEngine::instance().wait(work());
    complete();
  }
  bool test() {
    if (!ready()) return false;
    complete();
    return true;
  }
  bool ready() { return ProgressEngine::instance().test(work()); }
  // An error of the call that MPI lets a nonblocking operation report at its completion (a first
  // call's unusable settings, attach.hpp): the operation runs all the same, so that no peer waits
  // for it, and its wait or test throws `error`.
  void report_at_completion(const Error& error) { at_completion_ = error; }
  // Throws that error, if any: Request's completion of a nonblocking operation (a persistent one
  // never has one, so its completion does not look).
  void throw_reported_at_completion() const {
    if (at_completion_) throw *at_completion_;
  }
  // A completed nonblocking operation that its request lets go (`self` is this operation): destroyed
  // on return, unless it hands itself to whoever keeps it for a later call (ScheduledOperation).
  virtual void let_go(std::unique_ptr<Operation> self) noexcept { self.reset(); }

 protected:
  Operation(MPI_Comm user_comm, bool persistent) : user_comm_(user_comm), persistent_(persistent) {}
  void reset_user_comm(MPI_Comm comm) noexcept { user_comm_ = comm; }
  // Starts the work through the engine.
  virtual void begin() = 0;
  virtual Progressing& work() noexcept = 0;

 private:
  void complete() {
    active_ = false;
    if (work().error() != MPI_SUCCESS) throw Error(Errc::mpi, "a message of the collective failed", work().error());
  }

  MPI_Comm user_comm_;
  bool persistent_;
  bool active_ = false;
  std::optional<Error> at_completion_;
};

// A schedule bound to its buffers: lowered for MPI, with the tag it holds.
class ScheduledOperation final : public Operation {
 public:
  // `tag` was taken from the state's tag space (an ephemeral tag, or, if `persistent`, an agreed
  // persistent one); the operation gives it back when it goes.
  // `layout_types`: datatypes the library made for `layout` (the parts of send blocks that share
  // bytes), which live as long as the operation.
  ScheduledOperation(std::shared_ptr<CommState> state, MPI_Comm user_comm, const Schedule& schedule,
                     const Layout& layout, int tag, bool persistent, Reuse reuse = {},
                     std::vector<Datatype> layout_types = {})
      : Operation(user_comm, persistent),
        state_(std::move(state)),
        library_(state_->library()),
        tag_(tag),
        layout_types_(std::move(layout_types)),
        execution_(std::make_unique<Execution>(schedule, layout, persistent ? library_->ready() : library_->get(), tag,
                                               reuse, library_->gate())) {}
  // A nonblocking operation that, complete, goes to the state's last_nonblocking_call of generation
  // `kept` (CommState::give_back) when its request lets it go, for a later call to take (reuse).
  ScheduledOperation(std::shared_ptr<CommState> state, MPI_Comm user_comm, std::unique_ptr<Execution> execution,
                     int tag, std::uint64_t kept)
      : Operation(user_comm, false),
        state_(std::move(state)),
        library_(state_->library()),
        tag_(tag),
        execution_(std::move(execution)),
        kept_(kept) {}
  ~ScheduledOperation() override {
    if (tag_ == no_tag) return;  // kept idle: its tag went back when it was let go
    if (persistent())
      state_->tags().release_persistent(tag_);
    else
      state_->tags().release_ephemeral(tag_);
  }

  // A kept operation taken for a call on the state it was made on, that holds `tag`.
  void reuse(MPI_Comm user_comm, int tag) noexcept {
    reset_user_comm(user_comm);
    tag_ = tag;
    execution_->retag(tag);
  }
  // Kept idle, the operation keeps its reference to the state (no reference is counted per call): the
  // state's slot holds it until the user's communicator is freed (CommState::mark_freed), which breaks
  // that cycle. One the slot refuses goes on return, when no member of the state runs any more.
  void let_go(std::unique_ptr<Operation> self) noexcept override {
    if (!kept_ || !execution_->complete() || execution_->error() != MPI_SUCCESS) return;
    state_->tags().release_ephemeral(tag_);
    tag_ = no_tag;
    static_cast<void>(self.release());  // this operation, owned from here on by the slot (or refused)
    const std::unique_ptr<ScheduledOperation> refused =
        state_->give_back(std::unique_ptr<ScheduledOperation>(this), *kept_);
  }

 private:
  void begin() override { execution_->start(); }
  Progressing& work() noexcept override { return *execution_; }

  static constexpr int no_tag = -1;

  std::shared_ptr<CommState> state_;      // keeps the tag space alive
  std::shared_ptr<LibraryComm> library_;  // outlives MPI_Comm_free of the user's communicator
  int tag_;                               // no_tag while kept idle
  std::vector<Datatype> layout_types_;  // before execution_, which may use them until it goes
  std::unique_ptr<Execution> execution_;
  std::optional<std::uint64_t> kept_;
};

}  // namespace cartcoll::detail
