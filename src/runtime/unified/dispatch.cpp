// SPDX-License-Identifier: BSD-3-Clause
#include "dispatch.hpp"

#include "runtime/comm/attach.hpp"
#include "cartcoll/neighbor.hpp"
#include "forwarded_operation.hpp"
#include "graph_calls.hpp"
#include "peers.hpp"

namespace cartcoll::detail {

namespace {

void require_comm(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
}

GraphView view_of(const CommState& state) {
  const GraphNeighborhood* graph = state.neighborhood.graph_lists();
  if (graph == nullptr) throw Error(Errc::intern, "a graph topology without a graph neighborhood");
  return {state.rank, graph->size, graph->sources, graph->destinations};
}

void raised(int code) {
  if (code != MPI_SUCCESS) throw RaisedByMpi(code);
}

}  // namespace

Degrees array_lengths(MPI_Comm comm) {
  require_comm(comm);
  if (acts_in_neighborhoods(comm)) return NeighborComm(comm).degrees();
  const int peers = peer_count(comm);
  return {peers, peers};
}

Started start_call(MPI_Comm comm, const unified::Call& call) {
  require_comm(comm);
  if (!acts_in_neighborhoods(comm)) {
    MpiCall mpi = mpi_call(comm, call);
    MPI_Request request = MPI_REQUEST_NULL;
    raised(mpi.nonblocking(&request));
    if (!mpi.owned) return {request, {}};
    return {MPI_REQUEST_NULL, RequestAccess::make(ForwardedOperation::started(comm, std::move(mpi), request))};
  }
  std::optional<Error> unusable_settings;
  const std::shared_ptr<CommState> state = state_for_collective(comm, false, &unusable_settings);
  return {MPI_REQUEST_NULL, start_graph_call(state, comm, graph_call(view_of(*state), call),
                                             unusable_settings ? &*unusable_settings : nullptr)};
}

Started init_call(MPI_Comm comm, const std::function<unified::Call()>& make_call, MPI_Info info, bool native) {
  require_comm(comm);
  if (!acts_in_neighborhoods(comm)) {
    MpiCall mpi = mpi_call(comm, make_call());
    if (!native || !mpi.persistent)
      return {MPI_REQUEST_NULL, RequestAccess::make(ForwardedOperation::restarted(comm, std::move(mpi)))};
    MPI_Request request = MPI_REQUEST_NULL;
    raised(mpi.persistent(info, &request));
    if (!mpi.owned) return {request, {}};
    return {MPI_REQUEST_NULL, RequestAccess::make(ForwardedOperation::persistent(comm, std::move(mpi), request))};
  }
  const std::shared_ptr<CommState> state = state_for_collective(comm, true);
  const GraphView view = view_of(*state);
  return {MPI_REQUEST_NULL, init_graph_call(
                                state, comm, [&] { return graph_call(view, make_call()); }, must_match_errors(), info)};
}

}  // namespace cartcoll::detail

namespace cartcoll::unified {

void run(MPI_Comm comm, const Call& call) {
  detail::require_comm(comm);
  if (!detail::acts_in_neighborhoods(comm)) {
    detail::raised(detail::mpi_call(comm, call).blocking());
    return;
  }
  const std::shared_ptr<detail::CommState> state = detail::state_for_collective(comm, true);
  detail::run_graph_call(*state, detail::graph_call(detail::view_of(*state), call));
}

namespace {

Request as_request(MPI_Comm comm, detail::Started started, bool persistent) {
  if (started.mpi == MPI_REQUEST_NULL) return std::move(started.library);
  if (persistent) return detail::RequestAccess::make(detail::ForwardedOperation::persistent(comm, {}, started.mpi));
  return detail::RequestAccess::make(detail::ForwardedOperation::started(comm, {}, started.mpi));
}

}  // namespace

Request start(MPI_Comm comm, const Call& call) { return as_request(comm, detail::start_call(comm, call), false); }

Request init(MPI_Comm comm, const Call& call, MPI_Info info) {
  return as_request(comm,
                    detail::init_call(
                        comm, [&] { return call; }, info),
                    true);
}

}  // namespace cartcoll::unified
