/* SPDX-License-Identifier: BSD-3-Clause */
/* The 9-point stencil of Träff, Hunold, Mercier and Holmes (Figure 1b, section 3.3) against
 * <cartcoll/unified.h>: a Jacobi iteration on a 2-D grid of processes, each owning an n x n block of a global matrix with a halo of depth 1.
 *
 * - CC_Cart_name names the processes as a grid (no new communicator, no reordering);
 * - the 8 neighbors come from the generator CC_Cart_neighbors (Chebyshev, shadow 1, depth 1) and
 *   CC_Cart_allranks_relative, and CC_Dist_graph_create_adjacent makes them the topology of a graph;
 * - the halo exchange is Figure 1b's alltoallw made persistent, as the paper's section 3.5 suggests:
 *   CC_Alltoallw_init once per buffer, then CC_Start and CC_Wait in every iteration. It moves rows,
 *   columns and corners straight from and into the matrix through derived datatypes (ROW, COL, COR),
 *   as MPI_Neighbor_alltoallw would. The send blocks overlap (a corner is also in a row and in a
 *   column); a persistent call lets the library see that once and send the shared bytes once;
 * - the convergence check is global: CC_Allreduce on the base communicator (CC_Comm_base).
 *
 *   mpiexec -n 6 cartcoll-stencil9-unified [--torus] [--check]
 *
 * Without --check it iterates on a mesh (the paper's period 0) or a torus and prints the iterations and the
 * last change. With --check it runs on a mesh, a torus and a grid periodic in the first dimension
 * only; rank 0 of the base communicator gathers the matrix and compares it, and the number of
 * iterations, with the same Jacobi iteration computed serially on the whole matrix; the exit status is
 * 1 on any difference.
 *
 * Where this differs from Figure 1b, and why:
 * - Figure 1b passes one rank list as sources and destinations. Then a process that is a neighbor
 *   twice (a torus 2 processes wide: left and right are the same process) gets its two blocks in the
 *   wrong halos, since MPI matches the k-th edge from Q with the k-th edge to Q. Here destination i is
 *   r + offset i (it gets the border facing it) and source i is r - offset i (its block lands in the
 *   halo facing it), as Figure 1a computes them: the k-th occurrences then pair the same offset.
 * - Off a mesh, CC_Cart_allranks_relative gives MPI_PROC_NULL, which CC_Dist_graph_create_adjacent
 *   refuses: those entries are dropped (with their blocks) from both lists, and the halo there keeps
 *   the boundary values. Each side drops exactly the edges whose other end would drop them too.
 * - recvcount is 1 (Figure 1b's 0 is a slip) and the displacements are MPI_Aint (the paper's section 2).
 * - The iteration alternates between two matrices (the result of a step is the input of the next), and a
 *   persistent request is bound to its buffer: there is one request per matrix, the step's own started. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cartcoll/neighbor.h"
#include "cartcoll/unified.h"

enum { n = 8, t_max = 8, max_iterations = 60 };
static const double tolerance = 1e-3;

/* The initial value at global position (row, col) of the matrix, its halo around the whole grid
 * included (row or col -1, or one past the end): the boundary values of a mesh. It varies with both
 * coordinates, so that a block put in the wrong place changes the result. */
static double initial_value(int row, int col) {
  return (double)(((row + 2) * 131 + (col + 2) * 71 + (row + 2) * (col + 2) * 7) % 1009) / 1009.0;
}

/* One Jacobi step of the 9-point stencil on a rows x cols interior with a halo of 1 (row stride
 * cols + 2): next = weighted sum around each point, the weights all different (a transposed or
 * mirrored halo changes the result) and summing to 1. Returns the largest change. The parallel
 * iteration and its serial check both call this; only the halos differ. */
static double jacobi_step(const double *matrix, double *next, int rows, int cols) {
  static const double weight[3][3] = {{0.100, 0.150, 0.050}, {0.125, 0.200, 0.075}, {0.125, 0.100, 0.075}};
  const int stride = cols + 2;
  double change = 0.0;
  for (int i = 1; i <= rows; ++i)
    for (int j = 1; j <= cols; ++j) {
      double sum = 0.0;
      for (int di = -1; di <= 1; ++di)
        for (int dj = -1; dj <= 1; ++dj) sum += weight[di + 1][dj + 1] * matrix[(i + di) * stride + j + dj];
      next[i * stride + j] = sum;
      change = fmax(change, fabs(sum - matrix[i * stride + j]));
    }
  return change;
}

