// SPDX-License-Identifier: BSD-3-Clause
// C API: creating neighborhoods and asking about them.
#include <algorithm>

#include "runtime/comm/create.hpp"
#include "runtime/selection/policy.hpp"
#include "runtime/comm/state.hpp"
#include "cartcoll/cartcoll.h"
#include "c_arrays.hpp"
#include "errors.hpp"

using namespace cartcoll;
using capi::copy_of;
using capi::fill;
using capi::require;

namespace {

detail::NeighborhoodSpec parse(int d, const int dimensions[], const int periods[], int t, const int targetrelative[],
                               const int weight[], MPI_Info info, MPI_Comm* cartcomm) {
  if (cartcomm == nullptr) throw Error(Errc::arg, "cartcomm is NULL");
  if (d < 1) throw Error(Errc::dims, "d must be at least 1");
  if (t < 0) throw Error(Errc::arg, "t must not be negative");
  const auto ndims = static_cast<std::size_t>(d);
  std::vector<int> flags = copy_of(periods, ndims, "periods");
  Grid grid(copy_of(dimensions, ndims, "dimensions"), std::vector<bool>(flags.begin(), flags.end()));
  Offsets offsets(d, copy_of(targetrelative, ndims * static_cast<std::size_t>(t), "targetrelative"));
  std::optional<std::vector<int>> weights;
  if (weight != MPI_UNWEIGHTED) {
    if (t > 0 && weight == MPI_WEIGHTS_EMPTY) throw Error(Errc::arg, "MPI_WEIGHTS_EMPTY with t > 0");
    weights = t > 0 ? copy_of(weight, static_cast<std::size_t>(t), "weight") : std::vector<int>{};
  }
  return {std::move(grid), std::move(offsets), std::move(weights),
          detail::effective_algorithm(info, Algorithm::automatic()), detail::node_size_setting(info)};
}

template <typename Body>
int with_cart(MPI_Comm cartcomm, Body&& body) {
  return capi::guarded(cartcomm, [&] { body(CartComm(cartcomm)); });
}

}  // namespace

extern "C" {

int Cart_neighborhood_create(MPI_Comm comm, int d, const int dimensions[], const int periods[], int t,
                             const int targetrelative[], const int weight[], MPI_Info info, int reorder,
                             MPI_Comm* cartcomm) {
  if (cartcomm != nullptr) *cartcomm = MPI_COMM_NULL;
  return capi::guarded(comm, [&] {
    Communicator created = detail::create_collectively(
        comm, [&] { return parse(d, dimensions, periods, t, targetrelative, weight, info, cartcomm); }, reorder != 0);
    *cartcomm = created.release();
  });
}

int Cart_relative_rank(MPI_Comm cartcomm, const int relative[], int* rank) {
  return with_cart(cartcomm, [&](const CartComm& cart) {
    require(relative, "relative");
    require(rank, "rank");
    *rank = cart.relative_rank({relative, static_cast<std::size_t>(cart.grid().ndims())});
  });
}

int Cart_relative_shift(MPI_Comm cartcomm, const int relative[], int* inrank, int* outrank) {
  return with_cart(cartcomm, [&](const CartComm& cart) {
    require(relative, "relative");
    require(inrank, "inrank");
    require(outrank, "outrank");
    std::tie(*inrank, *outrank) = cart.relative_shift({relative, static_cast<std::size_t>(cart.grid().ndims())});
  });
}

int Cart_relative_coord(MPI_Comm cartcomm, int rank, int relative[]) {
  return with_cart(cartcomm, [&](const CartComm& cart) {
    require(relative, "relative");
    const std::vector<int> coord = cart.relative_coord(rank);
    std::copy(coord.begin(), coord.end(), relative);
  });
}

int Cart_neighbor_count(MPI_Comm cartcomm, int* t) {
  return with_cart(cartcomm, [&](const CartComm& cart) {
    require(t, "t");
    *t = cart.neighbor_count();
  });
}

int Cart_neighbor_get(MPI_Comm cartcomm, int maxin, int source[], int sourceweight[], int maxout, int target[],
                      int targetweight[]) {
  return with_cart(cartcomm, [&](const CartComm& cart) {
    if (maxin < 0 || maxout < 0) throw Error(Errc::arg, "maxin and maxout must not be negative");
    if (maxin > 0) require(source, "source");
    if (maxout > 0) require(target, "target");
    fill(cart.sources(), maxin, source);
    fill(cart.targets(), maxout, target);
    // As MPI_Dist_graph_neighbors: weight arrays are left alone for an unweighted neighborhood.
    const auto weights = cart.weights();
    if (!weights) return;
    if (maxin > 0 && sourceweight != MPI_UNWEIGHTED && sourceweight != nullptr) fill(*weights, maxin, sourceweight);
    if (maxout > 0 && targetweight != MPI_UNWEIGHTED && targetweight != nullptr) fill(*weights, maxout, targetweight);
  });
}

}  // extern "C"
