// CartComm: neighborhood queries and the three ways to run a collective.
#include <string>

#include "../exec/mpi_check.hpp"
#include "../exec/progress.hpp"
#include "cartcoll/cartcoll.hpp"
#include "collective.hpp"
#include "operation.hpp"
#include "selection.hpp"
#include "state.hpp"

namespace cartcoll {

CartComm::CartComm(MPI_Comm comm) : comm_(comm) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  state_ = detail::find_state(comm);
  if (state_ == nullptr) throw Error(Errc::topology, "the communicator carries no cartcoll neighborhood");
}

detail::CommState& CartComm::state() const {
  if (state_->freed()) throw Error(Errc::comm, "the communicator of this view was freed");
  return *state_;
}

const Grid& CartComm::grid() const { return state().grid; }
const Offsets& CartComm::offsets() const { return state().offsets; }
int CartComm::rank() const { return state().rank; }
std::span<const int> CartComm::coords() const { return state().coords; }
Algorithm CartComm::algorithm() const { return state().settings.algorithm; }
std::optional<std::vector<int>> CartComm::weights() const { return state().weights; }

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

namespace {

// The Cartesian contract (000 and 002 section 2): t blocks each side, and since every process uses
// the same block sizes, send block i and receive block i (the one send block, for allgather) hold
// the same bytes: a local mismatch is already a violation, caught before it truncates or hangs.
void require_cartesian_layout(const Layout& layout, int t) {
  const std::size_t sends = layout.collective == Collective::allgather ? 1 : static_cast<std::size_t>(t);
  if (layout.recv.size() != static_cast<std::size_t>(t) || layout.send.size() != sends)
    throw Error(Errc::arg, "the layout has " + std::to_string(layout.recv.size()) + " receive blocks, the neighborhood " +
                               std::to_string(t) + " neighbors");
  for (std::size_t i = 0; i < layout.recv.size(); ++i) {
    const BlockSpec& sent = layout.send[layout.collective == Collective::allgather ? 0 : i];
    if (bytes_of(sent) != bytes_of(layout.recv[i]))
      throw Error(Errc::count, "send and receive block " + std::to_string(i) + " differ in size");
  }
}

// An ephemeral tag taken at the start of a call, before anything can fail, so that every process
// advances its tag counter for every call; given back if the call fails before an operation holds it.
class EphemeralTag {
 public:
  explicit EphemeralTag(detail::TagSpace& tags) : tags_(tags), tag_(tags.take_ephemeral()) {}
  ~EphemeralTag() {
    if (tag_ >= 0) tags_.release_ephemeral(tag_);
  }
  EphemeralTag(const EphemeralTag&) = delete;
  EphemeralTag& operator=(const EphemeralTag&) = delete;
  int get() const noexcept { return tag_; }
  int hand_over() noexcept { return std::exchange(tag_, -1); }

 private:
  detail::TagSpace& tags_;
  int tag_;
};

}  // namespace

Algorithm CartComm::choose_algorithm(const Layout& layout) const {
  require_cartesian_layout(layout, neighbor_count());
  return detail::resolve_algorithm(state(), state().settings.algorithm, layout, detail::CallKind::once, true);
}

void CartComm::exchange(const Layout& layout) const {
  detail::CommState& s = state();
  const EphemeralTag tag(s.tags());
  require_cartesian_layout(layout, neighbor_count());
  const Algorithm algorithm = detail::resolve_algorithm(s, s.settings.algorithm, layout, detail::CallKind::once, true);
  const auto schedule = s.schedule(layout.collective, algorithm);
  detail::Execution execution(*schedule, layout, s.library()->get(), tag.get(), detail::Execution::Mode::once,
                              {&s.type_cache, true});
  execution.start();
  detail::ProgressEngine::instance().wait(execution);
  if (execution.error() != MPI_SUCCESS) throw Error(Errc::mpi, "a message of the collective failed", execution.error());
}

Request CartComm::iexchange(const Layout& layout) const {
  detail::CommState& s = state();
  EphemeralTag tag(s.tags());
  require_cartesian_layout(layout, neighbor_count());
  const Algorithm algorithm = detail::resolve_algorithm(s, s.settings.algorithm, layout, detail::CallKind::once, false);
  const auto schedule = s.schedule(layout.collective, algorithm);
  auto operation = std::make_unique<detail::Operation>(state_, comm_, *schedule, layout, tag.get(), false,
                                                       detail::Reuse{&s.type_cache, false});
  tag.hand_over();
  operation->start();
  return Request(std::move(operation));
}

namespace {

// Init calls are collective anyway and build datatypes, so one small allreduce buys what blocking
// calls cannot afford: an error on any process, or a disagreeing algorithm, reaches every process;
// and the request's tag is agreed there (see TagSpace).
int agree_on_init(detail::CommState& state, const std::optional<Error>& local_error, Algorithm algorithm) {
  detail::TagSpace& tags = state.tags();
  const MPI_Comm comm = state.library()->get();
  const int must_match[] = {algorithm.id()};
  const Error mismatch(Errc::not_isomorphic, "processes chose different algorithms");
  std::uint64_t in_use = detail::agree(comm, local_error, must_match, mismatch, tags.persistent_candidates_in_use());
  for (int windows = 1;; ++windows) {
    if (const int tag = tags.take_persistent(in_use); tag >= 0) return tag;
    // Every process sees the same marks, so all of them give up together.
    if (windows >= tags.persistent_windows())
      throw Error(Errc::intern, "more persistent requests alive on this communicator than it has tags for them");
    in_use = detail::agree(comm, std::nullopt, {}, mismatch, tags.persistent_candidates_in_use());
  }
}

}  // namespace

Request CartComm::exchange_init(const Layout& layout, const RequestOptions& options) const {
  return exchange_init([&] { return layout; }, options);
}

Request CartComm::exchange_init(const std::function<Layout()>& make_layout, const RequestOptions& options) const {
  detail::CommState& s = state();
  std::optional<Layout> layout;
  std::optional<Error> local_error;
  Algorithm algorithm = s.settings.algorithm;
  try {
    algorithm = detail::effective_algorithm(options.info, options.algorithm.value_or(s.settings.algorithm));
    layout = make_layout();
    require_cartesian_layout(*layout, neighbor_count());
  } catch (const Error& error) {
    local_error = error;
  }
  const int tag = agree_on_init(s, local_error, algorithm);
  try {
    algorithm = detail::resolve_algorithm(s, algorithm, *layout, detail::CallKind::persistent, true);
    const auto schedule = s.schedule(layout->collective, algorithm);
    return Request(std::make_unique<detail::Operation>(state_, comm_, *schedule, *layout, tag, true));
  } catch (...) {
    s.tags().release_persistent(tag);
    throw;
  }
}

}  // namespace cartcoll