/* The border block of the local (n+2) x (n+2) matrix on the side (dr, dc) (each -1, 0 or 1, not both
 * 0): the interior edge facing that side (to send) or the halo on that side (to receive). Its byte
 * displacement and datatype: ROW for a row, COL for a column, COR for a corner. */
struct Borders {
  MPI_Datatype row, col, cor;
};
static void border_block(const struct Borders *types, int dr, int dc, int halo, MPI_Aint *displacement,
                         MPI_Datatype *type) {
  const int inner = halo ? n + 1 : n, outer = halo ? 0 : 1;
  const int i = dr > 0 ? inner : dr < 0 ? outer : 1, j = dc > 0 ? inner : dc < 0 ? outer : 1;
  *displacement = (MPI_Aint)sizeof(double) * (i * (n + 2) + j);
  *type = dr == 0 ? types->col : dc == 0 ? types->row : types->cor;
}

/* The halo exchange: the graph, the arguments of the alltoallw and its persistent requests, one per
 * matrix (halo[k] exchanges the halo of buffer k in place). */
struct Exchange {
  MPI_Comm cartcomm;
  int outdegree, indegree;
  int sendcount[t_max], recvcount[t_max];
  MPI_Aint senddisp[t_max], recvdisp[t_max];
  MPI_Datatype sendtype[t_max], recvtype[t_max];
  MPI_Request halo[2];
};

static void exchange_open(struct Exchange *exchange, MPI_Comm comm, const struct Borders *types) {
  int r = 0, t = 0;
  MPI_Comm_rank(comm, &r);
  CC_Cart_neighbors_count(comm, r, CC_CHEBYSHEV, 1, 1, &t); /* 8; the arrays hold t_max */
  int target[2 * t_max], opposite[2 * t_max], to[t_max], from[t_max], destinations[t_max], sources[t_max];
  CC_Cart_neighbors(comm, r, CC_CHEBYSHEV, 1, 1, t_max, target);
  for (int k = 0; k < 2 * t; ++k) opposite[k] = -target[k];
  CC_Cart_allranks_relative(comm, r, t, target, to);
  CC_Cart_allranks_relative(comm, r, t, opposite, from);
  exchange->outdegree = exchange->indegree = 0;
  for (int i = 0; i < t; ++i) {
    const int dr = target[2 * i], dc = target[2 * i + 1];
    if (to[i] != MPI_PROC_NULL) { /* gets the border facing it */
      const int o = exchange->outdegree++;
      destinations[o] = to[i];
      exchange->sendcount[o] = 1;
      border_block(types, dr, dc, 0, &exchange->senddisp[o], &exchange->sendtype[o]);
    }
    if (from[i] != MPI_PROC_NULL) { /* sent its border facing +offset: the halo on our -offset side */
      const int s = exchange->indegree++;
      sources[s] = from[i];
      exchange->recvcount[s] = 1;
      border_block(types, -dr, -dc, 1, &exchange->recvdisp[s], &exchange->recvtype[s]);
    }
  }
  const int reorder = 1;
  CC_Dist_graph_create_adjacent(comm, exchange->indegree, sources, MPI_UNWEIGHTED, exchange->outdegree, destinations,
                                MPI_UNWEIGHTED, MPI_INFO_NULL, reorder, &exchange->cartcomm);
}

/* The persistent halo exchanges of the two matrices: each sends the matrix's borders into its own halo. */
static void exchange_bind(struct Exchange *exchange, double *const buffers[2]) {
  for (int k = 0; k < 2; ++k)
    CC_Alltoallw_init(buffers[k], exchange->sendcount, exchange->senddisp, exchange->sendtype, buffers[k],
                      exchange->recvcount, exchange->recvdisp, exchange->recvtype, exchange->cartcomm, MPI_INFO_NULL,
                      &exchange->halo[k]);
}

