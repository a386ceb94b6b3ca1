// SPDX-License-Identifier: BSD-3-Clause
#include "cart_fixture.hpp"

#include <algorithm>
#include <vector>

#include "core/planning/plan.hpp"
#include "core/model/neighborhoods.hpp"

namespace support {

AlgorithmInfo::AlgorithmInfo(const std::string& algorithm) {
  if (algorithm.empty()) return;
  MPI_Info_create(&info_);
  MPI_Info_set(info_, "cartcoll_algorithm", algorithm.c_str());
}

void AlgorithmInfo::set(const std::string& key, const std::string& value) {
  if (info_ == MPI_INFO_NULL) MPI_Info_create(&info_);
  MPI_Info_set(info_, key.c_str(), value.c_str());
}

AlgorithmInfo::~AlgorithmInfo() {
  if (info_ != MPI_INFO_NULL) MPI_Info_free(&info_);
}

namespace {

// A grid's periods as MPI's int flags.
std::vector<int> periods_of(const cartcoll::Grid& grid) {
  std::vector<int> periods;
  for (int k = 0; k < grid.ndims(); ++k) periods.push_back(grid.periodic(k) ? 1 : 0);
  return periods;
}

}  // namespace

int create(MPI_Comm comm, const cartcoll::Grid& grid, const cartcoll::Offsets& offsets, MPI_Info info,
           MPI_Comm* cartcomm) {
  const std::vector<int> dims(grid.dims().begin(), grid.dims().end()), periods = periods_of(grid);
  return Cart_neighborhood_create(comm, grid.ndims(), dims.data(), periods.data(), offsets.count(),
                                  offsets.flat().data(), MPI_UNWEIGHTED, info, 0, cartcomm);
}

MPI_Comm mpi_cart_create(MPI_Comm comm, const cartcoll::Grid& grid, int reorder) {
  const std::vector<int> dims(grid.dims().begin(), grid.dims().end()), periods = periods_of(grid);
  MPI_Comm cart = MPI_COMM_NULL;
  MPI_Cart_create(comm, grid.ndims(), dims.data(), periods.data(), reorder, &cart);
  return cart;
}

MPI_Comm moore_torus(int d, const std::string& algorithm) {
  std::vector<int> dims(static_cast<std::size_t>(d), 0);
  MPI_Dims_create(world_size(), d, dims.data());
  const cartcoll::Grid grid(dims, std::vector<bool>(dims.size(), true));
  const AlgorithmInfo info(algorithm);
  MPI_Comm cart = MPI_COMM_NULL;
  create(MPI_COMM_WORLD, grid, cartcoll::Offsets(d, cartcoll::neighborhoods::moore(d, 1)), info.get(), &cart);
  return cart;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

std::vector<std::string> algorithm_names(bool with_auto) {
  std::vector<std::string> names;
  for (const cartcoll::PlannerEntry& planner : cartcoll::planners())
    if (planner.serves(cartcoll::NeighborhoodKind::cartesian) && !planner.plans_shared_sends) names.emplace_back(planner.name);
  if (with_auto) names.emplace_back("auto");
  return names;
}

std::string algorithm_test_name(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace support
