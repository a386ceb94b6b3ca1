// SPDX-License-Identifier: BSD-3-Clause
// The Game of Life of Träff, Hunold, Mercier and Holmes, Listing 7, through cartcoll's C++ API
// (life.c is the same program against the C interface): one cell per process; the naming
// (set_naming, NamedComm), the generated Moore
// neighborhood (NamedComm::neighbors, allranks_relative), the graph (create_graph_adjacent, reordering
// allowed), the base communicator (comm_base) and the neighborhood sum (unified::run with
// unified::Allreduce). Every communicator is a cartcoll::Communicator, freed when it goes out of scope.
//
//   mpiexec -n 12 cartcoll-life-cpp [--steps N] [--torus] [--check]
//
// As life.c: without --check it prints the board after N generations (default 12) on a mesh or a
// torus; with --check it plays on a mesh, a torus and a cylinder, compares every generation's board
// and neighbor counts with the serial game of life_serial.h on rank 0 of the base communicator, and
// exits with 1 on a difference.
#include <mpi.h>

#include <array>
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cartcoll/comm_base.hpp"
#include "cartcoll/naming.hpp"
#include "cartcoll/neighbor.hpp"
#include "cartcoll/unified_collectives.hpp"
#include "life_serial.h"

namespace {

using Periods = std::array<int, 2>;

// The graph of each cell's 8 neighbors: the generated offsets as ranks, those off a mesh dropped
// (create_graph_adjacent takes no MPI_PROC_NULL). Symmetric, so one list serves both directions.
cartcoll::Communicator moore_graph(MPI_Comm comm) {
  const cartcoll::NamedComm named(comm);
  int r = 0;
  MPI_Comm_rank(comm, &r);
  const cartcoll::Offsets offsets = named.neighbors(r, cartcoll::Metric::chebyshev, 1, 1);
  std::vector<int> ranks;
  for (const int rank : named.allranks_relative(r, offsets.flat()))
    if (rank != MPI_PROC_NULL) ranks.push_back(rank);
  cartcoll::GraphOptions options;
  options.reorder = true;  // as Listing 7: the library (MPI) may reorder
  return cartcoll::create_graph_adjacent(comm, ranks, ranks, options);
}

// Collective over base: every process's `value` on base's rank 0 as a whole board (row-major), placed
// at the process's coordinates; empty elsewhere. The base communicator has no topology:
// unified::Gather is MPI's gather there.
std::vector<short> gather_board(MPI_Comm base, std::span<const int> coordinates, short value, const Periods& dims) {
  int p = 0, b = 0;
  MPI_Comm_size(base, &p);
  MPI_Comm_rank(base, &b);
  std::vector<int> all_coordinates(b == 0 ? 2 * static_cast<std::size_t>(p) : 0);
  std::vector<short> values(b == 0 ? static_cast<std::size_t>(p) : 0);
  namespace unified = cartcoll::unified;
  unified::run(base, unified::Gather{coordinates.data(), 2, MPI_INT, all_coordinates.data(), 2, MPI_INT, 0});
  unified::run(base, unified::Gather{&value, 1, MPI_SHORT, values.data(), 1, MPI_SHORT, 0});
  std::vector<short> board(b == 0 ? static_cast<std::size_t>(dims[0] * dims[1]) : 0);
  for (std::size_t q = 0; q < values.size(); ++q)
    board[static_cast<std::size_t>(all_coordinates[2 * q] * dims[1] + all_coordinates[2 * q + 1])] = values[q];
  return board;
}

// The serial game on base's rank 0, one generation at a time.
class SerialGame {
 public:
  SerialGame(const Periods& dims, const Periods& periods) : dims_(dims), periods_(periods) {
    for (int row = 0; row < dims[0]; ++row)
      for (int col = 0; col < dims[1]; ++col) board_.push_back(life_initially_alive(row, col));
    live_.resize(board_.size());
  }
  void advance() {
    life_serial_count(board_.data(), live_.data(), dims_[0], dims_[1], periods_.data());
    life_serial_step(board_.data(), live_.data(), static_cast<int>(board_.size()));
  }
  const std::vector<short>& board() const { return board_; }
  const std::vector<short>& live() const { return live_; }  // the counts that made board()

