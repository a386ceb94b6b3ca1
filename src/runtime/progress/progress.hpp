// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The progress engine: one per process, for every active operation of the library on every
// communicator. Waiting for or testing any one operation advances all of them, as MPI's progress
// rule requires: a nonblocking or persistent operation whose later phases are only posted when this
// process advances it would otherwise stall its peers while this process waits for something else.
//
// The engine keeps the outstanding requests of all active operations in one pool and blocks in one
// MPI_Waitsome over it (MPI_Testsome when testing), so each completion costs O(1) bookkeeping and no
// array is rebuilt per call; an operation whose requests have all completed is advanced to its next
// step, which posts more. Idle, the pool is empty and the engine costs nothing.
#include <mpi.h>

#include <optional>
#include <span>
#include <vector>

#include "cartcoll/error.hpp"

namespace cartcoll::detail {

class ProgressEngine;

// Work the engine advances: a schedule's execution, or one plain MPI request the library waits on.
class Progressing {
 public:
  Progressing() = default;
  Progressing(const Progressing&) = delete;
  Progressing& operator=(const Progressing&) = delete;
  virtual ~Progressing();

  bool complete() const noexcept { return complete_; }
  // The first MPI error of an MPI call or a request of this work, MPI_SUCCESS if none.
  int error() const noexcept { return error_; }

 protected:
  // Called when none of this work's requests is outstanding: posts the next step's requests with
  // ProgressEngine::post, or calls finish(). Must not throw; an MPI error goes to fail().
  virtual void advance(ProgressEngine& engine) noexcept = 0;
  void finish() noexcept { complete_ = true; }
  // Active again, without error (each start).
  void begin() noexcept {
    complete_ = false;
    error_ = MPI_SUCCESS;
  }
  // Requests of the current step posted and not yet complete (those posted aside do not count).
  bool waiting() const noexcept { return outstanding_ > aside_; }
  // Requests posted aside (ProgressEngine::post_aside) not yet complete: the work may not finish.
  bool waiting_aside() const noexcept { return aside_ > 0; }
  void fail(int code) noexcept;
  // Keeps the first error without ending the work.
  void record(int code) noexcept {
    if (error_ == MPI_SUCCESS) error_ = code;
  }
  // One of this work's requests completed with an error (MPI_ERR_TRUNCATE, say): by default the
  // work fails; an execution goes on (Execution::message_failed).
  virtual void message_failed(int code) noexcept { fail(code); }

 private:
  friend class ProgressEngine;
  int outstanding_ = 0;
  int aside_ = 0;     // of outstanding_, those posted aside
  bool to_advance_ = false;  // in ProgressEngine::complete's list of works to advance
  bool complete_ = true;
  bool registered_ = false;
  int error_ = MPI_SUCCESS;
};

class ProgressEngine {
 public:
  // The process's engine, made on first use. CARTCOLL_PROGRESS=operation (read once per process)
  // makes waiting and testing advance only the operation waited for: a switch for tests that prove
  // the engine is needed, never for production.
  static ProgressEngine& instance();
  // CARTCOLL_PROGRESS's error, once per process: an Error for a value other than unset, empty,
  // `everything` or `operation` the first time it is asked (the engine then progresses everything),
  // nullopt after that and for good values. Asked where a communicator's settings are agreed.
  static std::optional<Error> setting_error_once();

  // Starts `work` (its first advance). It stays registered until complete.
  void start(Progressing& work);
  // Marks `work` as started but not yet advancing (waiting for a CommGate, which starts it): waiting
  // for it progresses everything else until it is started and complete.
  void defer(Progressing& work) noexcept;
  // One round of progress over every active operation; true when `work` is complete.
  bool test(Progressing& work);
  // Progress until `work` is complete, blocking in MPI while nothing can be done.
  void wait(Progressing& work);
  // One round of progress over every active operation, if there is any, without blocking: for loops
  // of the library that wait for something the engine does not hold (probes for unknown senders).
  void poll();
  // Waits for a plain MPI request of the library (a nonblocking MPI collective) the same way.
  void wait(MPI_Request& request);
  // Forgets `work`'s outstanding requests (an execution destroyed before it completed: an error path).
  void withdraw(Progressing& work) noexcept;

  // One round of progress that blocks until at least one request of the pool completes (returns at
  // once with an empty pool): for loops that wait for one of several things.
  void block_once();

  // For Progressing::advance: `request` belongs to `owner` until it completes. A started persistent
  // request stays owned by whoever made it (the pool holds a copy of its handle); any other request
  // is the engine's, which completes and so frees it. A borrowed request is a user's, waited for
  // here: on completion its handle goes back to `*origin` (MPI_REQUEST_NULL where MPI freed it) and
  // its status to `*status` (unless null); withdrawn, it is left as it is.
  enum class Kind { started_persistent, owned_by_engine, borrowed };
  void post(Progressing& owner, MPI_Request request, Kind kind, MPI_Request* origin = nullptr,
            MPI_Status* status = nullptr);
  // For Progressing::advance: a request of the engine's that `owner` needs complete before it
  // finishes but that holds up none of its steps (a block sent or received beside a schedule's
  // phases). Its completion advances `owner` only where no step's request is left.
  void post_aside(Progressing& owner, MPI_Request request);

  std::size_t outstanding() const noexcept { return requests_.size(); }
  // No operation of the library is active: nothing needs this process's progress but what it waits for.
  bool idle() const noexcept { return registered_ == 0 && requests_.empty(); }

 private:
  struct Entry {
    Progressing* owner;  // nullptr once the request has completed
    Kind kind;
    bool aside;
    MPI_Request* origin;  // borrowed: the user's handle
    MPI_Status* status;   // borrowed: where its status goes
  };

  ProgressEngine();
  void poke(bool block, Progressing* only);
  bool complete_alone(bool block, Progressing& work);
  void unregister(Progressing& work) noexcept;
  void complete(std::span<const std::size_t> completed, std::span<const MPI_Status> statuses);
  void drop_completed();

  std::vector<MPI_Request> requests_;  // contiguous, as MPI_Waitsome wants them
  std::vector<Entry> entries_;         // entries_[i] describes requests_[i]
  std::vector<int> indices_;
  std::vector<MPI_Status> statuses_;
  std::vector<std::size_t> completed_;  // scratch: pool positions that just completed
  std::vector<MPI_Status> completed_statuses_;
  std::vector<Progressing*> advanced_;  // scratch: owners whose last request just completed
  std::vector<MPI_Request> subset_;     // scratch for per-operation progress
  std::vector<std::size_t> positions_;  // scratch: subset_[k] is requests_[positions_[k]]
  bool everything_ = true;
  bool busy_ = false;
  int registered_ = 0;  // works started and not finished
};

// A user's request, waited for or tested through the engine (see Kind::borrowed).
class Borrowed : public Progressing {
 public:
  Borrowed(MPI_Request* request, MPI_Status* status) : request_(request), status_(status) {}

 private:
  void advance(ProgressEngine& engine) noexcept override;
  MPI_Request* request_;
  MPI_Status* status_;
  bool posted_ = false;
};

}  // namespace cartcoll::detail
