// SPDX-License-Identifier: BSD-3-Clause
#include "comm_gate.hpp"

#include <algorithm>

namespace cartcoll::detail {

CommGate::~CommGate() {
  // The idup cannot be cancelled; a gate goes before it completed only when MPI is torn down.
  if (!posted_ && idup_ != MPI_REQUEST_NULL) MPI_Request_free(&idup_);
}

void CommGate::advance(ProgressEngine& engine) noexcept {
  if (!posted_) {
    posted_ = true;
    engine.post(*this, idup_, ProgressEngine::Kind::owned_by_engine);
    idup_ = MPI_REQUEST_NULL;
    return;
  }
  open_ = true;
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  finish();
  const std::vector<Progressing*> waiting = std::move(waiting_);
  waiting_.clear();
  for (Progressing* work : waiting) engine.start(*work);
}

void CommGate::start_when_open(Progressing& work) {
  ProgressEngine& engine = ProgressEngine::instance();
  if (open_) {
    engine.start(work);
    return;
  }
  engine.defer(work);
  waiting_.push_back(&work);
  if (!posted_) engine.start(*this);
}

void CommGate::forget(Progressing& work) noexcept {
  waiting_.erase(std::remove(waiting_.begin(), waiting_.end(), &work), waiting_.end());
}

void CommGate::wait_open() {
  if (open_) return;
  if (!posted_) ProgressEngine::instance().start(*this);
  ProgressEngine::instance().wait(*this);
}

}  // namespace cartcoll::detail
