/* SPDX-License-Identifier: BSD-3-Clause */
/* report.h - the end of one case of a defect program: rank 0 finishes the case's line with "OK",
 * or with "WRONG:" and the message of every process that saw something wrong. Collective over
 * MPI_COMM_WORLD; `msg` is the process's message (empty: all well) in a buffer of `size` bytes. */
#ifndef MPI_DEFECTS_REPORT_H
#define MPI_DEFECTS_REPORT_H
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void report_case(const char *msg, int size) {
    int rank, n, i, ok = !msg[0], all_ok = 0;
    char *msgs = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (!rank) msgs = calloc((size_t)n, (size_t)size);
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    MPI_Gather(msg, size, MPI_CHAR, msgs, size, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank) return;
    if (all_ok) printf("OK\n");
    else {
        printf("WRONG:");
        for (i = 0; i < n; i++) if (msgs[i * size]) printf(" %s", msgs + i * size);
        printf("\n");
    }
    fflush(stdout);
    free(msgs);
}
#endif
