// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Cartesian naming on MPI communicators (the unified-interfaces paper by Träff, Hunold, Mercier and
// Holmes, section 3; the C functions CC_Cart_* of <cartcoll/unified.h> are a thin layer over
// these). A naming is a local attribute of the communicator: no new communicator, no communication,
// not copied by MPI_Comm_dup or any other communicator constructor. Ranks from the grid's size up
// have no name. See docs/unified.md.
#include <mpi.h>

#include <climits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "cartcoll/cartcoll.hpp"
#include "cartcoll/cartesian_naming.hpp"
#include "cartcoll/export.h"
#include "cartcoll/stencil.hpp"

namespace cartcoll {

// CC_Cart_name: attaches `naming` to comm, replacing any naming it had. Local. Error(Errc::comm) for
// MPI_COMM_NULL or an intercommunicator, Errc::dims for a grid of more processes than comm has (the
// communicator then keeps what it had).
CARTCOLL_API void set_naming(MPI_Comm comm, CartesianNaming naming);

// CC_Cart_test / CC_Cart_get: comm's naming, or nullopt. Error(Errc::comm) for MPI_COMM_NULL.
CARTCOLL_API std::optional<CartesianNaming> naming_of(MPI_Comm comm);

// A named communicator's queries (the unified-interfaces paper, Listings 4 and 6) in MPI's terms:
// ranks are the communicator's, MPI_PROC_NULL where there is no process (a position off a mesh, a
// rank without a name). A rank argument may be any rank of the communicator or MPI_PROC_NULL (which
// has no name); others are Error(Errc::rank). The view copies the naming: a later CC_Cart_name does
// not change it.
class CARTCOLL_API NamedComm {
 public:
  // Error(Errc::comm) for MPI_COMM_NULL, Errc::topology for a communicator without a naming.
  explicit NamedComm(MPI_Comm comm);

  const CartesianNaming& naming() const noexcept { return naming_; }
  int comm_size() const noexcept { return comm_size_; }

  int rank(std::span<const int> coordinates) const;
  // Every coordinate MPI_PROC_NULL (never a coordinate: those are >= 0) for a rank without a name.
  std::vector<int> coordinates(int rank) const;
  int relative_rank(int source, std::span<const int> relative) const;
  // Error(Errc::rank) where source or dest has no name: no vector leads there, and every integer
  // could be a real answer, so none can stand for "none".
  std::vector<int> relative_coordinates(int source, int dest) const;
  std::pair<int, int> relative_shift(int rank, std::span<const int> relative) const;  // {inrank, outrank}
  // The ranks of n = flat.size() / d coordinate vectors, or of rank source + each relative vector.
  std::vector<int> allranks(std::span<const int> coordinates) const;
  std::vector<int> allranks_relative(int source, std::span<const int> relatives) const;
  // The generators with the naming's d; `rank` is checked and then plays no part: every process,
  // named or not, on a torus or a mesh, gets the same offsets (see stencil.hpp for the order).
  int neighbors_count(int rank, Metric metric, int shadow, int depth) const;
  Offsets neighbors(int rank, Metric metric, int shadow, int depth, int max_count = INT_MAX) const;

 private:
  void require_rank(int rank) const;

  CartesianNaming naming_;
  int comm_size_;
};

// CC_Cart_create_sub: collective over comm. The processes whose coordinates agree in every dimension
// with excluded[k] form one communicator, in their order in comm; processes without a name get an
// empty Communicator. The result carries no naming. Every process must have the same naming and pass
// the same flags: checked in one allreduce, after which every process throws the same class
// (Errc::topology if any has no naming, Errc::arg for differing namings or flags).
CARTCOLL_API Communicator create_sub(MPI_Comm comm, const std::vector<bool>& excluded);

}  // namespace cartcoll
