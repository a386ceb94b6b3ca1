// SPDX-License-Identifier: BSD-3-Clause
#include "request_handle.hpp"

#include <deque>
#include <memory>
#include <vector>

#include "runtime/comm/keyval.hpp"
#include "runtime/exec/mpi_check.hpp"

namespace cartcoll::capi {

namespace {

// A handle value is (generation << half) | (index + 1): the low half names the slot, the high half
// the slot's generation, which a free moves on.
constexpr unsigned half = sizeof(std::uintptr_t) * 4;
constexpr std::uintptr_t low_mask = (std::uintptr_t{1} << half) - 1;

class Slots {
 public:
  std::uintptr_t insert(Request request) {
    std::size_t index = slots_.size();
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      slots_.emplace_back();
    }
    Slot& slot = slots_[index];
    slot.request = std::move(request);
    slot.live = true;
    return (static_cast<std::uintptr_t>(slot.generation) << half) | (index + 1);
  }

  Request* find(std::uintptr_t handle) {
    const std::uintptr_t position = handle & low_mask;
    if (position == 0 || position > slots_.size()) return nullptr;
    Slot& slot = slots_[position - 1];
    const auto generation = static_cast<std::uintptr_t>(slot.generation) & low_mask;
    if (!slot.live || generation != handle >> half) return nullptr;
    return &slot.request;
  }

  void erase(std::uintptr_t handle) {
    if (find(handle) == nullptr) return;
    const std::size_t index = (handle & low_mask) - 1;
    Slot& slot = slots_[index];
    slot.request = Request();
    slot.live = false;
    ++slot.generation;
    free_.push_back(index);
  }

 private:
  struct Slot {
    Request request;
    std::uint64_t generation = 0;
    bool live = false;
  };
  std::deque<Slot> slots_;  // a deque: a request stays where it is while others are made
  std::vector<std::size_t> free_;
};

struct Tables {
  Slots cart, iso;
};

int delete_tables(MPI_Comm, int, void* value, void*) {
  delete static_cast<Tables*>(value);
  return MPI_SUCCESS;
}

Slots& slots(HandleFamily family) {
  static const int keyval = detail::create_keyval_freed_at_finalize(MPI_COMM_NULL_COPY_FN, delete_tables);
  void* value = nullptr;
  int found = 0;
  detail::check(MPI_Comm_get_attr(MPI_COMM_SELF, keyval, &value, &found), "MPI_Comm_get_attr");
  if (!found) {
    auto made = std::make_unique<Tables>();
    detail::check(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, made.get()), "MPI_Comm_set_attr");
    value = made.release();
  }
  auto* tables = static_cast<Tables*>(value);
  return family == HandleFamily::cart ? tables->cart : tables->iso;
}

}  // namespace

std::uintptr_t insert_handle(HandleFamily family, Request request) { return slots(family).insert(std::move(request)); }

Request* find_handle(HandleFamily family, std::uintptr_t handle) { return slots(family).find(handle); }

void erase_handle(HandleFamily family, std::uintptr_t handle) { slots(family).erase(handle); }

}  // namespace cartcoll::capi
