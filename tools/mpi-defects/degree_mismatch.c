/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * degree_mismatch.c - neighborhood alltoallw on graphs with indegree != outdegree.
 *
 * Checks whether MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw and
 * MPI_Neighbor_alltoallw_init deliver every block on graphs whose processes
 * have indegree != outdegree (we suspected MPICH 4.0.2 of mixing up the two
 * degrees when it converts the count arrays).
 *
 * Correct outcome (MPI 4.1 sec. 8.6): process p sends sendcounts[j] items of
 * block j to its j-th destination and receives recvcounts[i] items into block i
 * from its i-th source; sendcounts has outdegree entries, recvcounts indegree.
 * Here the edge s -> d carries c(s,d) = 1 + (s + 2d) % 4 ints with values
 * 1000*s + 10*j + e (j: block index at s, e: element); each receive block must
 * hold exactly that, the rest of the block must stay -1.
 * Alltoall and alltoallv run as controls. Errors are returned (MPI_ERRORS_RETURN)
 * and reported. Run with >= 3 ranks. One line per graph x function, "OK" or
 * "WRONG: ...". A hang shows as a line without a result (use a timeout).
 * Optional arguments: GRAPH FUNCTION (names as printed, or "all") select cases.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#ifdef OPEN_MPI
#include <mpi-ext.h> /* defines OMPI_HAVE_MPI_EXT_PCOLLREQ */
#endif
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define Neighbor_alltoallw_init MPIX_Neighbor_alltoallw_init
#define HAVE_INIT 1
#elif MPI_VERSION >= 4
#define Neighbor_alltoallw_init MPI_Neighbor_alltoallw_init
#define HAVE_INIT 1
#endif

#define MAXDEG 16 /* also the largest supported number of ranks */
#define MAXC 4
enum { CHAIN, OUTSTAR, INSTAR, MIXED, NGRAPH };
static const char *gname[NGRAPH] = {"chain", "out-star", "in-star", "mixed"};
enum { A2A, A2AV, A2AW, IA2AW, A2AW_INIT, NFUNC };
static const char *fname[NFUNC] = {"Neighbor_alltoall", "Neighbor_alltoallv", "Neighbor_alltoallw",
                                   "Ineighbor_alltoallw", "Neighbor_alltoallw_init"};

/* destinations of process p in graph g, in order; returns the outdegree */
static int dests(int g, int p, int n, int *d) {
    int k = 0, q;
    switch (g) {
    case CHAIN: if (p + 1 < n) d[k++] = p + 1; break;        /* 0 -> 1 -> ... -> n-1 */
    case OUTSTAR: if (p == 0) for (q = 1; q < n; q++) d[k++] = q; break;
    case INSTAR: if (p != 0) d[k++] = 0; break;
    case MIXED: /* 0 -> 1; 1 -> 0, 2; 2 -> 0, 1, 0; others -> 0 */
        if (p == 0) d[k++] = 1;
        else if (p == 1) { d[k++] = 0; d[k++] = 2; }
        else if (p == 2) { d[k++] = 0; d[k++] = 1; d[k++] = 0; }
        else d[k++] = 0;
        break;
    }
    return k;
}
static int count(int s, int d) { return 1 + (s + 2 * d) % 4; }

