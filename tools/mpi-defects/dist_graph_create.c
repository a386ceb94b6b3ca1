/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dist_graph_create.c - MPI_Dist_graph_create (non-adjacent form) at ~12 ranks.
 *
 * Checks whether MPI_Dist_graph_create returns, run after run, when one run
 * creates and frees many graph communicators in a row (our test suite saw
 * Open MPI 4.1.4 hang there at 12 oversubscribed processes; run.sh repeats the
 * program under Open MPI's default topo component, under OMPI_MCA_topo=basic
 * and under MPICH to tell which one).
 *
 * Correct outcome (MPI 4.1 sec. 8.5.4): the call returns on every process; the
 * process with rank k in the new communicator has exactly the in- and
 * out-neighbors of graph node k (as multisets; the order is unspecified for the
 * non-adjacent form), and a neighborhood allgather over it works.
 *
 * Graph: process p names the edges p -> p+1, p -> 5p+2 and p+3 -> 7p+3 (mod n),
 * i.e. two edges of its own and one edge of another process.
 * Usage: dist_graph_create [create|adjacent] [reorder 0|1] [repeat]  (defaults:
 * create 0 30): create, check and free the graph communicator `repeat` times in
 * one run (the project's test creates 30 graphs per run). "adjacent" builds the
 * same graph with MPI_Dist_graph_create_adjacent. Rank 0 prints a dot per
 * creation, then "OK" or "WRONG: ..."; a hang leaves the line unfinished (use a
 * timeout; the dots tell after how many creations it stopped).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define MAXE 64
static int n;
/* the three edges named by process p */
static void edges(int p, int *src, int *dst) {
    src[0] = p; dst[0] = (p + 1) % n;
    src[1] = p; dst[1] = (5 * p + 2) % n;
    src[2] = (p + 3) % n; dst[2] = (7 * p + 3) % n;
}
/* in- (dir 0) or out-neighbors (dir 1) of node k, sorted */
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static int neighbors(int k, int dir, int *out) {
    int p, e, m = 0, s[3], d[3];
    for (p = 0; p < n; p++) {
        edges(p, s, d);
        for (e = 0; e < 3; e++)
            if ((dir ? s[e] : d[e]) == k) out[m++] = dir ? d[e] : s[e];
    }
    qsort(out, (size_t)m, sizeof *out, cmp);
    return m;
}

int main(int argc, char **argv) {
    int rank, adjacent = argc > 1 && !strcmp(argv[1], "adjacent");
    int reorder = argc > 2 ? atoi(argv[2]) : 0, repeat = argc > 3 ? atoi(argv[3]) : 30, it, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n > 20) { if (!rank) printf("needs <= 20 ranks\n"); MPI_Finalize(); return 0; }
    if (!rank) { printf("%s reorder=%d n=%d start ", adjacent ? "adjacent" : "create", reorder, n); fflush(stdout); }
    char msg[200] = "";
    for (it = 0; it < repeat && !msg[0]; it++) {
        MPI_Comm g;
        int ind, outd, w, nr, s[3], d[3], deg[3] = {1, 1, 1};
        int ein[MAXE], eout[MAXE], in[MAXE], out[MAXE], got[MAXE];
        edges(rank, s, d);
        if (adjacent) {
            ind = neighbors(rank, 0, in); outd = neighbors(rank, 1, out);
            MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, ind, in, MPI_UNWEIGHTED, outd, out,
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, reorder, &g);
        } else {
            MPI_Dist_graph_create(MPI_COMM_WORLD, 3, s, deg, d, MPI_UNWEIGHTED, MPI_INFO_NULL, reorder, &g);
        }
        MPI_Comm_rank(g, &nr);
        MPI_Dist_graph_neighbors_count(g, &ind, &outd, &w);
        int eind = neighbors(nr, 0, ein), eoutd = neighbors(nr, 1, eout);
        if (ind != eind || outd != eoutd) {
            sprintf(msg, "rank %d (new %d): degrees %d/%d, expected %d/%d; ", rank, nr, ind, outd, eind, eoutd);
        } else {
            MPI_Dist_graph_neighbors(g, ind, in, MPI_UNWEIGHTED, outd, out, MPI_UNWEIGHTED);
            MPI_Neighbor_allgather(&nr, 1, MPI_INT, got, 1, MPI_INT, g);
            for (i = 0; i < ind; i++) if (got[i] != in[i]) break;
            qsort(in, (size_t)ind, sizeof *in, cmp);
            qsort(out, (size_t)outd, sizeof *out, cmp);
            if (memcmp(in, ein, ind * sizeof *in) || memcmp(out, eout, outd * sizeof *out))
                sprintf(msg, "rank %d (new %d): neighbor lists differ from the graph; ", rank, nr);
            else if (i < ind)
                sprintf(msg, "rank %d (new %d): allgather block %d = %d, expected %d; ", rank, nr, i, got[i], in[i]);
        }
        MPI_Comm_free(&g);
        if (!rank) { printf("."); fflush(stdout); } /* one dot per creation */
    }
    if (!rank) printf(" ");
    report_case(msg, sizeof msg);
    MPI_Finalize();
    return 0;
}
