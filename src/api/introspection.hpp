// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What libcartcoll_mpi (src/interpose) may ask of the library beyond the C faces: the one interface
// through which it sees the runtime, so that the wrappers never depend on the runtime's types.
#include <mpi.h>

#include <cstddef>
#include <optional>
#include <string>

namespace cartcoll::introspection {

// The last collective a communicator with the library's state ran: the algorithm's name, this
// process's messages, whether its neighborhood is Cartesian, and what decided the algorithm
// (forced, contract, only-candidate, profile, trial, model: docs/transparent.md). nullopt where it
// ran none.
struct LastRun {
  std::string algorithm;
  int messages = 0;
  bool cartesian = false;
  std::string decided_by;
};
std::optional<LastRun> last_run(MPI_Comm comm);

// The requests of the library's operations that are posted and not yet complete, in this process.
std::size_t requests_in_flight() noexcept;

// Gives `graph`, which MPI just made from `parent` (MPI_Dist_graph_create*, MPI_Cart_create ...),
// the library's state: Cartesian detection, the set-ups the agreed settings ask for (collective).
void attach_at_mpi_creation(MPI_Comm parent, MPI_Comm graph, MPI_Info info);

// An MPI return code other than MPI_SUCCESS as the library's Error (class Errc::mpi).
void check(int code, const char* what);

}  // namespace cartcoll::introspection
