// SPDX-License-Identifier: BSD-3-Clause
// A 2-D 9-point stencil halo exchange with Cart_alltoallw (Träff and Hunold, Cartesian Collective
// Communication, Listing 3): rows, columns and corners of a local (n+2)x(n+2) matrix move straight
// from and into the matrix through derived datatypes. The halos are then checked against the MPI-free reference model.
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "cartcoll/cartcoll.h"
#include "core/simulation/reference.hpp"

namespace {

constexpr int n = 6;  // interior size; the matrix is (n+2)x(n+2) with a halo of depth 1
constexpr int t = 8;
// Offsets (row, column): down, up, left, right, and the four diagonals, as in Träff and Hunold's Figure 1.
constexpr int offsets[t][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

double interior_value(int rank, int row, int col) { return rank * 10000.0 + row * 100.0 + col; }

// The region of the matrix a block covers: the send block for offset (dr, dc) is the interior edge
// facing that neighbor; the receive block from the source -(dr, dc) is the opposite halo.
struct Region {
  int row, col, rows, cols;
};
Region send_region(int dr, int dc) {
  return {dr > 0 ? n : 1, dc > 0 ? n : 1, dr == 0 ? n : 1, dc == 0 ? n : 1};
}
Region recv_region(int dr, int dc) {
  return {dr > 0 ? 0 : dr < 0 ? n + 1 : 1, dc > 0 ? 0 : dc < 0 ? n + 1 : 1, dr == 0 ? n : 1, dc == 0 ? n : 1};
}

std::vector<std::byte> pack(const std::vector<double>& matrix, Region region) {
  std::vector<std::byte> bytes;
  for (int r = 0; r < region.rows; ++r)
    for (int c = 0; c < region.cols; ++c) {
      const double value = matrix[static_cast<std::size_t>((region.row + r) * (n + 2) + region.col + c)];
      const auto* raw = reinterpret_cast<const std::byte*>(&value);
      bytes.insert(bytes.end(), raw, raw + sizeof value);
    }
  return bytes;
}

std::vector<double> matrix_of(int rank) {
  std::vector<double> matrix(static_cast<std::size_t>((n + 2) * (n + 2)), -1.0);
  for (int r = 1; r <= n; ++r)
    for (int c = 1; c <= n; ++c) matrix[static_cast<std::size_t>(r * (n + 2) + c)] = interior_value(rank, r, c);
  return matrix;
}

// Expected halos from the reference model: every rank's packed send regions in, this rank's receive
// blocks out.
int count_wrong_halos(const std::vector<double>& matrix, int rank, const cartcoll::Grid& grid) {
  cartcoll::Offsets list(2, std::vector<int>(&offsets[0][0], &offsets[0][0] + 2 * t));
  cartcoll::reference::Blocks send(static_cast<std::size_t>(grid.size())), recv(send.size());
  for (int r = 0; r < grid.size(); ++r) {
    const auto theirs = matrix_of(r);
    for (const auto& offset : offsets) {
      send[static_cast<std::size_t>(r)].push_back(pack(theirs, send_region(offset[0], offset[1])));
      recv[static_cast<std::size_t>(r)].push_back(pack(theirs, recv_region(offset[0], offset[1])));
    }
  }
  const auto expected = cartcoll::reference::exchange(grid, list, cartcoll::Collective::alltoall, send, recv);
  int wrong = 0;
  for (int i = 0; i < t; ++i)
    if (pack(matrix, recv_region(offsets[i][0], offsets[i][1])) != expected[static_cast<std::size_t>(rank)][static_cast<std::size_t>(i)])
      ++wrong;
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0};
  const int periods[2] = {1, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart = MPI_COMM_NULL;
  Cart_neighborhood_create(MPI_COMM_WORLD, 2, dims, periods, t, &offsets[0][0], MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &cart);
  int rank = 0;
  MPI_Comm_rank(cart, &rank);

  MPI_Datatype row, column;  // a row is n contiguous doubles; a column n doubles a row apart
  MPI_Type_contiguous(n, MPI_DOUBLE, &row);
  MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, &column);
  MPI_Type_commit(&row);
  MPI_Type_commit(&column);
  int counts[t];
  MPI_Aint send_displs[t], recv_displs[t];
  MPI_Datatype types[t];
  for (int i = 0; i < t; ++i) {
    const Region out = send_region(offsets[i][0], offsets[i][1]), in = recv_region(offsets[i][0], offsets[i][1]);
    counts[i] = 1;
    types[i] = out.rows == 1 && out.cols == 1 ? MPI_DOUBLE : out.rows == 1 ? row : column;
    send_displs[i] = static_cast<MPI_Aint>(sizeof(double)) * (out.row * (n + 2) + out.col);
    recv_displs[i] = static_cast<MPI_Aint>(sizeof(double)) * (in.row * (n + 2) + in.col);
  }

  std::vector<double> matrix = matrix_of(rank);
  const int code = Cart_alltoallw(matrix.data(), counts, send_displs, types, matrix.data(), counts, recv_displs, types, cart);
  int wrong = code == MPI_SUCCESS ? count_wrong_halos(matrix, rank, cartcoll::Grid({dims[0], dims[1]}, {true, true})) : t;
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, cart);
  if (rank == 0)
    std::printf("9-point stencil halo exchange with Cart_alltoallw on a %dx%d torus, %dx%d doubles per process: "
                "%d of %d halo blocks differ from the reference model -> %s\n",
                dims[0], dims[1], n, n, wrong, t * size, wrong == 0 ? "OK" : "FAILED");
  MPI_Type_free(&row);
  MPI_Type_free(&column);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return wrong == 0 ? 0 : 1;
}
