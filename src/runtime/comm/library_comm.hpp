// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The library's side of a communicator: its private duplicate (so library messages never match user
// messages) and the tags its operations use on it.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/progress/comm_gate.hpp"

namespace cartcoll::detail {

// A duplicate of a communicator with MPI_ERRORS_RETURN. Shared by the communicator's state and every
// operation that may still use it: a nonblocking or persistent operation outlives MPI_Comm_free of
// the user's communicator, as MPI allows, so the duplicate goes with the last of them.
class LibraryComm {
 public:
  explicit LibraryComm(MPI_Comm parent);  // collective over parent: MPI_Comm_dup
  // With MPI_Comm_idup, for a call that must not block (the first nonblocking collective on a
  // communicator MPI made): gate() opens when the duplicate is ready.
  static std::shared_ptr<LibraryComm> started(MPI_Comm parent);
  ~LibraryComm();  // frees the duplicate unless MPI is finalized
  LibraryComm(const LibraryComm&) = delete;
  LibraryComm& operator=(const LibraryComm&) = delete;

  // The duplicate's handle; usable for messages once gate() is open (or null).
  MPI_Comm get() const noexcept { return comm_; }
  const std::shared_ptr<CommGate>& gate() const noexcept { return gate_; }
  // The duplicate, waited for where it is still being made (for calls that may block).
  MPI_Comm ready();
  int tag_ub() const noexcept { return tag_ub_; }

 private:
  LibraryComm() = default;
  void read_tag_ub(MPI_Comm parent);

  MPI_Comm comm_ = MPI_COMM_NULL;
  std::shared_ptr<CommGate> gate_;
  int tag_ub_ = 32767;
};

// The tags of the operations on one library communicator: no two operations that are live at the
// same time share a tag, however many came before. Every process must pick the same tag for the same
// operation without talking per call:
// - blocking calls all use one tag, the highest: a blocking call completes here before the next
//   starts, and all processes make the same blocking calls in the same order (MPI's collective rule),
//   so the k-th message from P to Q on that tag belongs to the same call at both ends.
// - nonblocking calls (and measurements) take the next tag of a counter over the rest of the upper
//   part of the tag range; calls happen in the same order on every process, so the counters agree.
//   A tag comes round again only after the whole range has been used; should its earlier operation
//   still be live here, the call fails (more operations outstanding than tags).
// - persistent requests live until freed, which is local, so their tags (the lower part of the range)
//   are agreed at *_init: every process marks which of the next 64 candidates it still uses, one
//   allreduce (bitwise or) of the marks, and the first free candidate is taken everywhere.
// - where the range holds at least 256 tags, its upper half mirrors the lower: the blocks `auto`'s
//   size gate sends straight to their receivers beside an operation's schedule travel on the
//   operation's tag plus straight_offset(), so no receive of the schedule can match them.
class TagSpace {
 public:
  // Tags 0..max_tag (at least 127); the lower quarter (at least 64, at most 65536) is for persistent requests.
  explicit TagSpace(int max_tag);
  // Tags 0..largest, the upper half for straight blocks where largest is at least 255.
  static TagSpace with_straight_tags(int largest);

  // The offset from an operation's tag to its straight blocks' tag; 0 where the range has none.
  int straight_offset() const noexcept { return straight_offset_; }

  int blocking() const noexcept { return max_tag_; }
  int take_ephemeral();
  void release_ephemeral(int tag);

  // Bit i: this process still uses persistent candidate i (the candidates start at the cursor, the
  // same on every process).
  std::uint64_t persistent_candidates_in_use() const;
  // Takes the first candidate free everywhere (`in_use_anywhere` is the or over processes of the
  // marks) and moves the cursor past it; -1, with the cursor moved past all 64, when none is free.
  int take_persistent(std::uint64_t in_use_anywhere);
  void release_persistent(int tag);
  // How many windows of candidates cover all persistent tags.
  int persistent_windows() const noexcept;

 private:
  int persistent_count_;
  int max_tag_;
  int straight_offset_ = 0;
  int next_ephemeral_;
  int cursor_ = 0;
  std::vector<int> live_ephemeral_;
  std::vector<bool> live_persistent_;
};

}  // namespace cartcoll::detail
