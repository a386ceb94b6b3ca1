/* SPDX-License-Identifier: BSD-3-Clause */
/* A 27-point Jacobi iteration on a 3-D grid of processes, each owning an n x n x n block of a global
 * array with a halo of width w, whose halo exchange is one persistent alltoallw of <cartcoll/cartcoll.h>:
 * the stencil halo of Träff, Hunold, Mercier and Holmes (A Case for Orthogonality, section 3.5) in
 * three dimensions.
 *
 * - MPI_Dims_create makes the grid; Cart_neighborhood_create attaches the 26 offsets of the 3x3x3 cube
 *   (the zero vector left out) to it, as a torus, a mesh or a mix;
 * - the blocks are subarrays (MPI_Type_create_subarray) of the local (n+2w)^3 array: to the neighbor
 *   at offset o goes the part of the interior that faces o, w thick along every dimension where o is
 *   not 0 (6 faces of n x n x w, 12 edges of n x w x w, 8 corners of w x w x w), and from the
 *   neighbor at -o comes the halo on the -o side, of the same shape;
 * - the send blocks overlap: a corner is in 3 faces, 3 edges and its own block, an edge in 2 faces.
 *   The receive blocks do not overlap. The exchange is persistent (Cart_alltoallw_init once per
 *   array, Cart_start and Cart_wait per exchange), so the library can analyse the overlap once and
 *   send the shared bytes once. Cart_alltoallw_init rather than Iso_neighbor_alltoallw_init: its
 *   start and wait are separate calls, as a halo exchange overlapped with computation needs;
 * - with a halo of width w, each exchange is followed by w Jacobi steps, the k-th on the region k
 *   cells inside the local array (redundant work on the halo instead of w exchanges).
 *
 *   mpiexec -n 8 cartcoll-stencil27-halo [--n N] [--width W] [--exchanges K] [--torus] [--check]
 *
 * Without --check it runs on a mesh (or a torus) and prints the largest last change. With --check it
 * runs on a mesh, a torus and a grid periodic in the first dimension only; rank 0 gathers the array
 * and compares it with the same iteration computed serially on the whole array, to the last bit; the
 * exit status is 1 on any difference. The values depend on the global position, so a block from the
 * wrong process, or put in the wrong place, changes the result. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cartcoll/cartcoll.h"

enum { d = 3, t = 26 };

/* The grid of one run: process grid, periods, block edge n, halo width w, number of exchanges. */
struct Grid {
  int dims[d], periods[d], n, w, exchanges;
};

/* The initial value at global position (x, y, z), halo around the whole grid included (coordinates
 * below 0 or past the end): the boundary values of a mesh. Along a periodic dimension the position
 * wraps, so that the boundary of a cylinder is periodic too (a halo cell wide of both a periodic and
 * a mesh dimension is then the same everywhere it appears). */
static double initial_value(const struct Grid *g, int x, int y, int z) {
  int p[d] = {x, y, z};
  for (int j = 0; j < d; ++j) {
    const int cells = g->dims[j] * g->n;
    if (g->periods[j]) p[j] = ((p[j] % cells) + cells) % cells;
  }
  const long v = (long)(p[0] + 8) * 131 + (long)(p[1] + 8) * 71 + (long)(p[2] + 8) * 29 +
                 (long)(p[0] + 8) * (p[1] + 8) * (p[2] + 8) * 7;
  return (double)(v % 1009) / 1009.0;
}

/* An array of sizes[0] x sizes[1] x sizes[2] doubles, row-major. */
static size_t at(const int sizes[d], int x, int y, int z) {
  return ((size_t)x * (size_t)sizes[1] + (size_t)y) * (size_t)sizes[2] + (size_t)z;
}

/* One Jacobi step of the 27-point stencil on the box [lo, hi) of an array of the given sizes: next =
 * a weighted sum around each point, the 27 weights all different (a halo mirrored or moved changes
 * the result). Returns the largest change. The parallel iteration and its serial check both call
 * this; only the boxes and the halos differ, never the arithmetic of a point. */
