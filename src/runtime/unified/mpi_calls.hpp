// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) collectives on communicators
// without a graph topology are MPI's own: each call bound to its arguments, in MPI's three forms.
#include <mpi.h>

#include <functional>
#include <memory>

#include "cartcoll/error.hpp"
#include "cartcoll/unified_collectives.hpp"

namespace cartcoll::detail {

// An MPI call failed and MPI has raised the error on the communicator's error handler already; the C
// layer returns the code without raising it again.
class RaisedByMpi : public Error {
 public:
  explicit RaisedByMpi(int code) : Error(Errc::mpi, "an MPI collective failed", code) {}
};

// MPI's collective bound to the call's arguments and communicator. Each function returns MPI's code.
struct MpiCall {
  std::function<int()> blocking;
  std::function<int(MPI_Request*)> nonblocking;
  // MPI-4's MPI_*_init (Open MPI 4.1: MPIX_*_init); empty where the MPI has no persistent collectives.
  std::function<int(MPI_Info, MPI_Request*)> persistent;
  // What the calls point into and MPI may read until the operation completes (MPI_Alltoallw's int
  // displacement arrays made from MPI_Aint ones, wrapping datatypes); nullptr if nothing.
  std::shared_ptr<const void> owned;
};

MpiCall mpi_call(MPI_Comm comm, const unified::Call& call);

}  // namespace cartcoll::detail