 private:
  Periods dims_, periods_;
  std::vector<short> board_, live_;
};

void print_board(const std::vector<short>& board, const Periods& dims, int steps) {
  std::printf("Game of Life on a %dx%d grid after %d generations:\n", dims[0], dims[1], steps);
  for (int row = 0; row < dims[0]; ++row) {
    for (int col = 0; col < dims[1]; ++col) std::putchar(board[static_cast<std::size_t>(row * dims[1] + col)] ? '#' : '.');
    std::putchar('\n');
  }
}

// Listing 7 on comm (named). With `check`, the number of generations (the initial board included)
// that differ from the serial game, on every process; else prints the final board and returns 0.
int play(MPI_Comm comm, const Periods& dims, const Periods& periods, int steps, bool check) {
  const cartcoll::Communicator graph = moore_graph(comm);
  const cartcoll::Communicator base = cartcoll::comm_base(graph.get());  // reorder may have moved ranks
  int r = 0, b = 0;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_rank(base.get(), &b);
  const std::vector<int> coordinates = cartcoll::NamedComm(comm).coordinates(r);

  SerialGame serial(dims, periods);
  short state = life_initially_alive(coordinates[0], coordinates[1]);
  int wrong_generations = 0;
  for (int generation = 0; generation <= steps; ++generation) {
    short live = 0;  // a process without neighbors (a 1x1 mesh) receives nothing: its count stays 0
    if (generation > 0) {
      cartcoll::unified::run(graph.get(), cartcoll::unified::Allreduce{&state, &live, 1, MPI_SHORT, MPI_SUM});
      if (live < 2 || live > 3)
        state = 0;
      else if (live == 3)
        state = 1;
    }
    if (!check) continue;
    // The states, and after the first generation the counts CC_Allreduce gave, against the serial game.
    const std::vector<short> board = gather_board(base.get(), coordinates, state, dims);
    const std::vector<short> counts = generation > 0 ? gather_board(base.get(), coordinates, live, dims) : board;
    if (b != 0) continue;
    if (generation > 0) serial.advance();
    wrong_generations += board != serial.board() || (generation > 0 && counts != serial.live());
  }
  if (check) {
    MPI_Bcast(&wrong_generations, 1, MPI_INT, 0, base.get());
  } else {
    const std::vector<short> board = gather_board(base.get(), coordinates, state, dims);
    if (b == 0) print_board(board, dims, steps);
  }
  return wrong_generations;
}

int run(int argc, char** argv) {
  int steps = 12;
  bool torus = false, check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--steps" && i + 1 < argc) steps = std::stoi(argv[++i]);
    if (argument == "--torus") torus = true;
    if (argument == "--check") check = true;
  }
  int p = 0, r = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  Periods dims{0, 0};
  MPI_Dims_create(p, 2, dims.data());
  MPI_Comm duplicate = MPI_COMM_NULL;  // the naming is an attribute: put it on a communicator of our own
  MPI_Comm_dup(MPI_COMM_WORLD, &duplicate);
  const cartcoll::Communicator comm(duplicate);

  const std::vector<Periods> grids = check ? std::vector<Periods>{{0, 0}, {1, 1}, {1, 0}}
                                           : std::vector<Periods>{{torus ? 1 : 0, torus ? 1 : 0}};
  int failed = 0;
  for (const Periods& periods : grids) {
    cartcoll::set_naming(comm.get(), cartcoll::CartesianNaming({dims[0], dims[1]}, {periods[0] != 0, periods[1] != 0},
                                                               cartcoll::DimOrder::row_major));
    const int wrong = play(comm.get(), dims, periods, steps, check);
    if (check && r == 0)
      std::printf("Game of Life (C++), %dx%d grid, periods (%d,%d), %d generations: %d differ from the serial game "
                  "-> %s\n",
                  dims[0], dims[1], periods[0], periods[1], steps, wrong, wrong == 0 ? "OK" : "FAILED");
    failed += wrong != 0;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 1;
  try {
    status = run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "cartcoll-life-cpp: %s\n", error.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
