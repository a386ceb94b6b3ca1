/* SPDX-License-Identifier: BSD-3-Clause */
/* The C API compiled as C: a ring with offsets {+1, -2, 0}, blocking and persistent alltoall. */
#include <stdio.h>

#include "cartcoll/cartcoll.h"

static int check(const int *recv, int rank, int size, int round) {
  const int offsets[3] = {1, -2, 0};
  int wrong = 0;
  for (int i = 0; i < 3; ++i) {
    const int source = ((rank - offsets[i]) % size + size) % size;
    if (recv[i] != 1000 * round + 10 * source + i) ++wrong;
  }
  return wrong;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int size = 0, rank = 0, wrong = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int dims[1] = {size}, periods[1] = {1}, offsets[3] = {1, -2, 0};
  MPI_Comm cart = MPI_COMM_NULL;
  wrong += Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 3, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                    &cart) != MPI_SUCCESS;
  MPI_Comm_rank(cart, &rank);
  int send[3], recv[3];
  for (int i = 0; i < 3; ++i) send[i] = 10 * rank + i;
  wrong += Cart_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart) != MPI_SUCCESS;
  wrong += check(recv, rank, size, 0);
  Cart_request request = CART_REQUEST_NULL;
  wrong += Cart_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, cart, MPI_INFO_NULL, &request) != MPI_SUCCESS;
  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < 3; ++i) send[i] = 1000 * round + 10 * rank + i;
    wrong += Cart_start(&request) != MPI_SUCCESS;
    wrong += Cart_wait(&request) != MPI_SUCCESS;
    wrong += check(recv, rank, size, round);
  }
  wrong += Cart_request_free(&request) != MPI_SUCCESS;
  MPI_Comm_free(&cart);
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("C API: %d errors\n", wrong);
  MPI_Finalize();
  return wrong == 0 ? 0 : 1;
}
