/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * persistent_completion.c - completing persistent neighborhood collectives
 * with MPI_Waitany / Testall / Testany / Waitsome / Testsome / Waitall.
 *
 * Checks whether every completion call (Waitall, Waitany, Testall, Testany,
 * Waitsome, Testsome) handles started persistent neighborhood collectives
 * (MPI_Neighbor_alltoall_init, MPI_Neighbor_allgather_init) as the standard says. Open MPI 4.1.4 has these only as MPIX_..._init
 * in <mpi-ext.h>; they are used there when OMPI_HAVE_MPI_EXT_PCOLLREQ is set.
 *
 * Correct outcome (MPI 4.1 sec. 3.7.3, 3.7.5, 6.13): after MPI_Startall the
 * requests are active; each completion call marks completed persistent requests
 * inactive (they are not freed). A loop of MPI_Waitany returns every index
 * exactly once, and a further call returns MPI_UNDEFINED; MPI_Testall returns
 * flag = true once all have completed and again when all are inactive;
 * MPI_Testany / MPI_Waitsome / MPI_Testsome likewise return each index once,
 * then MPI_UNDEFINED. Received data must match in every round (3 rounds, so
 * each request is restarted).
 *
 * Requests (4, all started with MPI_Startall, 3 rounds):
 *   "neighbor_alltoall/allgather_init": alltoall_init, allgather_init,
 *      alltoall_init, allgather_init on a bidirectional ring dist graph
 *      (sources = destinations = {left, right}), the case of the claim;
 *   "Allreduce_init": 4 x MPI_Allreduce_init (control: other persistent collective);
 *   "Send/Recv_init": persistent point-to-point ring exchange (control).
 * Needs >= 3 ranks. Errors are returned (MPI_ERRORS_RETURN) and reported.
 * One line per request kind x completion method: "OK" or "WRONG: ...". A crash
 * or hang ends the output (use a timeout). Optional arguments: KIND METHOD
 * (names as printed, or "all") select cases, e.g. "Allreduce_init Waitany".
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
#define Neighbor_alltoall_init MPIX_Neighbor_alltoall_init
#define Neighbor_allgather_init MPIX_Neighbor_allgather_init
#define Allreduce_init MPIX_Allreduce_init
#elif MPI_VERSION >= 4
#define Neighbor_alltoall_init MPI_Neighbor_alltoall_init
#define Neighbor_allgather_init MPI_Neighbor_allgather_init
#define Allreduce_init MPI_Allreduce_init
#else
#error "no persistent neighborhood collectives"
#endif

#define NREQ 4
enum { NEIGHBOR, ALLREDUCE, P2P, NKIND };
static const char *kname[NKIND] = {"neighbor_alltoall/allgather_init", "Allreduce_init", "Send/Recv_init"};
#define ROUNDS 3
enum { WAITALL, WAITANY, TESTALL, TESTANY, WAITSOME, TESTSOME, NMETH };
static const char *mname[NMETH] = {"Waitall", "Waitany", "Testall", "Testany", "Waitsome", "Testsome"};

/* complete all NREQ requests with method m; append problems to msg */
static void complete(int m, MPI_Request *req, char *msg) {
    int seen[NREQ] = {0}, done = 0, idx, flag, out, list[NREQ], i, rc = MPI_SUCCESS;
    double t0 = MPI_Wtime();
    char *p = msg + strlen(msg), trace[200] = "", *log = trace;
    MPI_Status st[NREQ];
    while (done < NREQ && rc == MPI_SUCCESS) {
        if (log - trace > 150) log = trace + sprintf(trace, " ...");
        if (MPI_Wtime() - t0 > 10) { p += sprintf(p, "not complete after 10 s (%d of %d); ", done, NREQ); return; }
        switch (m) {
        case WAITALL: rc = MPI_Waitall(NREQ, req, st); for (i = 0; i < NREQ; i++) seen[i]++; done = NREQ; break;
        case TESTALL:
            rc = MPI_Testall(NREQ, req, &flag, st);
            if (flag) { for (i = 0; i < NREQ; i++) seen[i]++; done = NREQ; }
            break;
        case WAITANY: case TESTANY:
            flag = 1;
            rc = m == WAITANY ? MPI_Waitany(NREQ, req, &idx, st)
                              : MPI_Testany(NREQ, req, &idx, &flag, st);
            if (flag) log += sprintf(log, " %d", idx);
            if (flag && idx == MPI_UNDEFINED) { p += sprintf(p, "MPI_UNDEFINED after %d of %d (indices:%s); ", done, NREQ, trace); return; }
            if (flag && (idx < 0 || idx >= NREQ || seen[idx]++)) { p += sprintf(p, "index %d twice or bad (indices:%s); ", idx, trace); return; }
            done += flag;
            break;
        case WAITSOME: case TESTSOME:
            rc = m == WAITSOME ? MPI_Waitsome(NREQ, req, &out, list, st)
                               : MPI_Testsome(NREQ, req, &out, list, st);
            if (out > 0) log += sprintf(log, " [");
            for (i = 0; i < out; i++) log += sprintf(log, i ? " %d" : "%d", list[i]);
            if (out > 0) log += sprintf(log, "]");
            if (out == MPI_UNDEFINED) { p += sprintf(p, "MPI_UNDEFINED after %d of %d (indices:%s); ", done, NREQ, trace); return; }
            for (i = 0; i < out; i++) {
                if (list[i] < 0 || list[i] >= NREQ || seen[list[i]]++) { p += sprintf(p, "index %d twice or bad (indices:%s); ", list[i], trace); return; }
                done++;
            }
            break;
        }
    }
    if (rc != MPI_SUCCESS) {
        char es[MPI_MAX_ERROR_STRING];
        int len, ec = rc;
        for (i = 0; rc == MPI_ERR_IN_STATUS && i < NREQ; i++) if (st[i].MPI_ERROR != MPI_SUCCESS) { ec = st[i].MPI_ERROR; break; }
        MPI_Error_string(ec, es, &len);
        p += sprintf(p, "%s returned %d%s (\"%.60s\"); ", mname[m], rc, ec != rc ? ", status error" : "", es);
        return;
    }
    /* all requests are now inactive: one more call must say so */
    flag = 0; idx = out = 0;
    switch (m) {
    case WAITALL: rc = MPI_Waitall(NREQ, req, st); flag = 1; idx = out = MPI_UNDEFINED; break;
    case TESTALL: rc = MPI_Testall(NREQ, req, &flag, st); idx = out = MPI_UNDEFINED; break;
    case WAITANY: rc = MPI_Waitany(NREQ, req, &idx, st); flag = 1; out = idx; break;
    case TESTANY: rc = MPI_Testany(NREQ, req, &idx, &flag, st); out = idx; break;
    case WAITSOME: rc = MPI_Waitsome(NREQ, req, &out, list, st); flag = 1; idx = out; break;
    case TESTSOME: rc = MPI_Testsome(NREQ, req, &out, list, st); flag = 1; idx = out; break;
    }
    if (rc != MPI_SUCCESS || !flag || idx != MPI_UNDEFINED || out != MPI_UNDEFINED)
        p += sprintf(p, "on inactive requests: rc %d flag %d index/outcount %d (expected flag 1, MPI_UNDEFINED); ",
                     rc, flag, m == WAITSOME || m == TESTSOME ? out : idx);
}

