// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A communicator still being made by MPI_Comm_idup. A nonblocking call must not wait for it, so its
// executions are started when it is ready: the gate is engine work whose one request is the idup's,
// and when that completes the gate starts every execution that waited for it. Any wait or test on the
// process's engine progresses it, as it progresses everything else.
#include <mpi.h>

#include <vector>

#include "progress.hpp"

namespace cartcoll::detail {

class CommGate : public Progressing {
 public:
  // `idup` is the request MPI_Comm_idup returned for `comm`; when it completes, `comm` gets
  // MPI_ERRORS_RETURN, as the library's communicators have.
  CommGate(MPI_Request idup, MPI_Comm comm) : idup_(idup), comm_(comm) {}
  ~CommGate() override;

  bool open() const noexcept { return open_; }
  // Starts `work` now if the gate is open, else when it opens.
  void start_when_open(Progressing& work);
  // `work` no longer wants starting (it goes before the gate opened: an error path).
  void forget(Progressing& work) noexcept;
  // Waits (progressing everything) until the gate is open.
  void wait_open();

 private:
  void advance(ProgressEngine& engine) noexcept override;

  MPI_Request idup_;
  MPI_Comm comm_;
  bool open_ = false;
  bool posted_ = false;
  std::vector<Progressing*> waiting_;
};

}  // namespace cartcoll::detail
