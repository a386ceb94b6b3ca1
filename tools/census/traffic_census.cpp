// SPDX-License-Identifier: BSD-3-Clause
#include "traffic_census.hpp"

#include <mpi.h>

#include <map>

namespace {

// Bookkeeping of the measuring program; the library itself keeps no such state.
census::Traffic& counters() {
  static census::Traffic traffic;
  return traffic;
}

// Each live persistent request made through MPI_Send_init (bytes >= 0) or MPI_Recv_init (-1).
constexpr long long receive_marker = -1;
std::map<MPI_Request, long long>& persistent() {
  static std::map<MPI_Request, long long> requests;
  return requests;
}

// Depth of wrapped calls on this thread: an implementation that sends through another wrapped
// entry point (MPI_Send via MPI_Isend, MPI_Startall via MPI_Start) is counted once, at the outside.
thread_local int depth = 0;

class Outermost {
 public:
  Outermost() : outermost_(depth++ == 0) {}
  ~Outermost() { --depth; }
  Outermost(const Outermost&) = delete;
  Outermost& operator=(const Outermost&) = delete;
  explicit operator bool() const noexcept { return outermost_; }

 private:
  bool outermost_;
};

void count_send(long long bytes) {
  ++counters().messages;
  counters().bytes += bytes;
}

void count_start(MPI_Request request) {
  const auto found = persistent().find(request);
  if (found == persistent().end())
    ++counters().unknown_starts;
  else if (found->second != receive_marker)
    count_send(found->second);
}

}  // namespace

namespace census {

void reset_traffic() { counters() = Traffic{}; }
Traffic traffic() { return counters(); }
std::size_t live_persistent_requests() { return persistent().size(); }

}  // namespace census

namespace {

long long message_bytes(int count, MPI_Datatype type) {
  MPI_Count size = 0;
  PMPI_Type_size_x(type, &size);
  return static_cast<long long>(size) * count;
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  const Outermost outermost;
  const int code = PMPI_Send(buf, count, type, dest, tag, comm);
  if (outermost && code == MPI_SUCCESS) count_send(message_bytes(count, type));
  return code;
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  const Outermost outermost;
  const int code = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  if (outermost && code == MPI_SUCCESS) count_send(message_bytes(count, type));
  return code;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  const Outermost outermost;
  const int code = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                                 recvtag, comm, status);
  if (outermost && code == MPI_SUCCESS && dest != MPI_PROC_NULL) count_send(message_bytes(sendcount, sendtype));
  return code;
}

int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  const int code = PMPI_Send_init(buf, count, type, dest, tag, comm, request);
  if (code == MPI_SUCCESS) persistent()[*request] = message_bytes(count, type);
  return code;
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  const int code = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  if (code == MPI_SUCCESS) persistent()[*request] = receive_marker;
  return code;
}

int MPI_Request_free(MPI_Request* request) {
  persistent().erase(*request);
  return PMPI_Request_free(request);
}

int MPI_Start(MPI_Request* request) {
  const Outermost outermost;
  const MPI_Request started = *request;
  const int code = PMPI_Start(request);
  if (outermost && code == MPI_SUCCESS) count_start(started);
  return code;
}

int MPI_Startall(int count, MPI_Request requests[]) {
  const Outermost outermost;
  const int code = PMPI_Startall(count, requests);
  if (outermost && code == MPI_SUCCESS)
    for (int i = 0; i < count; ++i) count_start(requests[i]);
  return code;
}

}  // extern "C"
