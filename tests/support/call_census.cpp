// SPDX-License-Identifier: BSD-3-Clause
#include "call_census.hpp"

#include <mpi.h>

namespace {

// Test-only bookkeeping; the library itself keeps no such state.
census::Calls& counters() {
  static census::Calls calls;
  return calls;
}

void collective() { ++counters().collectives; }
void blocking() { ++counters().blocking; }

}  // namespace

namespace census {

void reset_calls() { counters() = Calls{}; }
Calls calls() { return counters(); }

namespace detail {
void note_collective() { collective(); }
}  // namespace detail

}  // namespace census

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  collective();
  return PMPI_Barrier(comm);
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  collective();
  return PMPI_Ibarrier(comm, request);
}
int MPI_Allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  collective();
  return PMPI_Allreduce(in, out, count, type, op, comm);
}
int MPI_Iallreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  collective();
  return PMPI_Iallreduce(in, out, count, type, op, comm, request);
}
int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  collective();
  return PMPI_Bcast(buffer, count, type, root, comm);
}
int MPI_Ibcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request) {
  collective();
  return PMPI_Ibcast(buffer, count, type, root, comm, request);
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  blocking();
  return PMPI_Wait(request, status);
}
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  blocking();
  return PMPI_Waitall(count, requests, statuses);
}
int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  blocking();
  return PMPI_Waitany(count, requests, index, status);
}
int MPI_Waitsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  blocking();
  return PMPI_Waitsome(count, requests, outcount, indices, statuses);
}

}  // extern "C"
