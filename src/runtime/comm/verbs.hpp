// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The three ways to run a collective on a communicator's state — blocking, nonblocking, persistent —
// shared by every face of the library (CartComm for Cart_*, NeighborComm for CC_*).
#include <functional>
#include <memory>

#include "cartcoll/cartcoll.hpp"
#include "state.hpp"
#include "runtime/exec/argument_print.hpp"

namespace cartcoll::detail {

void check_layout(const CommState& state, const Layout& layout, Contract contract);

// Whether a blocking call keeps its execution for the next call with the same arguments: only where
// all its datatypes are predefined (a derived datatype's handle may name another type by then).
bool keeps_execution(const Layout& layout);

// What a blocking call with this layout runs (collective where `auto` measures).
Algorithm choose(CommState& state, const Layout& layout, Contract contract);
void exchange(CommState& state, const Layout& layout, Contract contract);
// The same for alltoall and allgather, recognizing a repeated call by its arguments.
void exchange(CommState& state, const RegularArguments& arguments, Contract contract);
void exchange(CommState& state, const ArgumentPrint& print, const std::function<Layout()>& make_layout,
              Contract contract);
// Never blocks and never communicates before it returns. Where `reported_at_completion` is given
// (unusable settings, attach.hpp), the request runs and then fails with it at its completion.
Request iexchange(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const Layout& layout, Contract contract,
                  const Error* reported_at_completion = nullptr);
// The same for any collective, recognized by its print: a call repeated with an equal print takes
// the last such call's execution where it is idle (CommState::RepeatedNonblocking), and
// `make_layout` is called only where the call is not such a repeat. The state must be attached
// already (a first call's unusable settings take the form above).
Request iexchange(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const ArgumentPrint& print,
                  const std::function<Layout()>& make_layout, Contract contract);
// Collective: processes agree on errors, the algorithm and the request's tag.
Request exchange_init(const std::shared_ptr<CommState>& state, MPI_Comm user_comm,
                      const std::function<Layout()>& make_layout, const RequestOptions& options, Contract contract);

// One of the unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) collectives on a graph
// (src/runtime/unified): its layout, and either the schedule its caller planned for it (rooted collectives,
// reductions, MPI_IN_PLACE) or none, for a call of a neighborhood family (barrier, allgather,
// alltoall), which runs as CC_Neighbor_* of its family does. must_match: the values every process
// must pass alike (a root, block sizes), which *_init checks.
struct GraphCall {
  Layout layout;
  std::optional<Schedule> schedule;
  std::vector<int> must_match;
};
void run_graph_call(CommState& state, const GraphCall& call);
// Never blocks and never communicates before it returns; `reported_at_completion` as for iexchange.
Request start_graph_call(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const GraphCall& call,
                         const Error* reported_at_completion = nullptr);
// Collective: a bad argument on any process (thrown by `make`) fails every process alike; processes
// whose calls take different routes (MPI_IN_PLACE on some only) fail with Errc::buffer, and where
// must_match[i] differs every process throws mismatches[i].
Request init_graph_call(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const std::function<GraphCall()>& make,
                        std::span<const Error> mismatches, MPI_Info info);

}  // namespace cartcoll::detail
