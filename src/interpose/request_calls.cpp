// SPDX-License-Identifier: BSD-3-Clause
// libcartcoll_mpi: MPI's request functions, so that the library's requests (generalized requests
// that only the library can advance and complete: src/api/c/request_table.hpp) behave as MPI
// requests, mixed with ordinary ones in one array. A call whose requests are all ordinary goes
// straight to PMPI_* while no operation of the library is in flight; otherwise to the library's CC_
// function of the same signature, which advances the library's operations while it waits.
#include <mpi.h>

#include "cartcoll/neighbor.h"
#include "control.hpp"
#include "report.hpp"

using cartcoll::interpose::native_requests;
using cartcoll::interpose::none_of_library;

extern "C" {

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  if (native_requests(request, 1)) return PMPI_Wait(request, status);
  return CC_Wait(request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (native_requests(requests, count)) return PMPI_Waitall(count, requests, statuses);
  return CC_Waitall(count, requests, statuses);
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) {
  if (native_requests(requests, count)) return PMPI_Waitany(count, requests, index, status);
  return CC_Waitany(count, requests, index, status);
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[]) {
  if (native_requests(requests, incount)) return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  return CC_Waitsome(incount, requests, outcount, indices, statuses);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  if (native_requests(request, 1)) return PMPI_Test(request, flag, status);
  return CC_Test(request, flag, status);
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) {
  if (native_requests(requests, count)) return PMPI_Testall(count, requests, flag, statuses);
  return CC_Testall(count, requests, flag, statuses);
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
  if (native_requests(requests, count)) return PMPI_Testany(count, requests, index, flag, status);
  return CC_Testany(count, requests, index, flag, status);
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[]) {
  if (native_requests(requests, incount)) return PMPI_Testsome(incount, requests, outcount, indices, statuses);
  return CC_Testsome(incount, requests, outcount, indices, statuses);
}

int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
  if (native_requests(&request, 1)) return PMPI_Request_get_status(request, flag, status);
  return CC_Request_get_status(request, flag, status);
}

int MPI_Start(MPI_Request *request) {
  if (none_of_library(request, 1)) return PMPI_Start(request);
  const int code = CC_Start(request);
  if (code == MPI_SUCCESS) cartcoll::interpose::count_starts(request, 1);
  return code;
}

int MPI_Startall(int count, MPI_Request requests[]) {
  if (none_of_library(requests, count)) return PMPI_Startall(count, requests);
  const int code = CC_Startall(count, requests);
  if (code == MPI_SUCCESS) cartcoll::interpose::count_starts(requests, count);
  return code;
}

int MPI_Request_free(MPI_Request *request) {
  if (none_of_library(request, 1)) return PMPI_Request_free(request);
  const MPI_Request freed = *request;
  const int code = CC_Request_free(request);
  if (code == MPI_SUCCESS) cartcoll::interpose::forget_request(freed);
  return code;
}

int MPI_Cancel(MPI_Request *request) {
  if (none_of_library(request, 1)) return PMPI_Cancel(request);
  return CC_Cancel(request);
}

}  // extern "C"
