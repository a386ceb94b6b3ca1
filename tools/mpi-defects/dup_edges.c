/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dup_edges.c - matching of repeated edges in neighborhood collectives.
 *
 * Checks whether repeated edges of a distributed graph are matched in order
 * (k-th send to Q with k-th receive from P) in the neighborhood alltoall family,
 * blocking, I- and persistent _init forms.
 *
 * Correct outcome (MPI 4.1 sec. 8.6): a neighborhood alltoall behaves as if
 * each process posted Isends to its destinations in order and Irecvs from its
 * sources in order, so the k-th occurrence of Q among P's destinations is
 * matched with the k-th occurrence of P among Q's sources. Process p sends
 * the value 100*p + j + 1 in send block j; every receive block must hold the
 * value of the matching send block. For allgather every block from P is the
 * same, so the order cannot matter (control).
 *
 * Graphs (MPI_Dist_graph_create_adjacent, reorder = 0), run with >= 3 ranks;
 * ranks >= 3 have no neighbors.
 * In "interleaved" rank 1 has indegree 5 and outdegree 0, so its alltoallw
 * results are also exposed to the defect checked by degree_mismatch.c.
 * Prints one line per graph x function: "OK" or "WRONG: ...". Exits 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "neighbor_forms.h"
#include "report.h"

#define MAXDEG 8
typedef struct { const char *name; int dst[3][MAXDEG], src[3][MAXDEG]; } graph_t; /* -1 ends a list */

static const graph_t graphs[] = {
    /* 0 -> 1 twice */
    {"dup", {{1, 1, -1}, {-1}, {-1}}, {{-1}, {0, 0, -1}, {-1}}},
    /* 0 -> 1 three times, 2 -> 1 twice, 0 -> 2 twice, interleaved */
    {"interleaved", {{1, 2, 1, 2, 1, -1}, {-1}, {1, 1, -1}},
                    {{-1}, {0, 2, 0, 2, 0, -1}, {0, 0, -1}}},
    /* both directions repeated, mixed with a third neighbor */
    {"symmetric", {{1, 1, 2, -1}, {0, 0, -1}, {0, -1}},
                  {{1, 2, 1, -1}, {0, 0, -1}, {0, -1}}},
};

static int len(const int *l) { int n = 0; while (n < MAXDEG && l[n] >= 0) n++; return n; }

/* value that receive block i of process q must hold */
static int expected(const graph_t *g, int q, int i, int allgather) {
    int s = g->src[q][i], k = 0, j;
    for (j = 0; j < i; j++) k += g->src[q][j] == s;
    if (allgather) return 100 * s + 1;
    for (j = 0; j < len(g->dst[s]); j++)
        if (g->dst[s][j] == q && k-- == 0) return 100 * s + j + 1;
    return -2;
}

int main(int argc, char **argv) {
    int rank, size, gi, f, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 3) { if (!rank) printf("needs >= 3 ranks\n"); MPI_Finalize(); return 0; }
    for (gi = 0; gi < (int)(sizeof graphs / sizeof *graphs); gi++) {
        const graph_t *g = &graphs[gi];
        static const int none[1] = {-1};
        const int *dst = rank < 3 ? g->dst[rank] : none, *src = rank < 3 ? g->src[rank] : none;
        int outd = len(dst), ind = len(src);
        MPI_Comm comm;
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, ind, src, MPI_UNWEIGHTED, outd, dst,
                                       MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm);
        for (f = 0; f < NFUNC; f++) {
            int rbuf[FORMS_MAXDEG], ok = 1;
            char msg[200] = "";
            int ag = is_allgather(f);
            if (!form_available(f)) continue;
            if (!rank) { printf("%-12s %-24s ", g->name, fname[f]); fflush(stdout); }
            run_form(f, rank, rbuf, comm);
            for (i = 0; i < ind; i++) ok &= rbuf[i] == expected(g, rank, i, ag);
            if (!ok) {
                char *p = msg + sprintf(msg, "rank %d sources [", rank);
                for (i = 0; i < ind; i++) p += sprintf(p, "%s%d", i ? " " : "", src[i]);
                p += sprintf(p, "] got [");
                for (i = 0; i < ind; i++) p += sprintf(p, "%s%d", i ? " " : "", rbuf[i]);
                p += sprintf(p, "] expected [");
                for (i = 0; i < ind; i++) p += sprintf(p, "%s%d", i ? " " : "", expected(g, rank, i, ag));
                sprintf(p, "]; ");
            }
            report_case(msg, sizeof msg);
        }
        MPI_Comm_free(&comm);
    }
    MPI_Finalize();
    return 0;
}
