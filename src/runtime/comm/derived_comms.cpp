// SPDX-License-Identifier: BSD-3-Clause
// CC_Cart_create_sub and CC_Comm_base: every process reads its arguments, one allreduce agrees on
// the outcome (and, for sub-grids, on the naming), then one MPI constructor makes the communicator.
// Once every process has passed the agreement all are in the call, so the blocking MPI constructor
// that follows waits for nobody who is waiting for us.
#include "derived_comms.hpp"

#include <array>
#include <cstdint>
#include <optional>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/exec/mpi_handles.hpp"
#include "cartcoll/comm_base.hpp"
#include "cartcoll/naming.hpp"
#include "collective.hpp"

namespace cartcoll {

namespace detail {

namespace {

// What must be equal on every process for the sub-grids to fit together, hashed into one int
// (FNV-1a over whole ints; non-negative, as agree() negates it).
int digest(const CartesianNaming& naming, const std::vector<bool>& excluded) {
  std::uint32_t hash = 2166136261u;
  const auto mix = [&hash](int value) { hash = (hash ^ static_cast<std::uint32_t>(value)) * 16777619u; };
  mix(naming.order() == DimOrder::row_major ? 0 : 1);
  for (int k = 0; k < naming.ndims(); ++k) {
    const auto at = static_cast<std::size_t>(k);
    mix(naming.dims()[at]);
    mix(naming.periods()[at] ? 1 : 0);
    mix(excluded[at] ? 1 : 0);
  }
  return static_cast<int>(hash & 0x7fffffffu);
}

bool is_intercommunicator(MPI_Comm comm) {
  int inter = 0;
  check(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  return inter != 0;
}

}  // namespace

Communicator create_sub(MPI_Comm comm, const std::function<std::vector<bool>(int)>& read_excluded) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  // Every process of an intercommunicator sees this, so none goes on to the agreement.
  if (is_intercommunicator(comm)) throw Error(Errc::comm, "an intercommunicator has no naming");
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  std::optional<Error> local_error;
  std::array<int, 3> shape{};
  int color = MPI_UNDEFINED;  // processes without a name get MPI_COMM_NULL
  try {
    const NamedComm named(comm);
    const CartesianNaming& naming = named.naming();
    const std::vector<bool> excluded = read_excluded(naming.ndims());
    if (excluded.size() != static_cast<std::size_t>(naming.ndims()))
      throw Error(Errc::arg, "dimension[] needs one flag per dimension of the naming");
    if (naming.has_name(rank)) color = naming.subgrid_of(rank, excluded);
    shape = {naming.ndims(), naming.size(), digest(naming, excluded)};
  } catch (const Error& error) {
    local_error = error;
  }
  agree(comm, local_error, shape, Error(Errc::arg, "processes differ in their naming or in dimension[]"));
  MPI_Comm sub = MPI_COMM_NULL;
  check(MPI_Comm_split(comm, color, rank, &sub), "MPI_Comm_split");  // key = rank: comm's order
  return Communicator(sub);
}

Communicator comm_base(MPI_Comm comm, const std::function<void()>& check_arguments) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  const bool inter = is_intercommunicator(comm);
  // An intercommunicator's two groups as one intracommunicator, from which each carves its own.
  Communicator merged;
  if (inter) {
    MPI_Comm both = MPI_COMM_NULL;
    check(MPI_Intercomm_merge(comm, 0, &both), "MPI_Intercomm_merge");
    merged = Communicator(both);
  }
  const MPI_Comm parent = inter ? merged.get() : comm;
  std::optional<Error> local_error;
  try {
    check_arguments();
  } catch (const Error& error) {
    local_error = error;
  }
  agree(parent, local_error, {}, Error(Errc::intern, "nothing to match"));
  MPI_Group local = MPI_GROUP_NULL;
  check(MPI_Comm_group(comm, &local), "MPI_Comm_group");  // the local group of an intercommunicator
  const Group group(local);
  // Each process names its own group (disjoint groups at once: MPI 2.2); ranks follow the group's order.
  MPI_Comm base = MPI_COMM_NULL;
  check(MPI_Comm_create(parent, group.get(), &base), "MPI_Comm_create");
  return Communicator(base);
}

}  // namespace detail

Communicator create_sub(MPI_Comm comm, const std::vector<bool>& excluded) {
  return detail::create_sub(comm, [&](int) { return excluded; });
}

Communicator comm_base(MPI_Comm comm) {
  return detail::comm_base(comm, [] {});
}

}  // namespace cartcoll
