// SPDX-License-Identifier: BSD-3-Clause
#include "progress.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "runtime/exec/mpi_check.hpp"

namespace cartcoll::detail {

Progressing::~Progressing() {
  if (registered_) ProgressEngine::instance().withdraw(*this);
}

void Progressing::fail(int code) noexcept {
  if (error_ == MPI_SUCCESS) error_ = code;
  complete_ = true;
}

ProgressEngine& ProgressEngine::instance() {
  static ProgressEngine engine;
  return engine;
}

namespace {

enum class ProgressMode : std::uint8_t { everything, operation, bad };

// CARTCOLL_PROGRESS, read once per process.
ProgressMode progress_mode() {
  static const ProgressMode mode = [] {
    const char* value = std::getenv("CARTCOLL_PROGRESS");
    if (value == nullptr || *value == '\0' || std::strcmp(value, "everything") == 0) return ProgressMode::everything;
    return std::strcmp(value, "operation") == 0 ? ProgressMode::operation : ProgressMode::bad;
  }();
  return mode;
}

}  // namespace

ProgressEngine::ProgressEngine() : everything_(progress_mode() != ProgressMode::operation) {}

std::optional<Error> ProgressEngine::setting_error_once() {
  static bool reported = false;
  if (reported || progress_mode() != ProgressMode::bad) return std::nullopt;
  reported = true;
  return Error(Errc::arg, "CARTCOLL_PROGRESS must be everything or operation");
}

namespace {

// Marks the engine busy for one call; the library never re-enters it (MPI calls no callback of
// ours while we wait), so re-entry is a bug, not a case to handle.
class Busy {
 public:
  explicit Busy(bool& flag) : flag_(flag) {
    if (flag_) throw Error(Errc::mpi, "cartcoll's progress engine re-entered", MPI_ERR_INTERN);
    flag_ = true;
  }
  ~Busy() { flag_ = false; }
  Busy(const Busy&) = delete;
  Busy& operator=(const Busy&) = delete;

 private:
  bool& flag_;
};

}  // namespace

void ProgressEngine::post(Progressing& owner, MPI_Request request, Kind kind, MPI_Request* origin,
                          MPI_Status* status) {
  requests_.push_back(request);
  entries_.push_back({&owner, kind, false, origin, status});
  ++owner.outstanding_;
}

void ProgressEngine::post_aside(Progressing& owner, MPI_Request request) {
  requests_.push_back(request);
  entries_.push_back({&owner, Kind::owned_by_engine, true, nullptr, nullptr});
  ++owner.outstanding_;
  ++owner.aside_;
}

void Borrowed::advance(ProgressEngine& engine) noexcept {
  if (posted_) {
    finish();
    return;
  }
  posted_ = true;
  engine.post(*this, *request_, ProgressEngine::Kind::borrowed, request_, status_);
}

void ProgressEngine::block_once() {
  if (requests_.empty()) return;
  Busy busy(busy_);
  poke(true, nullptr);
}

void ProgressEngine::start(Progressing& work) {
  work.begin();
  work.registered_ = true;
  ++registered_;
  work.advance(*this);
  if (work.complete_ && work.outstanding_ == 0) unregister(work);
}

void ProgressEngine::defer(Progressing& work) noexcept { work.begin(); }

void ProgressEngine::unregister(Progressing& work) noexcept {
  if (!work.registered_) return;
  work.registered_ = false;
  --registered_;
}

bool ProgressEngine::test(Progressing& work) {
  if (!work.complete_ || work.outstanding_ > 0) {
    Busy busy(busy_);
    if (!complete_alone(false, work)) poke(false, everything_ ? nullptr : &work);
  }
  return work.complete_ && work.outstanding_ == 0;
}

void ProgressEngine::poll() {
  if (requests_.empty() || busy_) return;
  Busy busy(busy_);
  poke(false, nullptr);
}

void ProgressEngine::wait(Progressing& work) {
  Busy busy(busy_);
  while (!work.complete_ || work.outstanding_ > 0)
    if (!complete_alone(true, work)) poke(true, everything_ ? nullptr : &work);
}

// The common case of one operation in flight (a blocking call, one request waited for): the whole
// pool is its current step, and one MPI_Waitall (MPI_Testall) completes it without the bookkeeping
// of Waitsome. Returns false, doing nothing, when other work is registered too.
bool ProgressEngine::complete_alone(bool block, Progressing& work) {
  if (registered_ != 1 || !work.registered_ || requests_.empty() || work.aside_ > 0 ||
      entries_.front().kind == Kind::borrowed)
    return false;
  const int n = static_cast<int>(requests_.size());
  int done = 1;
  statuses_.resize(requests_.size());
  const int code = block ? MPI_Waitall(n, requests_.data(), statuses_.data())
                         : MPI_Testall(n, requests_.data(), &done, statuses_.data());
  if (code == MPI_ERR_IN_STATUS) {  // each failed request names its error (MPI_ERR_TRUNCATE, say)
    for (const MPI_Status& status : statuses_)
      if (status.MPI_ERROR != MPI_SUCCESS && status.MPI_ERROR != MPI_ERR_PENDING) work.message_failed(status.MPI_ERROR);
  } else if (code != MPI_SUCCESS) {
    work.fail(code);
  }
  if (!done && code == MPI_SUCCESS) return true;
  // Work that goes on after a failed message keeps its pending requests, to be waited for again.
  const bool keep_pending = code == MPI_ERR_IN_STATUS && !work.complete_;
  if (keep_pending) {
    for (std::size_t i = 0; i < requests_.size(); ++i)
      if (requests_[i] == MPI_REQUEST_NULL) {
        entries_[i].owner = nullptr;
        --work.outstanding_;
      }
    drop_completed();
    if (work.outstanding_ > 0) return true;
  } else {
    requests_.clear();  // every request in the pool was `work`'s, and each is complete
    entries_.clear();
  }
  work.outstanding_ = 0;
  if (!work.complete_) work.advance(*this);
  if (work.complete_ && work.outstanding_ == 0) unregister(work);
  return true;
}

namespace {

// One plain request as engine work: complete when the request is.
class PlainRequest : public Progressing {
 public:
  explicit PlainRequest(MPI_Request request) : request_(request) {}

