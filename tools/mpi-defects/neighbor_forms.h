/* SPDX-License-Identifier: BSD-3-Clause */
/* neighbor_forms.h - the neighborhood collectives a defect program tries, one "form" each (blocking,
 * I- and persistent _init alltoall(v,w) and allgather), and running one form with the data the
 * programs share: process p sends 100*p + j + 1 in send block j (allgather: 100*p + 1), one int per
 * block; receive blocks start at -1. Persistent forms are started, waited for and freed. */
#ifndef MPI_DEFECTS_NEIGHBOR_FORMS_H
#define MPI_DEFECTS_NEIGHBOR_FORMS_H
#include <mpi.h>
#ifdef OPEN_MPI
#include <mpi-ext.h> /* defines OMPI_HAVE_MPI_EXT_PCOLLREQ */
#endif
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)
#define Neighbor_alltoall_init MPIX_Neighbor_alltoall_init
#define Neighbor_alltoallv_init MPIX_Neighbor_alltoallv_init
#define Neighbor_alltoallw_init MPIX_Neighbor_alltoallw_init
#define Neighbor_allgather_init MPIX_Neighbor_allgather_init
#define HAVE_INIT 1
#elif MPI_VERSION >= 4
#define Neighbor_alltoall_init MPI_Neighbor_alltoall_init
#define Neighbor_alltoallv_init MPI_Neighbor_alltoallv_init
#define Neighbor_alltoallw_init MPI_Neighbor_alltoallw_init
#define Neighbor_allgather_init MPI_Neighbor_allgather_init
#define HAVE_INIT 1
#endif

#define FORMS_MAXDEG 8 /* blocks a form sends and receives at most */
enum { A2A, A2AV, A2AW, IA2A, IA2AV, IA2AW, A2A_INIT, A2AV_INIT, A2AW_INIT,
       AG, IAG, AG_INIT, NFUNC };
static const char *fname[NFUNC] = {
    "Neighbor_alltoall", "Neighbor_alltoallv", "Neighbor_alltoallw",
    "Ineighbor_alltoall", "Ineighbor_alltoallv", "Ineighbor_alltoallw",
    "Neighbor_alltoall_init", "Neighbor_alltoallv_init", "Neighbor_alltoallw_init",
    "Neighbor_allgather", "Ineighbor_allgather", "Neighbor_allgather_init"};

static int is_persistent(int f) { return f == A2A_INIT || f == A2AV_INIT || f == A2AW_INIT || f == AG_INIT; }
static int is_allgather(int f) { return f >= AG; }

/* Whether this MPI has form f (the persistent ones need MPI-4 or Open MPI's extension). */
static int form_available(int f) {
#ifdef HAVE_INIT
    (void)f;
    return 1;
#else
    return !is_persistent(f);
#endif
}

/* Runs form f on comm, rank being the caller's rank there; rbuf has FORMS_MAXDEG ints. */
static void run_form(int f, int rank, int *rbuf, MPI_Comm comm) {
    int sbuf[FORMS_MAXDEG], cnt[FORMS_MAXDEG], idispl[FORMS_MAXDEG], i;
    MPI_Aint bdispl[FORMS_MAXDEG];
    MPI_Datatype types[FORMS_MAXDEG];
    MPI_Request req = MPI_REQUEST_NULL;
    for (i = 0; i < FORMS_MAXDEG; i++) {
        sbuf[i] = is_allgather(f) ? 100 * rank + 1 : 100 * rank + i + 1;
        rbuf[i] = -1; cnt[i] = 1; idispl[i] = i;
        bdispl[i] = i * (MPI_Aint)sizeof(int); types[i] = MPI_INT;
    }
    switch (f) {
    case A2A: MPI_Neighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm); break;
    case A2AV: MPI_Neighbor_alltoallv(sbuf, cnt, idispl, MPI_INT, rbuf, cnt, idispl, MPI_INT, comm); break;
    case A2AW: MPI_Neighbor_alltoallw(sbuf, cnt, bdispl, types, rbuf, cnt, bdispl, types, comm); break;
    case IA2A: MPI_Ineighbor_alltoall(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm, &req); break;
    case IA2AV: MPI_Ineighbor_alltoallv(sbuf, cnt, idispl, MPI_INT, rbuf, cnt, idispl, MPI_INT, comm, &req); break;
    case IA2AW: MPI_Ineighbor_alltoallw(sbuf, cnt, bdispl, types, rbuf, cnt, bdispl, types, comm, &req); break;
    case AG: MPI_Neighbor_allgather(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm); break;
    case IAG: MPI_Ineighbor_allgather(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm, &req); break;
#ifdef HAVE_INIT
    case A2A_INIT: Neighbor_alltoall_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm, MPI_INFO_NULL, &req); break;
    case A2AV_INIT: Neighbor_alltoallv_init(sbuf, cnt, idispl, MPI_INT, rbuf, cnt, idispl, MPI_INT, comm, MPI_INFO_NULL, &req); break;
    case A2AW_INIT: Neighbor_alltoallw_init(sbuf, cnt, bdispl, types, rbuf, cnt, bdispl, types, comm, MPI_INFO_NULL, &req); break;
    case AG_INIT: Neighbor_allgather_init(sbuf, 1, MPI_INT, rbuf, 1, MPI_INT, comm, MPI_INFO_NULL, &req); break;
#endif
    }
    if (is_persistent(f)) {
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Request_free(&req);
    } else if (req != MPI_REQUEST_NULL) {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
}
#endif
