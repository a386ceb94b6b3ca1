/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pack_bottom.c - MPI_Pack / MPI_Unpack with MPI_BOTTOM and absolute addresses.
 *
 * Checks whether MPI_Pack and MPI_Unpack accept MPI_BOTTOM as the buffer of a
 * datatype whose displacement is an absolute address (from MPI_Get_address),
 * as cartcoll's zero-copy blocks are.
 *
 * Correct outcome (MPI 4.1 sec. 4.1.12 and 5.2.1): MPI_BOTTOM is a valid buffer
 * wherever a buffer address is, for every communication and packing call; the
 * int 42 is packed and unpacked into another int through MPI_BOTTOM.
 * Run with 1 process. One line per call, "OK" or "WRONG: ...". Exits 0.
 */
#include <mpi.h>
#include <stdio.h>

/* A datatype of one int at the absolute address of *x. */
static MPI_Datatype at_address(int* x) {
  int one = 1;
  MPI_Aint address;
  MPI_Datatype type;
  MPI_Get_address(x, &address);
  MPI_Type_create_hindexed(1, &one, &address, MPI_INT, &type);
  MPI_Type_commit(&type);
  return type;
}

static void report(const char* call, int rc, int ok) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0;
  if (rc != MPI_SUCCESS) MPI_Error_string(rc, text, &length);
  for (char* c = text; *c; ++c)
    if (*c == '\n') *c = ' ';  /* MPICH's error stacks span lines; the report is one line */
  if (ok && rc == MPI_SUCCESS) printf("%s from/to MPI_BOTTOM: OK\n", call);
  else printf("%s from/to MPI_BOTTOM: WRONG: rc=%d %s\n", call, rc, text);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int source = 42, target = 0, position = 0;
  char packed[64];
  MPI_Datatype source_type = at_address(&source), target_type = at_address(&target);
  int rc = MPI_Pack(MPI_BOTTOM, 1, source_type, packed, sizeof packed, &position, MPI_COMM_SELF);
  report("MPI_Pack", rc, position == (int)sizeof(int));
  /* Unpack what a working MPI_Pack would have made, so that the two results are independent. */
  position = 0;
  MPI_Pack(&source, 1, MPI_INT, packed, sizeof packed, &position, MPI_COMM_SELF);
  position = 0;
  rc = MPI_Unpack(packed, sizeof packed, &position, MPI_BOTTOM, 1, target_type, MPI_COMM_SELF);
  report("MPI_Unpack", rc, target == 42);
  MPI_Type_free(&source_type);
  MPI_Type_free(&target_type);
  MPI_Finalize();
  return 0;
}
