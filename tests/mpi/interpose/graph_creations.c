// SPDX-License-Identifier: BSD-3-Clause
// An unmodified MPI program that makes three distributed graphs with MPI_Dist_graph_create_adjacent
// and runs one MPI_Neighbor_allgather on each (data checked: each block is its sender's rank + 1),
// for the tests that count, with bench/tools/graph_create_cost.c preloaded ahead of libcartcoll_mpi,
// the collective operations the layer starts inside one creation (CMakeLists.txt).
// `star`: rank 0 sends to and receives from every other process (up to 4), the others only from and to it, a
// graph that is no stencil on any candidate grid; `stencil`:
// the von Neumann neighbors on MPI_Dims_create's 2-D torus, which the layer detects as Cartesian.
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { most = 4 };

static int graph_of(const char* kind, int rank, int size, int sources[most], int destinations[most]) {
  if (strcmp(kind, "star") == 0) {
    if (rank != 0) {
      sources[0] = destinations[0] = 0;
      return rank <= most ? 1 : 0;
    }
    int degree = 0;
    for (int other = 1; other < size && degree < most; ++other) sources[degree] = destinations[degree] = other, ++degree;
    return degree;
  }
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int row = rank / dims[1], column = rank % dims[1];
  const int up = ((row + dims[0] - 1) % dims[0]) * dims[1] + column, down = ((row + 1) % dims[0]) * dims[1] + column;
  const int left = row * dims[1] + (column + dims[1] - 1) % dims[1], right = row * dims[1] + (column + 1) % dims[1];
  const int around[most] = {up, down, left, right};
  for (int k = 0; k < most; ++k) sources[k] = destinations[k] = around[k];
  return most;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* kind = argc > 1 ? argv[1] : "star";
  int sources[most], destinations[most];
  const int degree = graph_of(kind, rank, size, sources, destinations);
  for (int graph = 0; graph < 3; ++graph) {
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, sources, MPI_UNWEIGHTED, degree, destinations,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm);
    int sent = rank + 1, received[most];
    MPI_Neighbor_allgather(&sent, 1, MPI_INT, received, 1, MPI_INT, comm);
    for (int k = 0; k < degree; ++k)
      if (received[k] != sources[k] + 1) {
        printf("graph_creations: rank %d, graph %d, block %d: %d, expected %d\n", rank, graph, k, received[k],
               sources[k] + 1);
        failed = 1;
      }
    MPI_Comm_free(&comm);
  }
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && !any) printf("graph_creations: ok\n");
  fflush(stdout);
  MPI_Finalize();
  return any;
}