int main(int argc, char **argv) {
    int rank, n, g, f, i, e, q, k;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 3 || n > MAXDEG) { if (!rank) printf("needs 3..%d ranks\n", MAXDEG); MPI_Finalize(); return 0; }
    for (g = 0; g < NGRAPH; g++) {
        int dst[MAXDEG], src[MAXDEG], srcblk[MAXDEG], outd, ind = 0, tmp[MAXDEG];
        MPI_Comm comm;
        outd = dests(g, rank, n, dst);
        /* sources in increasing rank order; srcblk = block index at the sender */
        for (q = 0; q < n; q++) {
            int m = dests(g, q, n, tmp);
            for (k = 0; k < m; k++) if (tmp[k] == rank) { srcblk[ind] = k; src[ind++] = q; }
        }
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, ind, src, MPI_UNWEIGHTED, outd, dst,
                                       MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm);
        MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
        for (f = 0; f < NFUNC; f++) {
            int sbuf[MAXDEG * MAXC], rbuf[MAXDEG * MAXC], scnt[MAXDEG], rcnt[MAXDEG], sdis[MAXDEG], rdis[MAXDEG];
            MPI_Aint sbd[MAXDEG], rbd[MAXDEG];
            MPI_Datatype types[MAXDEG];
            MPI_Request req = MPI_REQUEST_NULL;
            int rc = MPI_SUCCESS, ok = 1, uniform = f == A2A;
            char msg[160] = "", *p = msg;
            if ((argc > 1 && strcmp(argv[1], "all") && strcmp(argv[1], gname[g])) ||
                (argc > 2 && strcmp(argv[2], "all") && strcmp(argv[2], fname[f]))) continue;
#ifndef HAVE_INIT
            if (f == A2AW_INIT) continue;
#endif
            if (!rank) { printf("%-9s %-24s ", gname[g], fname[f]); fflush(stdout); }
            for (i = 0; i < MAXDEG; i++) {
                scnt[i] = i < outd ? (uniform ? 1 : count(rank, dst[i])) : 0;
                rcnt[i] = i < ind ? (uniform ? 1 : count(src[i], rank)) : 0;
                sdis[i] = rdis[i] = uniform ? i : i * MAXC;
                sbd[i] = rbd[i] = sdis[i] * (MPI_Aint)sizeof(int);
                types[i] = MPI_INT;
            }
            for (i = 0; i < MAXDEG * MAXC; i++) { sbuf[i] = 1000 * rank + 10 * (i / MAXC) + i % MAXC; rbuf[i] = -1; }
            if (uniform) for (i = 0; i < MAXDEG; i++) sbuf[i] = 1000 * rank + 10 * i;
            switch (f) {
            case A2A: rc = MPI_Neighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm); break;
            case A2AV: rc = MPI_Neighbor_alltoallv(sbuf, scnt, sdis, MPI_INT, rbuf, rcnt, rdis, MPI_INT, comm); break;
            case A2AW: rc = MPI_Neighbor_alltoallw(sbuf, scnt, sbd, types, rbuf, rcnt, rbd, types, comm); break;
            case IA2AW:
                rc = MPI_Ineighbor_alltoallw(sbuf, scnt, sbd, types, rbuf, rcnt, rbd, types, comm, &req);
                if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
                break;
#ifdef HAVE_INIT
            case A2AW_INIT:
                rc = Neighbor_alltoallw_init(sbuf, scnt, sbd, types, rbuf, rcnt, rbd, types, comm, MPI_INFO_NULL, &req);
                if (rc == MPI_SUCCESS) rc = MPI_Start(&req);
                if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
                if (req != MPI_REQUEST_NULL) MPI_Request_free(&req);
                break;
#endif
            }
            if (rc != MPI_SUCCESS) { ok = 0; p += sprintf(p, "rank %d: error code %d; ", rank, rc); }
            for (i = 0; i < ind && ok; i++) {
                int c = uniform ? 1 : count(src[i], rank), stride = uniform ? 1 : MAXC;
                for (e = 0; e < stride; e++) {
                    int want = e < c ? 1000 * src[i] + 10 * srcblk[i] + e : -1;
                    if (rbuf[i * stride + e] != want) {
                        ok = 0;
                        p += sprintf(p, "rank %d (in %d, out %d): block %d from %d elem %d = %d, expected %d; ",
                                     rank, ind, outd, i, src[i], e, rbuf[i * stride + e], want);
                        break;
                    }
                }
            }
            report_case(msg, sizeof msg);
        }
        MPI_Comm_free(&comm);
    }
    MPI_Finalize();
    return 0;
}