 private:
  void advance(ProgressEngine& engine) noexcept override {
    if (request_ == MPI_REQUEST_NULL) {
      finish();
      return;
    }
    engine.post(*this, request_, ProgressEngine::Kind::owned_by_engine);
    request_ = MPI_REQUEST_NULL;
  }
  MPI_Request request_;
};

}  // namespace

void ProgressEngine::wait(MPI_Request& request) {
  PlainRequest work(request);
  request = MPI_REQUEST_NULL;  // the engine completes (and so frees) it
  start(work);
  wait(work);
  if (work.error() != MPI_SUCCESS) throw Error(Errc::mpi, "a nonblocking MPI collective of the library", work.error());
}

void ProgressEngine::withdraw(Progressing& work) noexcept {
  // Only an execution that failed or was abandoned gets here; its buffers may go, so stop what can
  // be stopped. A persistent request is freed by its maker, the others here.
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    if (entries_[i].owner != &work) continue;
    if (entries_[i].kind != Kind::borrowed) MPI_Cancel(&requests_[i]);
    if (entries_[i].kind == Kind::owned_by_engine) MPI_Request_free(&requests_[i]);
    entries_[i].owner = nullptr;
  }
  drop_completed();
  work.outstanding_ = 0;
  work.aside_ = 0;
  unregister(work);
}

// One MPI_Waitsome (or MPI_Testsome) over the pool, or over `only`'s requests where the engine is
// switched off for tests.
void ProgressEngine::poke(bool block, Progressing* only) {
  std::span<MPI_Request> requests(requests_);
  if (only != nullptr) {
    positions_.clear();
    subset_.clear();
    for (std::size_t i = 0; i < requests_.size(); ++i)
      if (entries_[i].owner == only) {
        positions_.push_back(i);
        subset_.push_back(requests_[i]);
      }
    if (!subset_.empty()) requests = subset_;
    else only = nullptr;  // `only` waits for another work (a CommGate): progress everything meanwhile
  }
  if (requests.empty()) throw Error(Errc::mpi, "cartcoll's progress engine has nothing to wait for", MPI_ERR_INTERN);
  indices_.resize(requests.size());
  statuses_.resize(requests.size());
  int outcount = 0;
  const int n = static_cast<int>(requests.size());
  const int code = block ? MPI_Waitsome(n, requests.data(), &outcount, indices_.data(), statuses_.data())
                         : MPI_Testsome(n, requests.data(), &outcount, indices_.data(), statuses_.data());
  if (code != MPI_SUCCESS && code != MPI_ERR_IN_STATUS) throw Error(Errc::mpi, "MPI_Waitsome", code);
  if (outcount == MPI_UNDEFINED) throw Error(Errc::mpi, "cartcoll's progress engine holds no active request", MPI_ERR_INTERN);
  completed_.clear();
  for (int k = 0; k < outcount; ++k) {
    const auto index = static_cast<std::size_t>(indices_[static_cast<std::size_t>(k)]);
    const std::size_t at = only != nullptr ? positions_[index] : index;
    if (only != nullptr) requests_[at] = subset_[index];
    completed_.push_back(at);
    // MPI sets MPI_ERROR only where it returns MPI_ERR_IN_STATUS; a borrowed request's status must say.
    if (code == MPI_SUCCESS) statuses_[static_cast<std::size_t>(k)].MPI_ERROR = MPI_SUCCESS;
    if (code == MPI_ERR_IN_STATUS && statuses_[static_cast<std::size_t>(k)].MPI_ERROR != MPI_SUCCESS &&
        entries_[at].kind != Kind::borrowed)
      entries_[at].owner->message_failed(statuses_[static_cast<std::size_t>(k)].MPI_ERROR);
  }
  complete(completed_, std::span<const MPI_Status>(statuses_).first(static_cast<std::size_t>(outcount)));
}

// Drops the completed requests from the pool, then advances every owner whose step has no request
// left outstanding (once, however many of its requests completed).
void ProgressEngine::complete(std::span<const std::size_t> completed, std::span<const MPI_Status> statuses) {
  advanced_.clear();
  for (std::size_t k = 0; k < completed.size(); ++k) {
    const std::size_t at = completed[k];
    Entry& entry = entries_[at];
    if (entry.kind == Kind::borrowed) {
      *entry.origin = requests_[at];
      if (entry.status != nullptr && entry.status != MPI_STATUS_IGNORE && k < statuses.size()) *entry.status = statuses[k];
    }
    Progressing* owner = entry.owner;
    entry.owner = nullptr;
    --owner->outstanding_;
    if (entry.aside) --owner->aside_;
    if (owner->outstanding_ == owner->aside_ && !owner->to_advance_) {
      owner->to_advance_ = true;
      advanced_.push_back(owner);
    }
  }
  drop_completed();
  for (Progressing* owner : advanced_) {
    owner->to_advance_ = false;
    if (!owner->complete_) owner->advance(*this);
    if (owner->complete_ && owner->outstanding_ == 0) unregister(*owner);
  }
}

void ProgressEngine::drop_completed() {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    if (entries_[i].owner == nullptr) continue;
    requests_[kept] = requests_[i];
    entries_[kept++] = entries_[i];
  }
  requests_.resize(kept);
  entries_.resize(kept);
}

}  // namespace cartcoll::detail
