// SPDX-License-Identifier: BSD-3-Clause
// Cartesian naming as an MPI attribute of the communicator, and the named communicator's queries.
#include "cartcoll/naming.hpp"

#include <memory>
#include <string>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/comm/keyval.hpp"

namespace cartcoll {

namespace {

int delete_naming(MPI_Comm, int, void* value, void*) {
  delete static_cast<CartesianNaming*>(value);
  return MPI_SUCCESS;
}

// Process-wide: an MPI attribute key. Its values are not copied: the unified-interfaces paper by
// Träff, Hunold, Mercier and Holmes has no communicator constructor inherit a naming (MPI_Comm_dup
// included).
int naming_keyval() {
  static const int keyval = detail::create_keyval_freed_at_finalize(MPI_COMM_NULL_COPY_FN, delete_naming);
  return keyval;
}

int size_of(MPI_Comm comm) {
  int size = 0;
  detail::check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

CartesianNaming required_naming(MPI_Comm comm) {
  std::optional<CartesianNaming> naming = naming_of(comm);
  if (!naming) throw Error(Errc::topology, "the communicator has no Cartesian naming (CC_Cart_name)");
  return std::move(*naming);
}

int or_null(std::optional<int> rank) { return rank.value_or(MPI_PROC_NULL); }

// Applies `rank_of` to each of the d-long vectors of `flat`.
template <typename RankOf>
std::vector<int> ranks_of_vectors(std::span<const int> flat, int d, const RankOf& rank_of) {
  const auto length = static_cast<std::size_t>(d);
  if (flat.size() % length != 0) throw Error(Errc::arg, "a list of vectors must hold d entries per vector");
  std::vector<int> ranks;
  ranks.reserve(flat.size() / length);
  for (std::size_t at = 0; at < flat.size(); at += length) ranks.push_back(rank_of(flat.subspan(at, length)));
  return ranks;
}

}  // namespace

void set_naming(MPI_Comm comm, CartesianNaming naming) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  int inter = 0;
  detail::check(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) throw Error(Errc::comm, "an intercommunicator cannot be named: its ranks are the remote group's");
  const int size = size_of(comm);
  if (naming.size() > size)
    throw Error(Errc::dims, "the grid has " + std::to_string(naming.size()) + " processes, the communicator " +
                                std::to_string(size));
  auto value = std::make_unique<CartesianNaming>(std::move(naming));
  // MPI deletes the naming this replaces (delete_naming).
  detail::check(MPI_Comm_set_attr(comm, naming_keyval(), value.get()), "MPI_Comm_set_attr");
  value.release();  // owned by the attribute now
}

std::optional<CartesianNaming> naming_of(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  void* value = nullptr;
  int found = 0;
  detail::check(MPI_Comm_get_attr(comm, naming_keyval(), &value, &found), "MPI_Comm_get_attr");
  if (!found) return std::nullopt;
  return *static_cast<const CartesianNaming*>(value);
}

NamedComm::NamedComm(MPI_Comm comm) : naming_(required_naming(comm)), comm_size_(size_of(comm)) {}

void NamedComm::require_rank(int rank) const {
  if (rank != MPI_PROC_NULL && (rank < 0 || rank >= comm_size_))
    throw Error(Errc::rank, "rank " + std::to_string(rank) + " is not in a communicator of " +
                                std::to_string(comm_size_));
}

int NamedComm::rank(std::span<const int> coordinates) const { return or_null(naming_.rank(coordinates)); }

std::vector<int> NamedComm::coordinates(int rank) const {
  require_rank(rank);
  if (!naming_.has_name(rank)) return std::vector<int>(static_cast<std::size_t>(naming_.ndims()), MPI_PROC_NULL);
  return naming_.coordinates(rank);
}

int NamedComm::relative_rank(int source, std::span<const int> relative) const {
  require_rank(source);
  return or_null(naming_.relative_rank(source, relative));
}

std::vector<int> NamedComm::relative_coordinates(int source, int dest) const {
  require_rank(source);
  require_rank(dest);
  return naming_.relative_coordinates(source, dest);
}

std::pair<int, int> NamedComm::relative_shift(int rank, std::span<const int> relative) const {
  require_rank(rank);
  return {or_null(naming_.relative_rank(rank, relative, -1)), or_null(naming_.relative_rank(rank, relative, +1))};
}

std::vector<int> NamedComm::allranks(std::span<const int> coordinates) const {
  return ranks_of_vectors(coordinates, naming_.ndims(), [&](std::span<const int> vector) { return rank(vector); });
}

std::vector<int> NamedComm::allranks_relative(int source, std::span<const int> relatives) const {
  require_rank(source);
  return ranks_of_vectors(relatives, naming_.ndims(),
                          [&](std::span<const int> vector) { return or_null(naming_.relative_rank(source, vector)); });
}

int NamedComm::neighbors_count(int rank, Metric metric, int shadow, int depth) const {
  require_rank(rank);
  return neighborhood_size({naming_.ndims(), metric, shadow, depth});
}

Offsets NamedComm::neighbors(int rank, Metric metric, int shadow, int depth, int max_count) const {
  require_rank(rank);
  return neighborhood_offsets({naming_.ndims(), metric, shadow, depth}, max_count);
}

}  // namespace cartcoll