/* value of element j of send buffer k at process p in round r */
static int v(int r, int p, int k, int j) { return 10000 * r + 100 * p + 10 * k + j; }

int main(int argc, char **argv) {
    int rank, n, kind, m, r, i, k;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n < 3) { if (!rank) printf("needs >= 3 ranks\n"); MPI_Finalize(); return 0; }
    int left = (rank + n - 1) % n, right = (rank + 1) % n, nb[2] = {left, right};
    MPI_Comm comm;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nb, MPI_UNWEIGHTED, 2, nb, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (kind = 0; kind < NKIND; kind++)
    for (m = 0; m < NMETH; m++) {
        int s[NREQ][2], rb[NREQ][2], e[NREQ][2];
        MPI_Request req[NREQ];
        char msg[440] = "";
        if ((argc > 1 && strcmp(argv[1], "all") && strcmp(argv[1], kname[kind])) ||
            (argc > 2 && strcmp(argv[2], "all") && strcmp(argv[2], mname[m]))) continue;
        if (!rank) { printf("%-32s %-9s ", kname[kind], mname[m]); fflush(stdout); }
        for (k = 0; k < NREQ; k++) switch (kind) {
        case NEIGHBOR: /* alltoall_init, allgather_init, alltoall_init, allgather_init */
            if (k % 2 == 0) Neighbor_alltoall_init(s[k], 1, MPI_INT, rb[k], 1, MPI_INT, comm, MPI_INFO_NULL, &req[k]);
            else Neighbor_allgather_init(s[k], 1, MPI_INT, rb[k], 1, MPI_INT, comm, MPI_INFO_NULL, &req[k]);
            break;
        case ALLREDUCE: Allreduce_init(s[k], rb[k], 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req[k]); break;
        case P2P: /* recv from left, recv from right, send to right, send to left */
            if (k < 2) MPI_Recv_init(rb[k], 1, MPI_INT, nb[k], k, MPI_COMM_WORLD, &req[k]);
            else MPI_Send_init(s[k], 1, MPI_INT, nb[3 - k], k - 2, MPI_COMM_WORLD, &req[k]);
            break;
        }
        for (r = 0; r < ROUNDS && !msg[0]; r++) {
            for (k = 0; k < NREQ; k++)
                for (i = 0; i < 2; i++) {
                    s[k][i] = v(r, rank, k, i); rb[k][i] = -1;
                    switch (kind) {
                    case NEIGHBOR: /* block 0 from left (its block 1 for alltoall), block 1 from right (its block 0) */
                        e[k][i] = v(r, nb[i], k, k % 2 == 0 && i == 0); break;
                    case ALLREDUCE: e[k][i] = n * (10000 * r + 10 * k + i) + 100 * n * (n - 1) / 2; break;
                    case P2P: e[k][i] = k < 2 && i == 0 ? v(r, nb[k], 2 + k, 0) : -1; break;
                    }
                }
            MPI_Startall(NREQ, req);
            complete(m, req, msg);
            if (msg[0]) { char t[440]; snprintf(t, sizeof t, "round %d: %s", r, msg); strcpy(msg, t); }
            else if (memcmp(rb, e, sizeof e)) {
                char *p = msg + sprintf(msg, "round %d data: got", r);
                for (k = 0; k < NREQ; k++) p += sprintf(p, " %d %d,", rb[k][0], rb[k][1]);
                p += sprintf(p, " expected");
                for (k = 0; k < NREQ; k++) p += sprintf(p, " %d %d,", e[k][0], e[k][1]);
            }
        }
        if (msg[0]) { char t[440]; snprintf(t, sizeof t, "rank %d %s", rank, msg); strcpy(msg, t); }
        MPI_Waitall(NREQ, req, MPI_STATUSES_IGNORE); /* in case a failed method left some active */
        for (k = 0; k < NREQ; k++) if (req[k] != MPI_REQUEST_NULL) MPI_Request_free(&req[k]);
        report_case(msg, sizeof msg);
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
