// SPDX-License-Identifier: BSD-3-Clause
// C API: the naming, generator and base-communicator functions of <cartcoll/unified.h>, each reading
// its C arrays into the C++ API (cartcoll/naming.hpp, cartcoll/comm_base.hpp) and writing back.
#include <algorithm>
#include <tuple>

#include "runtime/comm/derived_comms.hpp"
#include "c_arrays.hpp"
#include "cartcoll/naming.hpp"
#include "cartcoll/unified.h"
#include "errors.hpp"

using namespace cartcoll;
using capi::copy_of;
using capi::require;

namespace {

DimOrder dim_order_of(int dimorder) {
  if (dimorder == MPI_ORDER_C) return DimOrder::row_major;
  if (dimorder == MPI_ORDER_FORTRAN) return DimOrder::column_major;
  throw Error(Errc::arg, "dimorder must be MPI_ORDER_C or MPI_ORDER_FORTRAN");
}

Metric metric_of(int metric) {
  if (metric == CC_MANHATTAN) return Metric::manhattan;
  if (metric == CC_CHEBYSHEV) return Metric::chebyshev;
  throw Error(Errc::arg, "metric must be CC_MANHATTAN or CC_CHEBYSHEV");
}

std::vector<bool> flags_of(const int* values, int d, const char* what) {
  const std::vector<int> flags = copy_of(values, static_cast<std::size_t>(d), what);
  return std::vector<bool>(flags.begin(), flags.end());
}

template <typename Body>
int with_naming(MPI_Comm cart, Body&& body) {
  return capi::guarded(cart, [&] { body(NamedComm(cart)); });
}

// One vector of d coordinates, or n of them.
std::span<const int> vectors(const NamedComm& named, const int* values, int n, const char* what) {
  if (n < 0) throw Error(Errc::arg, "n must not be negative");
  const std::size_t length = static_cast<std::size_t>(n) * static_cast<std::size_t>(named.naming().ndims());
  if (length > 0) require(values, what);
  return {values, length};
}

void copy_out(const std::vector<int>& values, int* into) { std::copy(values.begin(), values.end(), into); }

}  // namespace

extern "C" {

int CC_Cart_name(MPI_Comm comm, int d, int dimorder, const int order[], const int period[], int* size) {
  return capi::guarded(comm, [&] {
    require(size, "size");
    if (d < 1) throw Error(Errc::dims, "d must be at least 1");
    CartesianNaming naming(copy_of(order, static_cast<std::size_t>(d), "order"), flags_of(period, d, "period"),
                           dim_order_of(dimorder));
    const int named = naming.size();
    set_naming(comm, std::move(naming));
    *size = named;
  });
}

int CC_Cart_test(MPI_Comm cart, int* flag, int* d, int* size) {
  return capi::guarded(cart, [&] {
    require(flag, "flag");
    require(d, "d");
    require(size, "size");
    const std::optional<CartesianNaming> naming = naming_of(cart);
    *flag = naming ? 1 : 0;
    *d = naming ? naming->ndims() : 0;
    *size = naming ? naming->size() : 0;
  });
}

int CC_Cart_get(MPI_Comm cart, int* dimorder, int maxd, int order[], int period[]) {
  return with_naming(cart, [&](const NamedComm& named) {
    require(dimorder, "dimorder");
    if (maxd < 0) throw Error(Errc::arg, "maxd must not be negative");
    const CartesianNaming& naming = named.naming();
    const auto n = static_cast<std::size_t>(std::min(maxd, naming.ndims()));
    if (n > 0) {
      require(order, "order");
      require(period, "period");
    }
    *dimorder = naming.order() == DimOrder::row_major ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    for (std::size_t k = 0; k < n; ++k) {
      order[k] = naming.dims()[k];
      period[k] = naming.periods()[k] ? 1 : 0;
    }
  });
}

int CC_Cart_rank(MPI_Comm cart, const int coordinates[], int* rank) {
  return with_naming(cart, [&](const NamedComm& named) {
    require(rank, "rank");
    *rank = named.rank(vectors(named, coordinates, 1, "coordinates"));
  });
}

int CC_Cart_coordinates(MPI_Comm cart, int rank, int coordinates[]) {
  return with_naming(cart, [&](const NamedComm& named) {
    require(coordinates, "coordinates");
    copy_out(named.coordinates(rank), coordinates);
  });
}

int CC_Cart_relative_rank(MPI_Comm cart, int source, const int relative[], int* dest) {
  return with_naming(cart, [&](const NamedComm& named) {
    require(dest, "dest");
    *dest = named.relative_rank(source, vectors(named, relative, 1, "relative"));
  });
}

int CC_Cart_relative_coordinates(MPI_Comm cart, int source, int dest, int relative[]) {
  return with_naming(cart, [&](const NamedComm& named) {
    require(relative, "relative");
    copy_out(named.relative_coordinates(source, dest), relative);
  });
}

int CC_Cart_relative_shift(MPI_Comm cart, int rank, const int relative[], int* inrank, int* outrank) {
  return with_naming(cart, [&](const NamedComm& named) {
    require(inrank, "inrank");
    require(outrank, "outrank");
    std::tie(*inrank, *outrank) = named.relative_shift(rank, vectors(named, relative, 1, "relative"));
  });
}

int CC_Cart_allranks(MPI_Comm cart, int n, const int coordinates[], int ranks[]) {
  return with_naming(cart, [&](const NamedComm& named) {
    const std::span<const int> list = vectors(named, coordinates, n, "coordinates");
    if (n > 0) require(ranks, "ranks");
    copy_out(named.allranks(list), ranks);
  });
}

int CC_Cart_allranks_relative(MPI_Comm cart, int source, int n, const int relatives[], int ranks[]) {
  return with_naming(cart, [&](const NamedComm& named) {
    const std::span<const int> list = vectors(named, relatives, n, "relatives");
    if (n > 0) require(ranks, "ranks");
    copy_out(named.allranks_relative(source, list), ranks);
  });
}

int CC_Cart_create_sub(MPI_Comm cart, const int dimension[], MPI_Comm* subcart) {
  if (subcart != nullptr) *subcart = MPI_COMM_NULL;
  return capi::guarded(cart, [&] {
    Communicator sub = detail::create_sub(cart, [&](int d) {
      require(subcart, "subcart");
      return flags_of(dimension, d, "dimension");
    });
    *subcart = sub.release();
  });
}

int CC_Cart_neighbors_count(MPI_Comm cart, int rank, int metric, int shadow, int depth, int* size) {
  return with_naming(cart, [&](const NamedComm& named) {
    require(size, "size");
    *size = named.neighbors_count(rank, metric_of(metric), shadow, depth);
  });
}

int CC_Cart_neighbors(MPI_Comm cart, int rank, int metric, int shadow, int depth, int maxsize, int neighbors[]) {
  return with_naming(cart, [&](const NamedComm& named) {
    if (maxsize < 0) throw Error(Errc::arg, "maxsize must not be negative");
    const Offsets offsets = named.neighbors(rank, metric_of(metric), shadow, depth, maxsize);
    if (offsets.count() > 0) require(neighbors, "neighbors");
    std::copy(offsets.flat().begin(), offsets.flat().end(), neighbors);
  });
}

int CC_Comm_base(MPI_Comm comm, MPI_Comm* basecomm) {
  if (basecomm != nullptr) *basecomm = MPI_COMM_NULL;
  return capi::guarded(comm, [&] {
    Communicator base = detail::comm_base(comm, [&] { require(basecomm, "basecomm"); });
    *basecomm = base.release();
  });
}

}  // extern "C"