static void exchange_close(struct Exchange *exchange) {
  for (int k = 0; k < 2; ++k) CC_Request_free(&exchange->halo[k]);
  MPI_Comm_free(&exchange->cartcomm);
}

/* The local matrix of the process at grid coordinates (pr, pc): interior and halo from initial_value. */
static void fill_local(double *matrix, int pr, int pc) {
  for (int i = 0; i < n + 2; ++i)
    for (int j = 0; j < n + 2; ++j) matrix[i * (n + 2) + j] = initial_value(pr * n + i - 1, pc * n + j - 1);
}

/* Figure 1b's loop: exchange the halos of the current matrix, compute the other one from it, check
 * convergence on the base communicator (the largest change anywhere: every process then takes the
 * same decision). Returns the number of iterations; the result is in buffers[iterations % 2]. */
static int iterate(double *const buffers[2], struct Exchange *exchange, MPI_Comm basecomm, double *largest_change) {
  int iterations = 0;
  do {
    const int current = iterations % 2;
    CC_Start(&exchange->halo[current]);
    CC_Wait(&exchange->halo[current], MPI_STATUS_IGNORE);
    const double change = jacobi_step(buffers[current], buffers[1 - current], n, n);
    ++iterations;
    CC_Allreduce(&change, largest_change, 1, MPI_DOUBLE, MPI_MAX, basecomm);
  } while (*largest_change >= tolerance && iterations < max_iterations);
  return iterations;
}

/* The serial halo of the whole rows x cols matrix: along a periodic dimension the opposite edge (and
 * corner) is copied into it; elsewhere it keeps the boundary values. */
static void wrap_halo(double *matrix, int rows, int cols, const int periods[2]) {
  for (int i = 0; i < rows + 2; ++i)
    for (int j = 0; j < cols + 2; ++j) {
      const int row_off = i == 0 || i == rows + 1, col_off = j == 0 || j == cols + 1;
      if (!(row_off || col_off) || (row_off && !periods[0]) || (col_off && !periods[1])) continue;
      const int si = i == 0 ? rows : i == rows + 1 ? 1 : i, sj = j == 0 ? cols : j == cols + 1 ? 1 : j;
      matrix[i * (cols + 2) + j] = matrix[si * (cols + 2) + sj];
    }
}

/* The same iteration on the whole matrix, serially. Returns the number of iterations; the result is
 * in *matrix. */
static int iterate_serially(double **matrix, double **next, int rows, int cols, const int periods[2]) {
  int iterations = 0;
  double change = 0.0;
  do {
    wrap_halo(*matrix, rows, cols, periods);
    change = jacobi_step(*matrix, *next, rows, cols);
    double *swap = *matrix;
    *matrix = *next;
    *next = swap;
    ++iterations;
  } while (change >= tolerance && iterations < max_iterations);
  return iterations;
}

/* Rank 0 of basecomm: gathers every block (placed by the coordinates each process sends) and compares
 * the matrix and the iteration count with the serial run. Returns the number of differing values
 * (+1 for a different count) on rank 0, 0 elsewhere. */
static int compare_with_serial(const double *matrix, const int coordinates[2], int iterations, MPI_Comm basecomm,
                               const int dims[2], const int periods[2]) {
  int p = 0, b = 0;
  MPI_Comm_size(basecomm, &p);
  MPI_Comm_rank(basecomm, &b);
  MPI_Datatype interior; /* the n x n block inside the halo */
  MPI_Type_vector(n, n, n + 2, MPI_DOUBLE, &interior);
  MPI_Type_commit(&interior);
  int *all_coordinates = b == 0 ? malloc(sizeof(int) * 2 * (size_t)p) : NULL;
  double *blocks = b == 0 ? malloc(sizeof(double) * n * n * (size_t)p) : NULL;
  CC_Gather(coordinates, 2, MPI_INT, all_coordinates, 2, MPI_INT, 0, basecomm);
  CC_Gather(matrix + (n + 2) + 1, 1, interior, blocks, n * n, MPI_DOUBLE, 0, basecomm);
  MPI_Type_free(&interior);
  int wrong = 0;
  if (b == 0) {
    const int rows = dims[0] * n, cols = dims[1] * n;
    const size_t size = (size_t)(rows + 2) * (size_t)(cols + 2);
    double *whole = malloc(sizeof(double) * size), *next = malloc(sizeof(double) * size);
    for (int i = 0; i < rows + 2; ++i)
      for (int j = 0; j < cols + 2; ++j) whole[i * (cols + 2) + j] = next[i * (cols + 2) + j] = initial_value(i - 1, j - 1);
    wrong += iterate_serially(&whole, &next, rows, cols, periods) != iterations;
    for (int q = 0; q < p; ++q)
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const int row = all_coordinates[2 * q] * n + i, col = all_coordinates[2 * q + 1] * n + j;
          /* The same arithmetic on the same values: equal to the last bit. */
          wrong += blocks[((size_t)q * n + i) * n + j] != whole[(row + 1) * (cols + 2) + col + 1];
        }
    free(whole);
    free(next);
  }
  free(all_coordinates);
  free(blocks);
  return wrong;
}

