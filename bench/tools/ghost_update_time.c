// SPDX-License-Identifier: BSD-3-Clause
// Time of a ghost update as DOLFINx's Scatterer (MPI_Ineighbor_alltoallv + MPI_Wait) and PETSc's
// PetscSF neighbor type (+ MPI_Waitall) make it, on a symmetric distributed graph made by
// MPI_Dist_graph_create_adjacent (reorder 0) whose edges carry different counts. It calls only MPI,
// so the same binary runs natively and through libcartcoll_mpi (LD_PRELOAD). Not part of the build:
//   mpicc -O2 -std=c11 -Wno-stringop-overread bench/tools/ghost_update_time.c -o ghost_update_time
//   mpirun -n 4 ./ghost_update_time [--density D] [--seed S] [--batches B] [--calls C] [--waitall | --plain]
//   mpirun -n 4 -x LD_PRELOAD=$PWD/build/dev/libcartcoll_mpi.so ./ghost_update_time ...
// Edge i-j is present with probability D (default 0.7; 1: every other process), the same draw on
// every process; at 4 processes the default seed 1 gives degrees 2 to 3 on a graph that the layer does
// not detect as a Cartesian stencil (CARTCOLL_REPORT=1 says neighborhood=graph), as a mesh's is.
// The edge from i to j carries 2 + (7 i + 13 j + S) mod 199 ints (8 to 800 bytes). After 50 warm-up
// calls, B batches of C calls each, every batch started by a barrier and timed by MPI_Wtime; each
// process takes the median of its batch times, and rank 0 prints the slowest process's median per
// call in microseconds. Every received element is checked (its value names sender, edge and
// element): a wrong one fails the run. --plain sends the same messages with MPI_Irecv, MPI_Isend and
// one MPI_Waitall, without a neighborhood collective: the floor of any library on MPI's interface.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

// The same pseudo-random draw on every process: whether the pair (i < j) is an edge.
static int edge(int i, int j, double density, unsigned seed) {
  unsigned h = seed * 2654435761u ^ (unsigned)i * 40503u ^ (unsigned)j * 2246822519u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (double)(h % 1000000u) < density * 1000000.0;
}

static int count_of(int from, int to, unsigned seed) { return 2 + (int)((7u * from + 13u * to + seed) % 199u); }

static int value_of(int from, int to, int element) { return from * 1000000 + to * 1000 + element; }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double density = 0.7;
  unsigned seed = 1;
  int batches = 400, calls = 10, waitall = 0, plain = 0;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--density") && a + 1 < argc) density = atof(argv[++a]);
    else if (!strcmp(argv[a], "--seed") && a + 1 < argc) seed = (unsigned)atoi(argv[++a]);
    else if (!strcmp(argv[a], "--batches") && a + 1 < argc) batches = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--calls") && a + 1 < argc) calls = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--waitall")) waitall = 1;
    else if (!strcmp(argv[a], "--plain")) plain = 1;
    else {
      if (rank == 0) fprintf(stderr, "unknown argument %s\n", argv[a]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  // Symmetric: the neighbors are both sources and destinations, in rank order.
  int* neighbors = malloc(sizeof(int) * (size_t)size);
  int degree = 0;
  for (int other = 0; other < size; ++other)
    if (other != rank && edge(rank < other ? rank : other, rank < other ? other : rank, density, seed))
      neighbors[degree++] = other;
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, neighbors, MPI_UNWEIGHTED, degree, neighbors, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &graph);
  int* send_counts = malloc(sizeof(int) * (size_t)(degree + 1));
  int* send_displs = malloc(sizeof(int) * (size_t)(degree + 1));
  int* recv_counts = malloc(sizeof(int) * (size_t)(degree + 1));
  int* recv_displs = malloc(sizeof(int) * (size_t)(degree + 1));
  int sent = 0, received = 0;
  for (int k = 0; k < degree; ++k) {
    send_counts[k] = count_of(rank, neighbors[k], seed);
    send_displs[k] = sent;
    sent += send_counts[k];
    recv_counts[k] = count_of(neighbors[k], rank, seed);
    recv_displs[k] = received;
    received += recv_counts[k];
  }
  int* send = malloc(sizeof(int) * (size_t)(sent + 1));
  int* recv = malloc(sizeof(int) * (size_t)(received + 1));
  // Send block k goes to neighbors[k]; the receiver finds it in its block for `rank`, so the value
  // names the receiver's view: sender, and the element.
  for (int k = 0; k < degree; ++k)
    for (int e = 0; e < send_counts[k]; ++e) send[send_displs[k] + e] = value_of(rank, neighbors[k], e);
  double* times = malloc(sizeof(double) * (size_t)batches);
  MPI_Request* plain_requests = malloc(sizeof(MPI_Request) * (size_t)(2 * degree + 1));
  for (int i = -50; i < batches * calls; ++i) {
    const int batch = i / calls, first = i >= 0 && i % calls == 0;
    if (first) {
      MPI_Barrier(MPI_COMM_WORLD);
      times[batch] = -MPI_Wtime();
    }
    if (plain) {
      for (int k = 0; k < degree; ++k)
        MPI_Irecv(recv + recv_displs[k], recv_counts[k], MPI_INT, neighbors[k], 0, graph, &plain_requests[k]);
      for (int k = 0; k < degree; ++k)
        MPI_Isend(send + send_displs[k], send_counts[k], MPI_INT, neighbors[k], 0, graph, &plain_requests[degree + k]);
      MPI_Waitall(2 * degree, plain_requests, MPI_STATUSES_IGNORE);
    } else {
      MPI_Request request;
      MPI_Ineighbor_alltoallv(send, send_counts, send_displs, MPI_INT, recv, recv_counts, recv_displs, MPI_INT, graph,
                              &request);
      if (waitall)
        MPI_Waitall(1, &request, MPI_STATUSES_IGNORE);
      else
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    if (i >= 0 && i % calls == calls - 1) times[batch] += MPI_Wtime();
  }
  int wrong = 0;
  for (int k = 0; k < degree; ++k)
    for (int e = 0; e < recv_counts[k]; ++e) wrong += recv[recv_displs[k] + e] != value_of(neighbors[k], rank, e);
  qsort(times, (size_t)batches, sizeof(double), compare_doubles);
  double median = times[batches / 2] / calls * 1e6, slowest = 0;
  int wrong_total = 0, degree_min = 0, degree_max = 0, bytes_max = 0, bytes = 4 * sent;
  MPI_Reduce(&median, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&wrong, &wrong_total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&degree, &degree_min, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&degree, &degree_max, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&bytes, &bytes_max, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("processes %d degree %d-%d bytes_sent_max %d completion %s batches %d calls %d median_us_per_call %.2f "
           "wrong %d\n",
           size, degree_min, degree_max, bytes_max, plain ? "plain" : waitall ? "MPI_Waitall" : "MPI_Wait", batches, calls, slowest, wrong_total);
  MPI_Comm_free(&graph);
  free(times);
  free(plain_requests);
  free(send);
  free(recv);
  free(send_counts);
  free(send_displs);
  free(recv_counts);
  free(recv_displs);
  free(neighbors);
  MPI_Finalize();
  return wrong_total == 0 || rank != 0 ? 0 : 1;
}
