/* SPDX-License-Identifier: BSD-3-Clause */
/* <cartcoll/iso.h> compiled as C: the isomorphic-collectives paper's (Träff, Carpen-Amarie, Hunold
 * and Rougier) example of Listing 1 in two dimensions. A 2-D grid from
 * MPI_Dims_create, periodic in dimension 0 and not in dimension 1, with the positive quadrant and the
 * zero offset, {(1,0), (0,1), (1,1), (0,0)}; Iso_neighbor_alltoall_init and
 * Iso_neighbor_allgatherv_init (MPI_Aint displacements, blocks in reverse order), each started three
 * times with new data; the sources computed with MPI_Cart_rank, receive blocks from outside the mesh
 * left untouched. */
#include <stdio.h>

#include "cartcoll/cartcoll.h"

enum { S = 4, UNTOUCHED = -1 };
static const int quadrant[2 * S] = {1, 0, 0, 1, 1, 1, 0, 0};

/* The rank that sends block i to this process (R - offset i), or MPI_PROC_NULL off the mesh. */
static int source_of(MPI_Comm cart, const int coords[2], const int dims[2], int i) {
  int at[2] = {coords[0] - quadrant[2 * i], coords[1] - quadrant[2 * i + 1]}, rank = MPI_PROC_NULL;
  if (at[1] >= 0 && at[1] < dims[1]) MPI_Cart_rank(cart, at, &rank);
  return rank;
}

static int value(int round, int rank, int block) { return 100000 * round + 100 * rank + block; }

static int check(const int *recv, const int *slot, int round, MPI_Comm cart, const int coords[2], const int dims[2],
                 int gathered) {
  int wrong = 0;
  for (int i = 0; i < S; ++i) {
    const int source = source_of(cart, coords, dims, i);
    const int expected = source == MPI_PROC_NULL ? UNTOUCHED : value(round, source, gathered ? 0 : i);
    if (recv[slot[i]] != expected) ++wrong;
  }
  return wrong;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size = 0, rank = 0, wrong = 0, dims[2] = {0, 0}, coords[2];
  const int periods[2] = {1, 0};
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart = MPI_COMM_NULL, iso = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  wrong += Iso_neighborhood_create(cart, S, quadrant, &iso) != MPI_SUCCESS;
  MPI_Comm_rank(iso, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);

  int send[S], recv[S], in_order[S] = {0, 1, 2, 3}, reversed[S] = {3, 2, 1, 0}, counts[S] = {1, 1, 1, 1};
  MPI_Aint displs[S] = {3, 2, 1, 0};
  Iso_request alltoall = ISO_REQUEST_NULL, allgatherv = ISO_REQUEST_NULL;
  wrong += Iso_neighbor_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, iso, &alltoall) != MPI_SUCCESS;
  wrong += Iso_neighbor_allgatherv_init(send, 1, MPI_INT, recv, counts, displs, MPI_INT, iso, &allgatherv) !=
           MPI_SUCCESS;
  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < S; ++i) {
      send[i] = value(round, rank, i);
      recv[i] = UNTOUCHED;
    }
    wrong += Iso_start(&alltoall) != MPI_SUCCESS;
    wrong += check(recv, in_order, round, cart, coords, dims, 0);
    for (int i = 0; i < S; ++i) recv[i] = UNTOUCHED;
    wrong += Iso_start(&allgatherv) != MPI_SUCCESS;
    wrong += check(recv, reversed, round, cart, coords, dims, 1);
  }
  wrong += Iso_request_free(&alltoall) != MPI_SUCCESS;
  wrong += Iso_request_free(&allgatherv) != MPI_SUCCESS;
  wrong += alltoall != ISO_REQUEST_NULL || allgatherv != ISO_REQUEST_NULL;
  MPI_Comm_free(&iso);
  MPI_Comm_free(&cart);
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("Iso C API: %d errors\n", wrong);
  MPI_Finalize();
  return wrong == 0 ? 0 : 1;
}
