// SPDX-License-Identifier: BSD-3-Clause
// CartComm: neighborhood queries and the three ways to run a collective.
#include <string>

#include "runtime/exec/mpi_check.hpp"
#include "cartcoll/cartcoll.hpp"
#include "runtime/comm/state.hpp"
#include "runtime/comm/verbs.hpp"

namespace cartcoll {

CartComm::CartComm(MPI_Comm comm) : comm_(comm) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  state_ = detail::find_state(comm);
  if (state_ == nullptr || state_->origin != detail::Origin::cartesian_create)
    throw Error(Errc::topology, "the communicator carries no neighborhood made by Cart_neighborhood_create");
}

detail::CommState& CartComm::state() const {
  if (state_->freed()) throw Error(Errc::comm, "the communicator of this view was freed");
  return *state_;
}

const Grid& CartComm::grid() const { return state().cartesian().grid; }
const Offsets& CartComm::offsets() const { return state().cartesian().offsets; }
int CartComm::rank() const { return state().rank; }
std::span<const int> CartComm::coords() const { return state().cartesian().coords; }
Algorithm CartComm::algorithm() const { return state().settings.algorithm; }
std::optional<std::vector<int>> CartComm::weights() const { return state().weights.sources; }

namespace {

int rank_or_null(std::optional<int> rank) { return rank ? *rank : MPI_PROC_NULL; }

}  // namespace

int CartComm::relative_rank(std::span<const int> relative) const {
  return rank_or_null(grid().shift(coords(), relative, +1));
}

std::pair<int, int> CartComm::relative_shift(std::span<const int> relative) const {
  return {rank_or_null(grid().shift(coords(), relative, -1)), rank_or_null(grid().shift(coords(), relative, +1))};
}

std::vector<int> CartComm::relative_coord(int rank) const {
  if (rank < 0 || rank >= grid().size()) throw Error(Errc::rank, "rank " + std::to_string(rank) + " is not in the grid");
  std::vector<int> relative = grid().coords_of(rank);
  for (std::size_t k = 0; k < relative.size(); ++k) relative[k] -= coords()[k];
  return relative;
}

std::vector<int> CartComm::sources() const {
  std::vector<int> ranks;
  for (const auto& source : peers_of(grid(), offsets(), coords()).sources) ranks.push_back(rank_or_null(source));
  return ranks;
}

std::vector<int> CartComm::targets() const {
  std::vector<int> ranks;
  for (const auto& target : peers_of(grid(), offsets(), coords()).targets) ranks.push_back(rank_or_null(target));
  return ranks;
}

Algorithm CartComm::choose_algorithm(const Layout& layout) const {
  return detail::choose(state(), layout, detail::Contract::cartesian);
}

void CartComm::exchange(const Layout& layout) const { detail::exchange(state(), layout, detail::Contract::cartesian); }

void CartComm::exchange(const RegularArguments& arguments) const {
  detail::exchange(state(), arguments, detail::Contract::cartesian);
}

void CartComm::exchange(const ArgumentPrint& print, const std::function<Layout()>& make_layout) const {
  detail::exchange(state(), print, make_layout, detail::Contract::cartesian);
}

Request CartComm::iexchange(const Layout& layout) const {
  state();  // a freed communicator throws
  return detail::iexchange(state_, comm_, layout, detail::Contract::cartesian);
}

Request CartComm::exchange_init(const Layout& layout, const RequestOptions& options) const {
  return exchange_init([&] { return layout; }, options);
}

Request CartComm::exchange_init(const std::function<Layout()>& make_layout, const RequestOptions& options) const {
  state();
  return detail::exchange_init(state_, comm_, make_layout, options, detail::Contract::cartesian);
}

}  // namespace cartcoll
