// SPDX-License-Identifier: BSD-3-Clause
#include "runtime/progress/progress.hpp"
#include "cartcoll/cartcoll.hpp"
#include "runtime/comm/operation.hpp"

namespace cartcoll {

Request::Request() noexcept = default;
Request::Request(std::unique_ptr<detail::Operation> operation) noexcept : operation_(std::move(operation)) {}
Request::Request(Request&&) noexcept = default;
Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    Request old(std::move(*this));
    operation_ = std::move(other.operation_);
  }
  return *this;
}

Request::~Request() {
  if (operation_ && operation_->active()) {
    try {
      operation_->wait();
    } catch (...) {
      // A destructor cannot report; the requests are withdrawn with the operation.
    }
  }
}

bool Request::persistent() const { return operation_ && operation_->persistent(); }
bool Request::active() const { return operation_ && operation_->active(); }
MPI_Comm Request::comm() const { return operation_ ? operation_->user_comm() : MPI_COMM_NULL; }

void Request::start() {
  if (!operation_) throw Error(Errc::request, "start on an empty request");
  if (!operation_->persistent()) throw Error(Errc::request, "start on a nonblocking (not persistent) request");
  if (operation_->active()) throw Error(Errc::request, "start on an active request");
  operation_->start();
}

bool Request::ready() {
  if (!operation_ || !operation_->active()) return true;
  return operation_->ready();
}

namespace {

// A nonblocking operation goes (or is kept for a call that repeats it: Operation::let_go), then
// reports what its call found before it started (attach.hpp).
// Apart, so that a persistent request's completion stays as short as it is.
[[gnu::noinline]] void release_nonblocking(std::unique_ptr<detail::Operation>& operation) {
  std::unique_ptr<detail::Operation> completed = std::move(operation);
  completed->throw_reported_at_completion();
  detail::Operation& released = *completed;
  released.let_go(std::move(completed));
}

}  // namespace

void Request::complete_if_nonblocking() {
  if (!operation_->persistent()) release_nonblocking(operation_);
}

// A nonblocking operation that completes with an error is released all the same (MPI frees a
// request that completed in error); the error is then thrown.
void Request::wait() {
  if (!operation_ || !operation_->active()) return;
  try {
    operation_->wait();
  } catch (...) {
    if (!operation_->active()) complete_if_nonblocking();
    throw;
  }
  complete_if_nonblocking();
}

bool Request::test() {
  if (!operation_ || !operation_->active()) return true;
  try {
    if (!operation_->test()) return false;
  } catch (...) {
    if (!operation_->active()) complete_if_nonblocking();
    throw;
  }
  complete_if_nonblocking();
  return true;
}

// The engine advances every operation while it waits for one, so waiting in array order suffices.
void wait_all(std::span<Request> requests) {
  for (Request& request : requests) request.wait();
}

}  // namespace cartcoll