/* Names comm as a grid of its processes with the given periods, runs the stencil on it and prints a
 * summary. With `check`, returns on every process the number of differences from the serial run
 * (and prints the verdict); else 0. */
static int run(MPI_Comm comm, const int periods[2], int check) {
  int p = 0, pp = 0;
  MPI_Comm_size(comm, &p);
  int dims[2] = {0, 0};
  MPI_Dims_create(p, 2, dims);
  CC_Cart_name(comm, 2, MPI_ORDER_C, dims, periods, &pp); /* renaming replaces the naming */
  struct Borders types;
  MPI_Type_contiguous(n, MPI_DOUBLE, &types.row);
  MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &types.col);
  MPI_Type_contiguous(1, MPI_DOUBLE, &types.cor);
  MPI_Type_commit(&types.row);
  MPI_Type_commit(&types.col);
  MPI_Type_commit(&types.cor);
  struct Exchange exchange;
  exchange_open(&exchange, comm, &types);
  MPI_Comm basecomm = MPI_COMM_NULL; /* reorder may have moved the processes: global calls go here */
  CC_Comm_base(exchange.cartcomm, &basecomm);

  int r = 0, coordinates[2];
  MPI_Comm_rank(comm, &r);
  CC_Cart_coordinates(comm, r, coordinates);
  double *const buffers[2] = {malloc(sizeof(double) * (n + 2) * (n + 2)), malloc(sizeof(double) * (n + 2) * (n + 2))};
  fill_local(buffers[0], coordinates[0], coordinates[1]);
  fill_local(buffers[1], coordinates[0], coordinates[1]);
  exchange_bind(&exchange, buffers);
  double largest_change = 0.0;
  const int iterations = iterate(buffers, &exchange, basecomm, &largest_change);
  const double *matrix = buffers[iterations % 2];

  int wrong = 0, b = 0;
  MPI_Comm_rank(basecomm, &b);
  if (check) {
    wrong = compare_with_serial(matrix, coordinates, iterations, basecomm, dims, periods);
    MPI_Bcast(&wrong, 1, MPI_INT, 0, basecomm);
  }
  if (b == 0)
    printf("9-point stencil on a %dx%d grid of %dx%d blocks, periods (%d,%d): %d iterations, last change %.3g%s\n",
           dims[0], dims[1], n, n, periods[0], periods[1], iterations, largest_change,
           !check ? "" : wrong == 0 ? "; equal to the serial iteration -> OK" : "; NOT the serial iteration's -> FAILED");
  free(buffers[0]);
  free(buffers[1]);
  MPI_Comm_free(&basecomm);
  exchange_close(&exchange);
  MPI_Type_free(&types.row);
  MPI_Type_free(&types.col);
  MPI_Type_free(&types.cor);
  return wrong;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int torus = 0, check = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--torus") == 0) torus = 1;
    if (strcmp(argv[i], "--check") == 0) check = 1;
  }
  MPI_Comm comm = MPI_COMM_NULL; /* the naming is an attribute: put it on a communicator of our own */
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int failed = 0;
  const int grids[3][2] = {{0, 0}, {1, 1}, {1, 0}}, chosen[2] = {torus, torus};
  for (int g = 0; g < (check ? 3 : 1); ++g) failed += run(comm, check ? grids[g] : chosen, check) != 0;
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
