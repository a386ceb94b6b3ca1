// CartComm: neighborhood queries and the three ways to run a collective.
#include <string>

#include "../exec/mpi_check.hpp"
#include "cartcoll/cartcoll.hpp"
#include "create.hpp"
#include "operation.hpp"
#include "selection.hpp"
#include "state.hpp"

namespace cartcoll {

CartComm::CartComm(MPI_Comm comm) : comm_(comm), state_(nullptr) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  state_ = detail::find_state(comm);
  if (state_ == nullptr) throw Error(Errc::topology, "the communicator carries no cartcoll neighborhood");
}

const Grid& CartComm::grid() const { return state_->grid; }
const Offsets& CartComm::offsets() const { return state_->offsets; }
int CartComm::rank() const { return state_->rank; }
std::span<const int> CartComm::coords() const { return state_->coords; }
Algorithm CartComm::algorithm() const { return state_->algorithm; }
std::optional<std::vector<int>> CartComm::weights() const { return state_->weights; }

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
  for (std::size_t k = 0; k < relative.size(); ++k) relative[k] -= state_->coords[k];
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

namespace {

void require_neighbor_count(const Layout& layout, int t) {
  if (layout.recv.size() != static_cast<std::size_t>(t))
    throw Error(Errc::arg, "the layout has " + std::to_string(layout.recv.size()) + " receive blocks, the neighborhood " +
                               std::to_string(t) + " neighbors");
}

}  // namespace

Algorithm CartComm::choose_algorithm(const Layout& layout) const {
  require_neighbor_count(layout, neighbor_count());
  return detail::resolve_algorithm(*state_, comm_, state_->algorithm, layout, detail::CallKind::once);
}

void CartComm::exchange(const Layout& layout) const {
  require_neighbor_count(layout, neighbor_count());
  const Algorithm algorithm = detail::resolve_algorithm(*state_, comm_, state_->algorithm, layout, detail::CallKind::once);
  const auto schedule = state_->schedule(layout.collective, algorithm);
  detail::Execution execution(*schedule, layout, state_->library_comm(comm_), state_->next_tag(),
                              detail::Execution::Mode::once, {&state_->type_cache, true});
  execution.start();
  execution.wait();
}

Request CartComm::iexchange(const Layout& layout) const {
  require_neighbor_count(layout, neighbor_count());
  const Algorithm algorithm = detail::resolve_algorithm(*state_, comm_, state_->algorithm, layout, detail::CallKind::once);
  const auto schedule = state_->schedule(layout.collective, algorithm);
  auto operation = std::make_unique<detail::Operation>(comm_, *schedule, layout, state_->library_comm(comm_),
                                                       state_->next_tag(), false,
                                                       detail::Reuse{&state_->type_cache, false});
  operation->execution().start();
  return Request(std::move(operation));
}

namespace {

// Init calls are collective anyway and build datatypes, so one small allreduce buys what blocking
// calls cannot afford: an error on any process, or a disagreeing algorithm, reaches every process.
Algorithm agree_on_init(MPI_Comm library_comm, const std::optional<Error>& local_error, Algorithm algorithm) {
  const int error = local_error ? static_cast<int>(local_error->kind()) + 1 : 0;
  int values[3] = {error, static_cast<int>(algorithm), -static_cast<int>(algorithm)};
  detail::check(MPI_Allreduce(MPI_IN_PLACE, values, 3, MPI_INT, MPI_MAX, library_comm), "MPI_Allreduce");
  if (local_error) throw *local_error;
  if (values[0] != 0) throw Error(static_cast<Errc>(values[0] - 1), "another process passed a bad argument");
  if (values[1] != -values[2]) throw Error(Errc::not_isomorphic, "processes chose different algorithms");
  return algorithm;
}

}  // namespace

Request CartComm::exchange_init(const Layout& layout, const RequestOptions& options) const {
  return exchange_init([&] { return layout; }, options);
}

Request CartComm::exchange_init(const std::function<Layout()>& make_layout, const RequestOptions& options) const {
  const MPI_Comm library_comm = state_->library_comm(comm_);
  std::optional<Layout> layout;
  std::optional<Error> local_error;
  Algorithm algorithm = state_->algorithm;
  try {
    algorithm = detail::effective_algorithm(options.info, options.algorithm.value_or(state_->algorithm));
    layout = make_layout();
    require_neighbor_count(*layout, neighbor_count());
  } catch (const Error& error) {
    local_error = error;
  }
  agree_on_init(library_comm, local_error, algorithm);
  algorithm = detail::resolve_algorithm(*state_, comm_, algorithm, *layout, detail::CallKind::persistent);
  const auto schedule = state_->schedule(layout->collective, algorithm);
  return Request(std::make_unique<detail::Operation>(comm_, *schedule, *layout, library_comm, state_->next_tag(), true));
}

}  // namespace cartcoll
