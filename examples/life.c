/* SPDX-License-Identifier: BSD-3-Clause */
/* Conway's Game of Life as Träff, Hunold, Mercier and Holmes write it (Listing 7, section 3.4),
 * against <cartcoll/unified.h>: one cell per process. The processes are named as a 2-D grid
 * (CC_Cart_name, no new communicator); the
 * Moore neighborhood is generated (CC_Cart_neighbors, Chebyshev distance, shadow 1 and depth 1: the 8
 * cells around, not the cell itself), turned into ranks (CC_Cart_allranks_relative) and made the
 * topology of a distributed graph (CC_Dist_graph_create_adjacent). On that graph CC_Allreduce sums
 * each process's in-neighbors: the live neighbors of every cell in one collective.
 *
 *   mpiexec -n 12 cartcoll-life [--steps N] [--torus] [--check]
 *
 * Without --check it plays N generations (default 12) on a mesh (the paper's period 0), or on a torus, and
 * prints the board. With --check it plays on a mesh, a torus and a grid periodic in the first dimension
 * only; after every generation rank 0 of the base communicator gathers the board and every cell's count
 * of live neighbors and compares them with the serial Game of Life (life_serial.h) on the whole grid;
 * the exit status is 1 on any difference. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cartcoll/neighbor.h"
#include "cartcoll/unified.h"
#include "life_serial.h"

/* Off a mesh CC_Cart_allranks_relative gives MPI_PROC_NULL, which CC_Dist_graph_create_adjacent
 * refuses: keep the ranks that are there, in order. The Moore neighborhood is symmetric, so the same
 * list serves as sources and destinations on every process, and the graph stays consistent. */
static int drop_absent(int t, int ranks[]) {
  int kept = 0;
  for (int i = 0; i < t; ++i)
    if (ranks[i] != MPI_PROC_NULL) ranks[kept++] = ranks[i];
  return kept;
}

/* The distributed graph of each cell's 8 neighbors on comm (named with CC_Cart_name). */
static MPI_Comm moore_graph(MPI_Comm comm) {
  int r = 0, t = 0;
  MPI_Comm_rank(comm, &r);
  CC_Cart_neighbors_count(comm, r, CC_CHEBYSHEV, 1, 1, &t);
  int *target = malloc(sizeof(int) * 2 * (size_t)t), *ranks = malloc(sizeof(int) * (size_t)t);
  CC_Cart_neighbors(comm, r, CC_CHEBYSHEV, 1, 1, t, target);
  CC_Cart_allranks_relative(comm, r, t, target, ranks);
  const int degree = drop_absent(t, ranks);
  const int reorder = 1;
  MPI_Comm cartcomm = MPI_COMM_NULL;
  CC_Dist_graph_create_adjacent(comm, degree, ranks, MPI_UNWEIGHTED, degree, ranks, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                reorder, &cartcomm);
  free(target);
  free(ranks);
  return cartcomm;
}

/* Collective over basecomm: rank 0 gets every process's `value` on the whole board (dims[0] x
 * dims[1] cells, row-major) in board[], placed at the process's coordinates. The base communicator is
 * a plain intracommunicator: CC_Gather is MPI_Gather there. */
static void gather_board(MPI_Comm basecomm, const int coordinates[2], short value, const int dims[2], short board[]) {
  int p = 0, b = 0;
  MPI_Comm_size(basecomm, &p);
  MPI_Comm_rank(basecomm, &b);
  int *all_coordinates = b == 0 ? malloc(sizeof(int) * 2 * (size_t)p) : NULL;
  short *values = b == 0 ? malloc(sizeof(short) * (size_t)p) : NULL;
  CC_Gather(coordinates, 2, MPI_INT, all_coordinates, 2, MPI_INT, 0, basecomm);
  CC_Gather(&value, 1, MPI_SHORT, values, 1, MPI_SHORT, 0, basecomm);
  if (b == 0)
    for (int q = 0; q < p; ++q) board[all_coordinates[2 * q] * dims[1] + all_coordinates[2 * q + 1]] = values[q];
  free(all_coordinates);
  free(values);
}

static void print_board(const short board[], const int dims[2], const int periods[2], int steps) {
  printf("Game of Life on a %dx%d %s after %d generations:\n", dims[0], dims[1],
         periods[0] && periods[1] ? "torus" : periods[0] || periods[1] ? "cylinder" : "mesh", steps);
  for (int row = 0; row < dims[0]; ++row) {
    for (int col = 0; col < dims[1]; ++col) putchar(board[row * dims[1] + col] ? '#' : '.');
    putchar('\n');
  }
}

/* What --check keeps: the gathered board and neighbor counts, and on rank 0 of the base communicator
 * the serial game's. */
struct Check {
  short *board, *live, *expected_board, *expected_live;
};

