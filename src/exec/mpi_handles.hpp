#pragma once
// RAII owners of the MPI handles the library creates.
#include <mpi.h>

#include <utility>

namespace cartcoll::detail {

class Datatype {
 public:
  Datatype() = default;
  explicit Datatype(MPI_Datatype handle) : handle_(handle) {}
  Datatype(Datatype&& other) noexcept : handle_(std::exchange(other.handle_, MPI_DATATYPE_NULL)) {}
  Datatype& operator=(Datatype&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~Datatype() {
    if (handle_ != MPI_DATATYPE_NULL) MPI_Type_free(&handle_);
  }
  MPI_Datatype get() const noexcept { return handle_; }

 private:
  MPI_Datatype handle_ = MPI_DATATYPE_NULL;
};

// A request slot; frees a persistent request (or abandons a pending one) on destruction.
class RequestSlot {
 public:
  RequestSlot() = default;
  RequestSlot(RequestSlot&& other) noexcept : handle_(std::exchange(other.handle_, MPI_REQUEST_NULL)) {}
  RequestSlot& operator=(RequestSlot&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~RequestSlot() {
    if (handle_ != MPI_REQUEST_NULL) MPI_Request_free(&handle_);
  }
  MPI_Request* out() noexcept { return &handle_; }

 private:
  MPI_Request handle_ = MPI_REQUEST_NULL;
};

// A process group, freed on destruction.
class Group {
 public:
  explicit Group(MPI_Group handle) : handle_(handle) {}
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;
  ~Group() {
    if (handle_ != MPI_GROUP_NULL) MPI_Group_free(&handle_);
  }
  MPI_Group get() const noexcept { return handle_; }

 private:
  MPI_Group handle_;
};

// An info object the library was handed by MPI (MPI_Comm_get_info), freed on destruction.
class Info {
 public:
  explicit Info(MPI_Info handle) : handle_(handle) {}
  Info(const Info&) = delete;
  Info& operator=(const Info&) = delete;
  ~Info() {
    if (handle_ != MPI_INFO_NULL) MPI_Info_free(&handle_);
  }
  MPI_Info get() const noexcept { return handle_; }

 private:
  MPI_Info handle_;
};

}  // namespace cartcoll::detail
