// SPDX-License-Identifier: BSD-3-Clause
#include "forwarded_operation.hpp"

namespace cartcoll::detail {

void ForwardedOperation::Work::advance(ProgressEngine& engine) noexcept {
  if (posted_ || request_ == MPI_REQUEST_NULL) {
    finish();
    return;
  }
  posted_ = true;
  engine.post(*this, request_, kind_);
}

ForwardedOperation::ForwardedOperation(MPI_Comm comm, MpiCall call, Kind kind, MPI_Request request)
    : Operation(comm, kind != Kind::nonblocking), call_(std::move(call)), kind_(kind), pending_(MPI_REQUEST_NULL) {
  if (kind == Kind::nonblocking) pending_ = request;
  if (kind == Kind::mpi_persistent) *persistent_.out() = request;
}

std::unique_ptr<ForwardedOperation> ForwardedOperation::started(MPI_Comm comm, MpiCall call, MPI_Request request) {
  std::unique_ptr<ForwardedOperation> operation(
      new ForwardedOperation(comm, std::move(call), Kind::nonblocking, request));
  operation->start();
  return operation;
}

std::unique_ptr<ForwardedOperation> ForwardedOperation::persistent(MPI_Comm comm, MpiCall call, MPI_Request request) {
  return std::unique_ptr<ForwardedOperation>(
      new ForwardedOperation(comm, std::move(call), Kind::mpi_persistent, request));
}

std::unique_ptr<ForwardedOperation> ForwardedOperation::restarted(MPI_Comm comm, MpiCall call) {
  return std::unique_ptr<ForwardedOperation>(
      new ForwardedOperation(comm, std::move(call), Kind::restarted, MPI_REQUEST_NULL));
}

// MPI raises an error of MPI_Start or of the nonblocking call on the communicator itself.
void ForwardedOperation::begin() {
  MPI_Request request = MPI_REQUEST_NULL;
  ProgressEngine::Kind kind = ProgressEngine::Kind::owned_by_engine;
  switch (kind_) {
    case Kind::nonblocking:
      request = std::exchange(pending_, MPI_REQUEST_NULL);
      break;
    case Kind::mpi_persistent:
      if (const int code = MPI_Start(persistent_.out()); code != MPI_SUCCESS) throw RaisedByMpi(code);
      request = *persistent_.out();
      kind = ProgressEngine::Kind::started_persistent;
      break;
    case Kind::restarted:
      if (const int code = call_.nonblocking(&request); code != MPI_SUCCESS) throw RaisedByMpi(code);
      break;
  }
  work_.arm(request, kind);
  ProgressEngine::instance().start(work_);
}

}  // namespace cartcoll::detail
