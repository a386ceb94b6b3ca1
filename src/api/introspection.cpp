// SPDX-License-Identifier: BSD-3-Clause
#include "introspection.hpp"

#include "runtime/comm/graph_create.hpp"
#include "runtime/comm/state.hpp"
#include "runtime/exec/mpi_check.hpp"
#include "runtime/progress/progress.hpp"

namespace cartcoll::introspection {

std::optional<LastRun> last_run(MPI_Comm comm) {
  const auto state = detail::find_state(comm);
  if (!state || !state->last_run) return std::nullopt;
  const detail::CommState::Run& run = *state->last_run;
  return LastRun{std::string(run.algorithm.name()), run.messages, state->neighborhood.kind() == NeighborhoodKind::cartesian,
                 std::string(detail::name_of(run.decided_by))};
}

std::size_t requests_in_flight() noexcept { return detail::ProgressEngine::instance().outstanding(); }

void attach_at_mpi_creation(MPI_Comm parent, MPI_Comm graph, MPI_Info info) {
  detail::attach_at_mpi_creation(parent, graph, info);
}

void check(int code, const char* what) { detail::check(code, what); }

}  // namespace cartcoll::introspection
