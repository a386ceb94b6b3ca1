// SPDX-License-Identifier: BSD-3-Clause
#include "halo.hpp"

#include "cartcoll/topology.hpp"

namespace bench {
namespace {

// The coordinates of cell `cell` of the local array, row-major.
std::vector<int> cell_coords(const HaloArray& h, long long cell) {
  std::vector<int> x(static_cast<std::size_t>(h.d));
  for (int k = h.d - 1; k >= 0; --k) {
    x[static_cast<std::size_t>(k)] = static_cast<int>(cell % h.edge());
    cell /= h.edge();
  }
  return x;
}

bool interior(const HaloArray& h, const std::vector<int>& x) {
  for (int c : x)
    if (c < h.width || c >= h.width + h.n) return false;
  return true;
}

}  // namespace

HaloArray halo_array(int d, int n, int width, int processes, int rank) {
  HaloArray h{d, n, width, std::vector<int>(static_cast<std::size_t>(d), 0), {}};
  MPI_Dims_create(processes, d, h.dims.data());
  h.coords = cartcoll::Grid(h.dims, std::vector<bool>(h.dims.size(), true)).coords_of(rank);
  return h;
}

long long HaloArray::cells() const {
  long long total = 1;
  for (int k = 0; k < d; ++k) total *= edge();
  return total;
}

MPI_Datatype HaloArray::block_type(std::span<const int> offset, bool halo, MPI_Aint& displacement) const {
  std::vector<int> sizes(static_cast<std::size_t>(d), edge()), subsizes, starts;
  for (int o : offset) {
    subsizes.push_back(o == 0 ? n : width);
    if (o == 0) starts.push_back(width);
    else if (!halo) starts.push_back(o > 0 ? n : width);  // the interior's last or first WIDTH layers
    else starts.push_back(o > 0 ? 0 : n + width);         // from -o: the halo below or above
  }
  MPI_Datatype type = MPI_DATATYPE_NULL;
#ifndef CARTCOLL_MPI_IS_SMPI
  displacement = 0;
  MPI_Type_create_subarray(d, sizes.data(), subsizes.data(), starts.data(), MPI_ORDER_C, MPI_DOUBLE, &type);
#else
  MPI_Aint stride = sizeof(double);
  displacement = 0;
  MPI_Type_contiguous(subsizes.back(), MPI_DOUBLE, &type);
  for (int k = d - 1; k >= 0; --k) {
    displacement += starts[static_cast<std::size_t>(k)] * stride;
    if (k < d - 1) {
      MPI_Datatype outer = MPI_DATATYPE_NULL;
      MPI_Type_create_hvector(subsizes[static_cast<std::size_t>(k)], 1, stride, type, &outer);
      MPI_Type_free(&type);
      type = outer;
    }
    stride *= edge();
  }
#endif
  MPI_Type_commit(&type);
  return type;
}

long long HaloArray::block_elements(std::span<const int> offset) const {
  long long elements = 1;
  for (int o : offset) elements *= o == 0 ? n : width;
  return elements;
}

double HaloArray::expected(long long cell) const {
  const std::vector<int> x = cell_coords(*this, cell);
  long long global = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const long long extent = static_cast<long long>(dims[k]) * n;
    const long long position = (static_cast<long long>(coords[k]) * n + x[k] - width + extent) % extent;
    global = global * extent + position;
  }
  return static_cast<double>(global + 1);  // exact: far below 2^53 cells
}

void HaloArray::fill(std::span<double> array) const {
  for (long long cell = 0; cell < cells(); ++cell)
    array[static_cast<std::size_t>(cell)] = interior(*this, cell_coords(*this, cell)) ? expected(cell) : -1.0;
}

long long HaloArray::mismatches(std::span<const double> array) const {
  long long wrong = 0;
  for (long long cell = 0; cell < cells(); ++cell) wrong += array[static_cast<std::size_t>(cell)] != expected(cell);
  return wrong;
}

}  // namespace bench
