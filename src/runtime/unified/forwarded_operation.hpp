// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// One of MPI's own collectives held as the library's request (src/runtime/unified): where what MPI reads
// must live as long as the operation (MpiCall::owned), or where the MPI has no persistent
// collectives and a persistent request is made of the nonblocking call, started anew at each start.
// MPI's request is waited for through the progress engine, like every request of the library.
#include <mpi.h>

#include <memory>

#include "runtime/comm/operation.hpp"
#include "runtime/exec/mpi_handles.hpp"
#include "mpi_calls.hpp"

namespace cartcoll::detail {

class ForwardedOperation final : public Operation {
 public:
  // A nonblocking call already started: `request` is what MPI returned for it.
  static std::unique_ptr<ForwardedOperation> started(MPI_Comm comm, MpiCall call, MPI_Request request);
  // A persistent request of MPI's (inactive), started by MPI_Start.
  static std::unique_ptr<ForwardedOperation> persistent(MPI_Comm comm, MpiCall call, MPI_Request request);
  // A persistent request made of the nonblocking call.
  static std::unique_ptr<ForwardedOperation> restarted(MPI_Comm comm, MpiCall call);

 private:
  enum class Kind { nonblocking, mpi_persistent, restarted };
  ForwardedOperation(MPI_Comm comm, MpiCall call, Kind kind, MPI_Request request);

  // MPI's request in the engine's pool until it completes.
  class Work : public Progressing {
   public:
    void arm(MPI_Request request, ProgressEngine::Kind kind) noexcept {
      request_ = request;
      kind_ = kind;
      posted_ = false;
    }

   private:
    void advance(ProgressEngine& engine) noexcept override;
    MPI_Request request_ = MPI_REQUEST_NULL;
    ProgressEngine::Kind kind_ = ProgressEngine::Kind::owned_by_engine;
    bool posted_ = false;
  };

  void begin() override;
  Progressing& work() noexcept override { return work_; }

  MpiCall call_;
  Kind kind_;
  MPI_Request pending_;  // Kind::nonblocking: the request not yet handed to the engine
  RequestSlot persistent_;
  Work work_;
};

}  // namespace cartcoll::detail
