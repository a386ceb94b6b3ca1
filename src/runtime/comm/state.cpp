// SPDX-License-Identifier: BSD-3-Clause
#include "state.hpp"

#include <string>

#include "runtime/exec/mpi_check.hpp"
#include "cartcoll/error.hpp"
#include "keyval.hpp"
#include "operation.hpp"

namespace cartcoll::detail {

std::string_view name_of(DecidedBy decided_by) noexcept {
  switch (decided_by) {
    case DecidedBy::forced: return "forced";
    case DecidedBy::contract: return "contract";
    case DecidedBy::only_candidate: return "only-candidate";
    case DecidedBy::profile: return "profile";
    case DecidedBy::trial: return "trial";
    case DecidedBy::model: return "model";
  }
  return "unknown";
}

CommState::CommState(Neighborhood neighborhood_, Weights weights_, int rank_, Origin origin_, Settings settings_,
                     std::shared_ptr<LibraryComm> library)
    : neighborhood(std::move(neighborhood_)),
      weights(std::move(weights_)),
      rank(rank_),
      origin(origin_),
      settings(settings_),
      library_(std::move(library)),
      tags_(TagSpace::with_straight_tags(std::min(settings.max_tag, library_->tag_ub()))) {}

CommState::~CommState() = default;

std::unique_ptr<CommState> CommState::duplicate() const {
  auto copy = std::make_unique<CommState>(neighborhood, weights, rank, origin, settings,
                                          std::make_shared<LibraryComm>(library_->get()));
  copy->auto_choices = auto_choices;
  copy->schedules_ = schedules_;
  copy->figures_ = figures_;
  return copy;
}

const CartesianNeighborhood& CommState::cartesian() const {
  const CartesianNeighborhood* c = neighborhood.cartesian();
  if (c == nullptr) throw Error(Errc::topology, "the communicator's neighborhood is a graph, not Cartesian");
  return *c;
}

// Operations in flight hold their own references to the library communicator and to the datatypes
// they use; what is cached for later calls goes now.
void CommState::mark_freed() noexcept {
  last_blocking_call = RepeatedCall();
  last_nonblocking_call = RepeatedNonblocking();
  library_.reset();
  type_cache = TypeCache();
}

std::unique_ptr<ScheduledOperation> CommState::give_back(std::unique_ptr<ScheduledOperation> operation,
                                                         std::uint64_t generation) noexcept {
  RepeatedNonblocking& last = last_nonblocking_call;
  if (freed() || last.idle || last.generation != generation) return operation;
  last.idle = std::move(operation);
  return nullptr;
}

std::shared_ptr<const Schedule> CommState::schedule(Collective collective, Choice choice) {
  auto& cached = schedules_[{collective, choice.algorithm.id(), choice.sides.sends, choice.sides.receives,
                             choice.sizes_travel, choice.forward_up_to}];
  if (cached) return cached;
  Schedule planned = neighborhood.plan(choice.algorithm, collective, rank, choice.sides, choice.sizes_travel);
  planned.sizes_travel = choice.sizes_travel;
  planned.forward_up_to = choice.forward_up_to;
  cached = std::make_shared<const Schedule>(std::move(planned));
  return cached;
}

const Figures& CommState::figures(Collective collective, Algorithm algorithm) {
  auto [at, added] = figures_.try_emplace({collective, algorithm.id()});
  if (added) at->second = neighborhood.figures(algorithm, collective, rank);
  return at->second;
}

namespace {

using Holder = std::shared_ptr<CommState>;  // the attribute's value points to one

// MPI_Comm_dup: the duplicate gets its own library communicator, a duplicate of the original's
// (made here, inside the user's collective MPI_Comm_dup, so that no later call has to communicate
// to make it).
int copy_state(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  try {
    *static_cast<void**>(out) = new Holder((*static_cast<Holder*>(in))->duplicate());
    *flag = 1;
    return MPI_SUCCESS;
  } catch (const Error& error) {
    *flag = 0;
    return error.mpi_code() != MPI_SUCCESS ? error.mpi_code() : MPI_ERR_INTERN;
  } catch (...) {
    *flag = 0;
    return MPI_ERR_NO_MEM;
  }
}

// The communicator found last and its attribute's value, kept beside the key: a client's repeated
// call on one communicator (a ghost update) finds its state without asking MPI (MPI_Comm_get_attr
// costs about 140 instructions in Open MPI 4.1). The value goes before MPI frees it or lets the
// handle name another communicator (delete_state), so the pair never outlives either.
struct LastFound {
  MPI_Comm comm = MPI_COMM_NULL;
  Holder* holder = nullptr;
};
LastFound last_found;

int delete_state(MPI_Comm, int, void* value, void*) {
  auto* holder = static_cast<Holder*>(value);
  if (last_found.holder == holder) last_found = LastFound();
  (*holder)->mark_freed();
  delete holder;
  return MPI_SUCCESS;
}

// Process-wide: an MPI attribute key.
int state_keyval() {
  static const int keyval = create_keyval_freed_at_finalize(copy_state, delete_state);
  return keyval;
}

}  // namespace

std::shared_ptr<CommState> find_state(MPI_Comm comm) {
  if (comm == last_found.comm && comm != MPI_COMM_NULL) return *last_found.holder;
  void* value = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(comm, state_keyval(), &value, &found), "MPI_Comm_get_attr");
  if (!found) return nullptr;
  last_found = {comm, static_cast<Holder*>(value)};
  return *last_found.holder;
}

void attach_state(MPI_Comm comm, std::shared_ptr<CommState> state) {
  auto holder = std::make_unique<Holder>(std::move(state));
  check(MPI_Comm_set_attr(comm, state_keyval(), holder.get()), "MPI_Comm_set_attr");
  holder.release();  // owned by the attribute now; delete_state frees it
}

}  // namespace cartcoll::detail
