// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// RAII owners of the MPI handles the library creates or is handed: one template, one kind per handle
// type (its null value and the call that frees it).
#include <mpi.h>

#include <utility>

namespace cartcoll::detail {

// Owns one handle of the type `Kind` describes and frees it on destruction unless it is null.
// Movable, not copyable.
template <typename Kind>
class Owned {
 public:
  using Handle = typename Kind::Handle;

  Owned() = default;
  explicit Owned(Handle handle) : handle_(handle) {}
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, Kind::null())) {}
  Owned& operator=(Owned&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~Owned() {
    if (handle_ != Kind::null()) Kind::free(&handle_);
  }
  Handle get() const noexcept { return handle_; }
  Handle* out() noexcept { return &handle_; }  // for calls that create the handle in place

 private:
  Handle handle_ = Kind::null();
};

struct DatatypeKind {
  using Handle = MPI_Datatype;
  static Handle null() { return MPI_DATATYPE_NULL; }
  static void free(Handle* handle) { MPI_Type_free(handle); }
};

// Freeing a persistent request frees it; freeing a pending one abandons it.
struct RequestKind {
  using Handle = MPI_Request;
  static Handle null() { return MPI_REQUEST_NULL; }
  static void free(Handle* handle) { MPI_Request_free(handle); }
};

struct GroupKind {
  using Handle = MPI_Group;
  static Handle null() { return MPI_GROUP_NULL; }
  static void free(Handle* handle) { MPI_Group_free(handle); }
};

// Also for the info objects MPI hands the library (MPI_Comm_get_info), which the caller frees.
struct InfoKind {
  using Handle = MPI_Info;
  static Handle null() { return MPI_INFO_NULL; }
  static void free(Handle* handle) { MPI_Info_free(handle); }
};

using Datatype = Owned<DatatypeKind>;
using RequestSlot = Owned<RequestKind>;
using Group = Owned<GroupKind>;
using Info = Owned<InfoKind>;

}  // namespace cartcoll::detail
