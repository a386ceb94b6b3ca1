/* SPDX-License-Identifier: BSD-3-Clause */
/* cartcoll: the unified interfaces of Träff, Hunold, Mercier and Holmes, "MPI collective
 * communication through a single set of interfaces" (one set of collectives whose meaning comes
 * from the communicator's topology), under the prefix CC_. This part: Cartesian naming (Listings 3-5),
 * neighborhood generators (Listing 6) and the base communicator (Listing 1).
 *
 * A naming is a local attribute of the communicator: CC_Cart_name creates no communicator and does
 * not communicate; MPI_Comm_dup and the other constructors do not copy it. Ranks from the grid's size
 * up have no name; where a query would give a rank with no process there (off a non-periodic mesh, or
 * from a rank without a name) it gives MPI_PROC_NULL. Errors are MPI error classes raised through the
 * communicator's error handler: MPI_ERR_TOPOLOGY for a communicator without a naming, MPI_ERR_RANK
 * for a rank outside the communicator, MPI_ERR_DIMS for a bad grid. See docs/unified.md. */
#ifndef CARTCOLL_UNIFIED_H
#define CARTCOLL_UNIFIED_H

#include <mpi.h>

#include "cartcoll/export.h"
/* The collectives by topology (the unified-interfaces paper, section 2): part of this header's
 * interface, kept in their own file. */
#include "cartcoll/unified_collectives.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Metrics of the neighborhood generators: von Neumann (L1) and Moore (L-infinity) neighborhoods. */
#define CC_MANHATTAN 1
#define CC_CHEBYSHEV 2

/* Naming (local). dimorder: MPI_ORDER_C (row-major, as MPI_Cart_create) or MPI_ORDER_FORTRAN
 * (column-major). *size = the product of order[]; it may be smaller than the communicator but not
 * larger (MPI_ERR_DIMS). Naming a named communicator replaces its naming. */
CARTCOLL_API int CC_Cart_name(MPI_Comm comm, int d, int dimorder, const int order[], const int period[], int *size);
/* *flag = 1 and the naming's d and size, or *flag = 0 and *d = *size = 0 without a naming. */
CARTCOLL_API int CC_Cart_test(MPI_Comm cart, int *flag, int *d, int *size);
/* Writes min(maxd, d) entries of order[] and period[], as MPI_Dist_graph_neighbors does. */
CARTCOLL_API int CC_Cart_get(MPI_Comm cart, int *dimorder, int maxd, int order[], int period[]);

/* Coordinates in the order of order[]; periodic coordinates wrap, others off the grid give
 * MPI_PROC_NULL. A rank without a name (from the grid's size up, or MPI_PROC_NULL) has every
 * coordinate MPI_PROC_NULL. */
CARTCOLL_API int CC_Cart_rank(MPI_Comm cart, const int coordinates[], int *rank);
CARTCOLL_API int CC_Cart_coordinates(MPI_Comm cart, int rank, int coordinates[]);
/* *dest = source + relative. */
CARTCOLL_API int CC_Cart_relative_rank(MPI_Comm cart, int source, const int relative[], int *dest);
/* The relative[] with CC_Cart_relative_rank(source, relative) == dest: on a periodic dimension of
 * size n the one in (-n/2, n/2]. MPI_ERR_RANK where source or dest has no name. */
CARTCOLL_API int CC_Cart_relative_coordinates(MPI_Comm cart, int source, int dest, int relative[]);
/* *inrank = rank - relative, *outrank = rank + relative (as MPI_Cart_shift along any vector). */
CARTCOLL_API int CC_Cart_relative_shift(MPI_Comm cart, int rank, const int relative[], int *inrank, int *outrank);
/* n vectors of d coordinates each (flattened) to n ranks; relative to source for _relative. */
CARTCOLL_API int CC_Cart_allranks(MPI_Comm cart, int n, const int coordinates[], int ranks[]);
CARTCOLL_API int CC_Cart_allranks_relative(MPI_Comm cart, int source, int n, const int relatives[], int ranks[]);
/* Collective over cart. A true dimension[i] excludes dimension i from the sub-grids: processes with
 * the same coordinates in the excluded dimensions share a communicator, in their order in cart. It
 * carries no naming; processes without a name get MPI_COMM_NULL. */
CARTCOLL_API int CC_Cart_create_sub(MPI_Comm cart, const int dimension[], MPI_Comm *subcart);

/* Generators (local): the relative offsets v with shadow <= |v| <= depth in the metric, d
 * coordinates each, in lexicographic order (first coordinate slowest). The same list for every rank,
 * on a torus or a mesh: CC_Cart_allranks_relative turns it into ranks (MPI_PROC_NULL off a mesh).
 * maxsize counts offsets; min(maxsize, count) of them are written. */
CARTCOLL_API int CC_Cart_neighbors_count(MPI_Comm cart, int rank, int metric, int shadow, int depth, int *size);
CARTCOLL_API int CC_Cart_neighbors(MPI_Comm cart, int rank, int metric, int shadow, int depth, int maxsize,
                                   int neighbors[]);

/* The fully connected base communicator: comm's group (an intercommunicator's local group) in comm's
 * order, with no topology, attributes or naming. Collective over comm (both groups of an
 * intercommunicator); free it with MPI_Comm_free. */
CARTCOLL_API int CC_Comm_base(MPI_Comm comm, MPI_Comm *basecomm);

#ifdef __cplusplus
}
#endif

#endif /* CARTCOLL_UNIFIED_H */
