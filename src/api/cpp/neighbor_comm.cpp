// SPDX-License-Identifier: BSD-3-Clause
// NeighborComm: MPI 4.1's neighborhood collectives on any communicator with a process topology.
#include <string>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/comm/attach.hpp"
#include "cartcoll/neighbor.hpp"
#include "runtime/comm/graph_create.hpp"
#include "runtime/comm/verbs.hpp"

namespace cartcoll {

namespace {

// On a communicator made by Cart_neighborhood_create the library holds its users to Träff and
// Hunold's (Cartesian Collective Communication) contract.
detail::Contract contract_of(const detail::CommState& state) {
  return state.origin == detail::Origin::cartesian_create ? detail::Contract::cartesian : detail::Contract::mpi;
}

std::vector<int> with_proc_null(std::vector<int> ranks) {
  for (int& rank : ranks)
    if (rank == no_process) rank = MPI_PROC_NULL;
  return ranks;
}

// The neighborhood without attaching anything: the library's state where there is one, else MPI's topology.
detail::Neighborhood neighborhood_of(MPI_Comm comm, int& rank) {
  detail::check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  if (const auto state = detail::find_state(comm)) return state->neighborhood;
  detail::Weights ignored;
  return detail::neighborhood_of_topology(comm, ignored);
}

}  // namespace

NeighborComm::NeighborComm(MPI_Comm comm) : comm_(comm) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  state_ = detail::find_state(comm);
}

detail::CommState& NeighborComm::state(bool may_block) const {
  if (!state_ || state_->freed()) state_ = detail::state_for_collective(comm_, may_block);
  return *state_;
}

Degrees NeighborComm::degrees() const {
  if (state_) return state_->degrees();
  int rank = 0;
  return neighborhood_of(comm_, rank).degrees();
}

std::vector<int> NeighborComm::sources() const {
  int rank = 0;
  return with_proc_null(neighborhood_of(comm_, rank).sources(rank));
}

std::vector<int> NeighborComm::destinations() const {
  int rank = 0;
  return with_proc_null(neighborhood_of(comm_, rank).destinations(rank));
}

void NeighborComm::exchange(const Layout& layout) const {
  detail::CommState& attached = state(true);
  detail::exchange(attached, layout, contract_of(attached));
}

void NeighborComm::exchange(const RegularArguments& arguments) const {
  detail::CommState& attached = state(true);
  detail::exchange(attached, arguments, contract_of(attached));
}

void NeighborComm::exchange(const ArgumentPrint& print, const std::function<Layout()>& make_layout) const {
  detail::CommState& attached = state(true);
  detail::exchange(attached, print, make_layout, contract_of(attached));
}

// A first call here cannot agree on settings: unusable ones fail it at its completion (attach.hpp).
Request NeighborComm::iexchange(const Layout& layout) const {
  std::optional<Error> unusable_settings;
  if (!state_ || state_->freed()) state_ = detail::state_for_collective(comm_, false, &unusable_settings);
  return detail::iexchange(state_, comm_, layout, contract_of(*state_),
                           unusable_settings ? &*unusable_settings : nullptr);
}

// A first call attaches the state only after its layout passed, as the form above does.
Request NeighborComm::iexchange(const ArgumentPrint& print, const std::function<Layout()>& make_layout) const {
  if (!state_ || state_->freed()) return iexchange(make_layout());
  return detail::iexchange(state_, comm_, print, make_layout, contract_of(*state_));
}

Request NeighborComm::exchange_init(const std::function<Layout()>& make_layout, const RequestOptions& options) const {
  detail::CommState& attached = state(true);
  return detail::exchange_init(state_, comm_, make_layout, options, contract_of(attached));
}

Algorithm NeighborComm::choose_algorithm(const Layout& layout) const {
  detail::CommState& attached = state(true);
  return detail::choose(attached, layout, contract_of(attached));
}

Communicator create_graph_adjacent(MPI_Comm comm, std::span<const int> sources, std::span<const int> destinations,
                                   const GraphOptions& options) {
  return Communicator(detail::create_graph_adjacent(
      comm,
      [&] {
        if (options.source_weights.has_value() != options.destination_weights.has_value())
          throw Error(Errc::arg, "weights for one direction only");
        if (options.source_weights && (options.source_weights->size() != sources.size() ||
                                       options.destination_weights->size() != destinations.size()))
          throw Error(Errc::arg, "one weight per neighbor is needed");
        return detail::GraphSpec{{sources.begin(), sources.end()}, {destinations.begin(), destinations.end()},
                                 options.source_weights, options.destination_weights};
      },
      options.info, options.reorder));
}

Communicator create_graph(MPI_Comm comm, std::span<const int> sources, std::span<const int> degrees,
                          std::span<const int> destinations, const EdgeListOptions& options) {
  return Communicator(detail::create_graph(
      comm,
      [&] {
        if (sources.size() != degrees.size()) throw Error(Errc::arg, "one degree per source is needed");
        if (options.weights && options.weights->size() != destinations.size())
          throw Error(Errc::arg, "one weight per edge is needed");
        return detail::EdgeSpec{{sources.begin(), sources.end()}, {degrees.begin(), degrees.end()},
                                {destinations.begin(), destinations.end()}, options.weights};
      },
      options.info, options.reorder));
}

}  // namespace cartcoll
