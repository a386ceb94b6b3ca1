// SPDX-License-Identifier: BSD-3-Clause
#include "library_comm.hpp"

#include <algorithm>

#include "runtime/exec/mpi_check.hpp"

namespace cartcoll::detail {

LibraryComm::LibraryComm(MPI_Comm parent) {
  check(MPI_Comm_dup(parent, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  read_tag_ub(parent);
}

std::shared_ptr<LibraryComm> LibraryComm::started(MPI_Comm parent) {
  std::shared_ptr<LibraryComm> made(new LibraryComm());
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Comm_idup(parent, &made->comm_, &request), "MPI_Comm_idup");
  made->gate_ = std::make_shared<CommGate>(request, made->comm_);
  made->read_tag_ub(parent);
  return made;
}

void LibraryComm::read_tag_ub(MPI_Comm parent) {
  void* value = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(parent, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr");
  if (found) tag_ub_ = *static_cast<int*>(value);
}

// Once open, the gate is dropped: operations made from then on run without it (a blocking call then
// takes Execution::run_alone's path); those made before keep their own reference.
MPI_Comm LibraryComm::ready() {
  if (gate_) {
    gate_->wait_open();
    gate_.reset();
  }
  return comm_;
}

LibraryComm::~LibraryComm() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  if (gate_ && !gate_->open()) gate_->wait_open();  // MPI_Comm_free needs the duplicate made
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

namespace {

constexpr int window = 64;
// The persistent tags' marks are a bitmap, and MPI_TAG_UB is 2^31 - 1 in Open MPI and SimGrid's SMPI:
// a quarter of that would be 64 MB per communicator (and max_tag + 1 overflows int).
constexpr long long most_persistent = 1 << 16;

int persistent_count_for(int max_tag) {
  return static_cast<int>(std::clamp((static_cast<long long>(max_tag) + 1) / 4, static_cast<long long>(window),
                                     most_persistent));
}

}  // namespace

TagSpace::TagSpace(int max_tag)
    : persistent_count_(persistent_count_for(std::max(max_tag, 127))),
      max_tag_(std::max(max_tag, 127)),
      next_ephemeral_(persistent_count_),
      live_persistent_(static_cast<std::size_t>(persistent_count_), false) {}

TagSpace TagSpace::with_straight_tags(int largest) {
  if (largest < 255) return TagSpace(largest);
  TagSpace tags((largest - 1) / 2);
  tags.straight_offset_ = tags.max_tag_ + 1;
  return tags;
}

int TagSpace::take_ephemeral() {
  const int tag = next_ephemeral_;
  next_ephemeral_ = tag == blocking() - 1 ? persistent_count_ : tag + 1;
  if (std::find(live_ephemeral_.begin(), live_ephemeral_.end(), tag) != live_ephemeral_.end())
    throw Error(Errc::intern, "more nonblocking operations outstanding on one communicator than it has tags (" +
                                  std::to_string(blocking() - persistent_count_) + ")");
  live_ephemeral_.push_back(tag);
  return tag;
}

void TagSpace::release_ephemeral(int tag) {
  const auto found = std::find(live_ephemeral_.begin(), live_ephemeral_.end(), tag);
  if (found != live_ephemeral_.end()) {
    *found = live_ephemeral_.back();
    live_ephemeral_.pop_back();
  }
}

std::uint64_t TagSpace::persistent_candidates_in_use() const {
  std::uint64_t marks = 0;
  for (int i = 0; i < window; ++i)
    if (live_persistent_[static_cast<std::size_t>((cursor_ + i) % persistent_count_)]) marks |= std::uint64_t{1} << i;
  return marks;
}

int TagSpace::take_persistent(std::uint64_t in_use_anywhere) {
  for (int i = 0; i < window; ++i) {
    if (in_use_anywhere & (std::uint64_t{1} << i)) continue;
    const int tag = (cursor_ + i) % persistent_count_;
    live_persistent_[static_cast<std::size_t>(tag)] = true;
    cursor_ = (tag + 1) % persistent_count_;
    return tag;
  }
  cursor_ = (cursor_ + window) % persistent_count_;
  return -1;
}

int TagSpace::persistent_windows() const noexcept { return (persistent_count_ + window - 1) / window; }

void TagSpace::release_persistent(int tag) {
  if (tag >= 0 && tag < persistent_count_) live_persistent_[static_cast<std::size_t>(tag)] = false;
}

}  // namespace cartcoll::detail