static double jacobi_step(const double *array, double *next, const int sizes[d], const int lo[d], const int hi[d]) {
  double change = 0.0;
  for (int x = lo[0]; x < hi[0]; ++x)
    for (int y = lo[1]; y < hi[1]; ++y)
      for (int z = lo[2]; z < hi[2]; ++z) {
        double sum = 0.0;
        int weight = 1;
        for (int dx = -1; dx <= 1; ++dx)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dz = -1; dz <= 1; ++dz) sum += (weight++ / 378.0) * array[at(sizes, x + dx, y + dy, z + dz)];
        next[at(sizes, x, y, z)] = sum;
        change = fmax(change, fabs(sum - array[at(sizes, x, y, z)]));
      }
  return change;
}

/* The subarray of the local (n+2w)^3 array that offset o names: the part of the interior facing o
 * (halo 0: what goes to the neighbor at +o) or the halo on the -o side (halo 1: what comes from the
 * neighbor at -o, which sent the part of its interior facing +o). */
static MPI_Datatype block_type(const struct Grid *g, const int o[d], int halo) {
  const int edge = g->n + 2 * g->w;
  int sizes[d], subsizes[d], starts[d];
  for (int k = 0; k < d; ++k) {
    sizes[k] = edge;
    subsizes[k] = o[k] == 0 ? g->n : g->w;
    if (o[k] == 0) starts[k] = g->w;
    else if (!halo) starts[k] = o[k] > 0 ? g->n : g->w;
    else starts[k] = o[k] > 0 ? 0 : g->n + g->w;
  }
  MPI_Datatype type;
  MPI_Type_create_subarray(d, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &type);
  MPI_Type_commit(&type);
  return type;
}

/* The halo exchange: the Cartesian communicator, the alltoallw's arguments and one persistent request
 * per array (halo[k] exchanges the halo of array k in place). */
struct Exchange {
  MPI_Comm cartcomm;
  int offsets[t * d], counts[t];
  MPI_Aint displacements[t];
  MPI_Datatype sendtypes[t], recvtypes[t];
  Cart_request halo[2];
};

static void exchange_open(struct Exchange *e, const struct Grid *g) {
  int i = 0;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        int *o = &e->offsets[d * i];
        o[0] = dx, o[1] = dy, o[2] = dz;
        e->counts[i] = 1;
        e->displacements[i] = 0; /* the subarray types carry the position */
        e->sendtypes[i] = block_type(g, o, 0);
        e->recvtypes[i] = block_type(g, o, 1);
        ++i;
      }
  const int reorder = 1;
  Cart_neighborhood_create(MPI_COMM_WORLD, d, g->dims, g->periods, t, e->offsets, MPI_UNWEIGHTED, MPI_INFO_NULL,
                           reorder, &e->cartcomm);
}

static void exchange_bind(struct Exchange *e, double *const arrays[2]) {
  for (int k = 0; k < 2; ++k)
    Cart_alltoallw_init(arrays[k], e->counts, e->displacements, e->sendtypes, arrays[k], e->counts, e->displacements,
                        e->recvtypes, e->cartcomm, MPI_INFO_NULL, &e->halo[k]);
}

static void exchange_close(struct Exchange *e) {
  for (int k = 0; k < 2; ++k) Cart_request_free(&e->halo[k]);
  for (int i = 0; i < t; ++i) {
    MPI_Type_free(&e->sendtypes[i]);
    MPI_Type_free(&e->recvtypes[i]);
  }
  MPI_Comm_free(&e->cartcomm);
}

/* The local array of the process at grid coordinates c: interior and halo from initial_value. */
static void fill_local(double *array, const struct Grid *g, const int c[d]) {
  const int edge = g->n + 2 * g->w, sizes[d] = {edge, edge, edge};
  for (int x = 0; x < edge; ++x)
    for (int y = 0; y < edge; ++y)
      for (int z = 0; z < edge; ++z)
        array[at(sizes, x, y, z)] = initial_value(g, c[0] * g->n + x - g->w, c[1] * g->n + y - g->w, c[2] * g->n + z - g->w);
}

/* Exchanges, each followed by w steps; step k (1..w) after an exchange computes the box k cells inside
 * the local array, clipped to the global array along a mesh's dimensions (the boundary values there
 * never change). Returns the number of steps; the result is in arrays[steps % 2]. */
