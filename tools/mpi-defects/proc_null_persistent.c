/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * proc_null_persistent.c - a started persistent request to MPI_PROC_NULL in
 * MPI_Testany / MPI_Waitany.
 *
 * Checks whether MPI_Testany and MPI_Waitany complete a started persistent
 * receive from MPI_PROC_NULL (cartcoll's C API hands out such requests as
 * stand-ins for its persistent collectives).
 *
 * Correct outcome (MPI 4.1 sec. 3.7.5, 3.8): a persistent request with source
 * MPI_PROC_NULL is active after MPI_Start and completes at once; the first
 * MPI_Testany / MPI_Waitany returns index 0 (flag = true), the next call on the
 * now inactive request returns MPI_UNDEFINED. Run with 1 process. One line per
 * call, "OK" or "WRONG: ...". Exits 0.
 */
#include <mpi.h>
#include <stdio.h>

static void report(const char* what, int index, int expected) {
  if (index == expected) printf("%s: OK\n", what);
  else printf("%s: WRONG: index %d, expected %d\n", what, index, expected);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int x = 0, flag = 0, index = -5;
  MPI_Request request;
  MPI_Recv_init(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &request);
  MPI_Start(&request);
  MPI_Testany(1, &request, &index, &flag, MPI_STATUS_IGNORE);
  report("MPI_Testany on the started request", flag ? index : -1, 0);
  MPI_Testany(1, &request, &index, &flag, MPI_STATUS_IGNORE);
  report("MPI_Testany once more (now inactive)", index, MPI_UNDEFINED);
  MPI_Start(&request);
  MPI_Waitany(1, &request, &index, MPI_STATUS_IGNORE);
  report("MPI_Waitany on the restarted request", index, 0);
  MPI_Request_free(&request);
  MPI_Finalize();
  return 0;
}