/* Collective over basecomm: gathers this generation's states (and, after the first, the counts CC_Allreduce
 * gave) and compares them on rank 0 with the serial game, which it advances. Returns 1 on a difference
 * (on rank 0). */
static int check_generation(struct Check *check, MPI_Comm basecomm, const int coordinates[2], short state, short live,
                            int generation, const int dims[2], const int periods[2]) {
  int b = 0, wrong = 0;
  MPI_Comm_rank(basecomm, &b);
  const int cells = dims[0] * dims[1];
  gather_board(basecomm, coordinates, state, dims, check->board);
  if (generation > 0) gather_board(basecomm, coordinates, live, dims, check->live);
  if (b != 0) return 0;
  if (generation > 0) {
    life_serial_count(check->expected_board, check->expected_live, dims[0], dims[1], periods);
    life_serial_step(check->expected_board, check->expected_live, cells);
    wrong |= memcmp(check->live, check->expected_live, sizeof(short) * (size_t)cells) != 0;
  }
  wrong |= memcmp(check->board, check->expected_board, sizeof(short) * (size_t)cells) != 0;
  return wrong;
}

/* Names comm as a grid of its processes with the given periods and plays `steps` generations of
 * Listing 7 on it. With `check`, returns on every process the number of generations (the initial
 * board included) whose board or counts differ from the serial game, and prints the verdict; else
 * prints the final board and returns 0. */
static int play(MPI_Comm comm, const int periods[2], int steps, int check) {
  int p = 0, pp = 0;
  MPI_Comm_size(comm, &p);
  int dims[2] = {0, 0};
  MPI_Dims_create(p, 2, dims);
  CC_Cart_name(comm, 2, MPI_ORDER_C, dims, periods, &pp); /* renaming replaces the naming */
  MPI_Comm cartcomm = moore_graph(comm);
  MPI_Comm basecomm = MPI_COMM_NULL; /* reorder may have moved the processes: global calls go here */
  CC_Comm_base(cartcomm, &basecomm);
  int r = 0, b = 0, coordinates[2];
  MPI_Comm_rank(comm, &r);
  MPI_Comm_rank(basecomm, &b);
  CC_Cart_coordinates(comm, r, coordinates);
  const size_t cells = (size_t)dims[0] * (size_t)dims[1];
  struct Check kept = {NULL, NULL, NULL, NULL};
  if (b == 0) {
    kept.board = malloc(sizeof(short) * cells);
    kept.live = malloc(sizeof(short) * cells);
    kept.expected_board = malloc(sizeof(short) * cells);
    kept.expected_live = malloc(sizeof(short) * cells);
    for (int row = 0; row < dims[0]; ++row)
      for (int col = 0; col < dims[1]; ++col) kept.expected_board[row * dims[1] + col] = life_initially_alive(row, col);
  }

  short state = life_initially_alive(coordinates[0], coordinates[1]);
  int wrong_generations = 0;
  for (int generation = 0; generation <= steps; ++generation) {
    short live = 0; /* a process without neighbors (a 1x1 mesh) receives nothing: its count stays 0 */
    if (generation > 0) {
      CC_Allreduce(&state, &live, 1, MPI_SHORT, MPI_SUM, cartcomm);
      if (live < 2 || live > 3)
        state = 0;
      else if (live == 3)
        state = 1;
    }
    if (check) wrong_generations += check_generation(&kept, basecomm, coordinates, state, live, generation, dims, periods);
  }
  if (check) {
    MPI_Bcast(&wrong_generations, 1, MPI_INT, 0, basecomm);
    if (b == 0)
      printf("Game of Life, %dx%d grid, periods (%d,%d), %d generations: %d differ from the serial game -> %s\n",
             dims[0], dims[1], periods[0], periods[1], steps, wrong_generations, wrong_generations == 0 ? "OK" : "FAILED");
  } else {
    gather_board(basecomm, coordinates, state, dims, kept.board);
    if (b == 0) print_board(kept.board, dims, periods, steps);
  }
  free(kept.board);
  free(kept.live);
  free(kept.expected_board);
  free(kept.expected_live);
  MPI_Comm_free(&basecomm);
  MPI_Comm_free(&cartcomm);
  return wrong_generations;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int steps = 12, torus = 0, check = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = atoi(argv[++i]);
    if (strcmp(argv[i], "--torus") == 0) torus = 1;
    if (strcmp(argv[i], "--check") == 0) check = 1;
  }
  MPI_Comm comm = MPI_COMM_NULL; /* the naming is an attribute: put it on a communicator of our own */
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int failed = 0;
  if (check) {
    const int grids[3][2] = {{0, 0}, {1, 1}, {1, 0}};
    for (int g = 0; g < 3; ++g) failed += play(comm, grids[g], steps, 1) != 0;
  } else {
    const int periods[2] = {torus, torus};
    play(comm, periods, steps, 0);
  }
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