static int iterate(double *const arrays[2], struct Exchange *e, const struct Grid *g, const int c[d],
                   double *largest_change) {
  const int edge = g->n + 2 * g->w, sizes[d] = {edge, edge, edge};
  int steps = 0;
  double change = 0.0;
  for (int x = 0; x < g->exchanges; ++x) {
    Cart_start(&e->halo[steps % 2]);
    Cart_wait(&e->halo[steps % 2]);
    change = 0.0;
    for (int k = 1; k <= g->w; ++k, ++steps) {
      int lo[d], hi[d];
      for (int j = 0; j < d; ++j) {
        const int first = !g->periods[j] && c[j] == 0, last = !g->periods[j] && c[j] == g->dims[j] - 1;
        lo[j] = first ? g->w : k;
        hi[j] = last ? g->n + g->w : edge - k;
      }
      const double step_change = jacobi_step(arrays[steps % 2], arrays[1 - steps % 2], sizes, lo, hi);
      if (step_change > change) change = step_change;
    }
  }
  MPI_Allreduce(&change, largest_change, 1, MPI_DOUBLE, MPI_MAX, e->cartcomm);
  return steps;
}

/* The serial halo of the whole array (sizes: the global array and its halo of w): along a periodic
 * dimension it is a copy of the opposite side; elsewhere it keeps the boundary values. */
static void wrap_halo(double *array, const int sizes[d], int w, const int periods[d]) {
  for (int x = 0; x < sizes[0]; ++x)
    for (int y = 0; y < sizes[1]; ++y)
      for (int z = 0; z < sizes[2]; ++z) {
        int p[d] = {x, y, z}, inside = 1, wraps = 1;
        for (int j = 0; j < d; ++j) {
          const int cells = sizes[j] - 2 * w;
          if (p[j] >= w && p[j] < w + cells) continue;
          inside = 0;
          wraps = wraps && periods[j];
          p[j] = p[j] < w ? p[j] + cells : p[j] - cells;
        }
        if (!inside && wraps) array[at(sizes, x, y, z)] = array[at(sizes, p[0], p[1], p[2])];
      }
}

/* The same iteration on the whole array, serially, one step at a time. Returns the array. */
static double *iterate_serially(const struct Grid *g, int steps) {
  int sizes[d], lo[d], hi[d];
  size_t size = 1;
  for (int j = 0; j < d; ++j) {
    sizes[j] = g->dims[j] * g->n + 2 * g->w;
    lo[j] = g->w;
    hi[j] = sizes[j] - g->w;
    size *= (size_t)sizes[j];
  }
  double *arrays[2] = {malloc(sizeof(double) * size), malloc(sizeof(double) * size)};
  for (int x = 0; x < sizes[0]; ++x)
    for (int y = 0; y < sizes[1]; ++y)
      for (int z = 0; z < sizes[2]; ++z)
        arrays[0][at(sizes, x, y, z)] = arrays[1][at(sizes, x, y, z)] = initial_value(g, x - g->w, y - g->w, z - g->w);
  for (int s = 0; s < steps; ++s) {
    wrap_halo(arrays[s % 2], sizes, g->w, g->periods);
    jacobi_step(arrays[s % 2], arrays[1 - s % 2], sizes, lo, hi);
  }
  free(arrays[1 - steps % 2]);
  return arrays[steps % 2];
}

/* Rank 0 of cartcomm gathers every block (placed by the coordinates each process sends) and compares
 * it with the serial run. Returns the number of differing values on every process. */
static int compare_with_serial(const double *array, const struct Grid *g, const int c[d], int steps, MPI_Comm cartcomm) {
  int p = 0, r = 0;
  MPI_Comm_size(cartcomm, &p);
  MPI_Comm_rank(cartcomm, &r);
  const int n = g->n, w = g->w, edge = n + 2 * w, whole[d] = {edge, edge, edge}, interior[d] = {n, n, n},
            start[d] = {w, w, w};
  MPI_Datatype block;
  MPI_Type_create_subarray(d, whole, interior, start, MPI_ORDER_C, MPI_DOUBLE, &block);
  MPI_Type_commit(&block);
  const size_t cells = (size_t)n * (size_t)n * (size_t)n;
  int *coordinates = r == 0 ? malloc(sizeof(int) * d * (size_t)p) : NULL;
  double *blocks = r == 0 ? malloc(sizeof(double) * cells * (size_t)p) : NULL;
  MPI_Gather(c, d, MPI_INT, coordinates, d, MPI_INT, 0, cartcomm);
  MPI_Gather(array, 1, block, blocks, (int)cells, MPI_DOUBLE, 0, cartcomm);
  MPI_Type_free(&block);
  int wrong = 0;
  if (r == 0) {
    double *serial = iterate_serially(g, steps);
    int sizes[d];
    for (int j = 0; j < d; ++j) sizes[j] = g->dims[j] * n + 2 * w;
    for (int q = 0; q < p; ++q) {
      const int *o = &coordinates[d * q];
      for (int x = 0; x < n; ++x)
        for (int y = 0; y < n; ++y)
          for (int z = 0; z < n; ++z) /* the same arithmetic on the same values: equal to the last bit */
            wrong += blocks[(size_t)q * cells + at(interior, x, y, z)] !=
                     serial[at(sizes, o[0] * n + x + w, o[1] * n + y + w, o[2] * n + z + w)];
    }
    free(serial);
  }
  free(coordinates);
  free(blocks);
  MPI_Bcast(&wrong, 1, MPI_INT, 0, cartcomm);
  return wrong;
}

