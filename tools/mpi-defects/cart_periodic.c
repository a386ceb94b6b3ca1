/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cart_periodic.c - block pairing of neighborhood collectives on Cartesian topologies whose periodic
 * dimensions have 1 or 2 processes.
 *
 * MPI_Cart_create's neighbor list is, per dimension k, the source and the destination of
 * MPI_Cart_shift(k, 1): (R - e_k, R + e_k), for sources and destinations alike. On a periodic
 * dimension of 2 processes both are the other process, on one of 1 process both are the process
 * itself. Correct outcome (MPI 4.1 sec. 8.6, Example 8.10; the MPI 4.0 erratum of
 * mpi-forum/mpi-issues#153): send block 2k goes to R - e_k and lands in its block 2k+1, send block
 * 2k+1 goes to R + e_k and lands in its block 2k, so block s is received as block s^1 whichever
 * processes the neighbors are. The k-th-occurrence rule of distributed graphs would instead give
 * s -> s there; a WRONG line says "(k-th occurrence)" where the outcome is that one.
 * Process p sends 100*p + j + 1 in send block j; allgather (one block per process) cannot tell the
 * two rules apart (control).
 *
 * Topologies (reorder = 0): "self-1p" 1-D periodic {1} on MPI_COMM_SELF, "ring-2p" 1-D periodic {2},
 * "2p-x-1p" 2-D periodic {2, 1}. Run with exactly 2 ranks.
 * Prints one line per topology x function: "OK" or "WRONG: ...". Exits 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neighbor_forms.h"
#include "report.h"

#define MAXDEG 4

/* what receive block i holds under Example 8.10 (s^1) or under the k-th-occurrence rule; in these
 * topologies a process lists s at index j exactly where s lists it, so the k-th occurrence of s
 * among this process's sources is s's block i */
static int wanted(const int *nb, int i, int allgather, int kth) {
    int s = nb[i];
    if (allgather) return 100 * s + 1;
    return 100 * s + (kth ? i : i ^ 1) + 1;
}

static void list(char **p, const int *v, int n) {
    int i;
    for (i = 0; i < n; i++) *p += sprintf(*p, "%s%d", i ? " " : "", v[i]);
}

int main(int argc, char **argv) {
    int rank, size, t, f, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) { if (!rank) printf("needs exactly 2 ranks\n"); MPI_Finalize(); return 0; }
    for (t = 0; t < 3; t++) {
        static const char *tname[3] = {"self-1p", "ring-2p", "2p-x-1p"};
        int dims[2] = {t == 0 ? 1 : 2, 1}, periods[2] = {1, 1}, ndims = t == 2 ? 2 : 1, nb[2 * MAXDEG], deg = 2 * ndims, k;
        MPI_Comm comm;
        MPI_Cart_create(t == 0 ? MPI_COMM_SELF : MPI_COMM_WORLD, ndims, dims, periods, 0, &comm);
        for (k = 0; k < 2 * MAXDEG; k++) nb[k] = -1;
        for (k = 0; k < ndims; k++) MPI_Cart_shift(comm, k, 1, &nb[2 * k], &nb[2 * k + 1]);
        for (k = 0; k < deg; k++) nb[k] = t == 0 ? rank : nb[k]; /* on MPI_COMM_SELF: rank 0 is this process */
        for (f = 0; f < NFUNC; f++) {
            int rbuf[FORMS_MAXDEG], ok = 1, kth = 1, want[MAXDEG];
            char msg[200] = "", *p = msg;
            int ag = is_allgather(f);
            if (!form_available(f)) continue;
            if (!rank) { printf("%-8s %-24s ", tname[t], fname[f]); fflush(stdout); }
            run_form(f, rank, rbuf, comm);
            for (i = 0; i < deg; i++) {
                want[i] = wanted(nb, i, ag, 0);
                ok &= rbuf[i] == want[i];
                kth &= rbuf[i] == wanted(nb, i, ag, 1);
            }
            if (!ok) {
                p += sprintf(p, "rank %d neighbors [", rank); list(&p, nb, deg);
                p += sprintf(p, "] got ["); list(&p, rbuf, deg);
                p += sprintf(p, "] expected ["); list(&p, want, deg);
                sprintf(p, "]%s; ", kth ? " (k-th occurrence)" : "");
            }
            report_case(msg, sizeof msg);
        }
        MPI_Comm_free(&comm);
    }
    MPI_Finalize();
    return 0;
}