/* Runs the iteration on one grid and prints a summary; with `check`, returns the number of
 * differences from the serial run on every process, else 0. */
static int run(struct Grid *g, int check) {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  memset(g->dims, 0, sizeof g->dims);
  MPI_Dims_create(p, d, g->dims);
  struct Exchange e;
  exchange_open(&e, g);
  int r = 0, c[d];
  MPI_Comm_rank(e.cartcomm, &r);
  MPI_Cart_coords(e.cartcomm, r, d, c);
  const size_t edge = (size_t)(g->n + 2 * g->w), size = edge * edge * edge;
  double *const arrays[2] = {malloc(sizeof(double) * size), malloc(sizeof(double) * size)};
  fill_local(arrays[0], g, c);
  fill_local(arrays[1], g, c);
  exchange_bind(&e, arrays);
  double largest_change = 0.0;
  const int steps = iterate(arrays, &e, g, c, &largest_change);
  const int wrong = check ? compare_with_serial(arrays[steps % 2], g, c, steps, e.cartcomm) : 0;
  if (r == 0)
    printf("27-point stencil on a %dx%dx%d grid of %d^3 blocks, halo %d, periods (%d,%d,%d): %d exchanges, %d steps, "
           "last change %.3g%s\n",
           g->dims[0], g->dims[1], g->dims[2], g->n, g->w, g->periods[0], g->periods[1], g->periods[2], g->exchanges,
           steps, largest_change,
           !check ? "" : wrong == 0 ? "; equal to the serial iteration -> OK" : "; NOT the serial iteration's -> FAILED");
  exchange_close(&e);
  free(arrays[0]);
  free(arrays[1]);
  return wrong;
}

/* A bad command line, found before MPI_Init: every process says so and exits with status 2. */
static void usage_error(const char *problem) {
  fprintf(stderr, "cartcoll-stencil27-halo: %s\nusage: cartcoll-stencil27-halo [--n N] [--width W] [--exchanges K] [--torus] [--check]\n",
          problem);
  exit(2);
}

/* The value of the option at argv[i] (an integer of at least `least`), or exits with status 2. */
static int option_value(int argc, char **argv, int i, int least) {
  char *end = NULL;
  const long value = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
  if (i + 1 >= argc || *end != '\0' || value < least || value > 1000) usage_error(argv[i]);
  return (int)value;
}

int main(int argc, char **argv) {
  struct Grid g = {{0, 0, 0}, {0, 0, 0}, 6, 1, 4};
  int torus = 0, check = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--torus") == 0) torus = 1;
    else if (strcmp(argv[i], "--check") == 0) check = 1;
    else if (strcmp(argv[i], "--n") == 0) g.n = option_value(argc, argv, i++, 1);
    else if (strcmp(argv[i], "--width") == 0) g.w = option_value(argc, argv, i++, 1);
    else if (strcmp(argv[i], "--exchanges") == 0) g.exchanges = option_value(argc, argv, i++, 0);
    else usage_error(argv[i]);
  }
  if (g.w > g.n) usage_error("--width wider than --n");
  MPI_Init(&argc, &argv);
  const int grids[3][d] = {{0, 0, 0}, {1, 1, 1}, {1, 0, 0}};
  int failed = 0;
  for (int k = 0; k < (check ? 3 : 1); ++k) {
    for (int j = 0; j < d; ++j) g.periods[j] = check ? grids[k][j] : torus;
    failed += run(&g, check) != 0;
  }
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
