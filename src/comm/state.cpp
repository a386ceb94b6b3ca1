#include "state.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

#include "../exec/mpi_check.hpp"
#include "cartcoll/error.hpp"

namespace cartcoll::detail {

CommState::CommState(Grid grid_, Offsets offsets_, std::optional<std::vector<int>> weights_, int rank_,
                     Settings settings_, std::shared_ptr<LibraryComm> library)
    : grid(std::move(grid_)),
      offsets(std::move(offsets_)),
      weights(std::move(weights_)),
      rank(rank_),
      coords(grid.coords_of(rank_)),
      settings(settings_),
      library_(std::move(library)),
      tags_(std::min(settings.max_tag, library_->tag_ub())) {}

std::unique_ptr<CommState> CommState::duplicate() const {
  auto copy = std::make_unique<CommState>(grid, offsets, weights, rank, settings,
                                          std::make_shared<LibraryComm>(library_->get()));
  copy->auto_choices = auto_choices;
  copy->schedules_ = schedules_;
  copy->figures_ = figures_;
  return copy;
}

// Operations in flight hold their own references to the library communicator and to the datatypes
// they use; what is cached for later calls goes now.
void CommState::mark_freed() noexcept {
  library_.reset();
  type_cache = TypeCache();
}

std::shared_ptr<const Schedule> CommState::schedule(Collective collective, Algorithm algorithm) {
  auto& cached = schedules_[{collective, algorithm.id()}];
  if (!cached) cached = std::make_shared<const Schedule>(plan(algorithm, view(), collective));
  return cached;
}

const Figures& CommState::figures(Collective collective, Algorithm algorithm) {
  auto [at, added] = figures_.try_emplace({collective, algorithm.id()});
  if (added) at->second = neighborhood_figures(algorithm, offsets, collective);
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

int delete_state(MPI_Comm, int, void* value, void*) {
  auto* holder = static_cast<Holder*>(value);
  (*holder)->mark_freed();
  delete holder;
  return MPI_SUCCESS;
}

// Frees the state keyval when MPI_COMM_SELF goes at MPI_Finalize.
int free_keyvals(MPI_Comm, int own_keyval, void*, void* extra_state) {
  int state_keyval = static_cast<int>(reinterpret_cast<std::intptr_t>(extra_state));
  MPI_Comm_free_keyval(&state_keyval);
  MPI_Comm_free_keyval(&own_keyval);
  return MPI_SUCCESS;
}

int make_state_keyval() {
  int keyval = MPI_KEYVAL_INVALID, cleanup = MPI_KEYVAL_INVALID;
  check(MPI_Comm_create_keyval(copy_state, delete_state, &keyval, nullptr), "MPI_Comm_create_keyval");
  check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_keyvals, &cleanup,
                               reinterpret_cast<void*>(static_cast<std::intptr_t>(keyval))),
        "MPI_Comm_create_keyval");
  check(MPI_Comm_set_attr(MPI_COMM_SELF, cleanup, nullptr), "MPI_Comm_set_attr");
  return keyval;
}

// Process-wide: an MPI attribute key.
int state_keyval() {
  static const int keyval = make_state_keyval();
  return keyval;
}

}  // namespace

std::shared_ptr<CommState> find_state(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(comm, state_keyval(), &value, &found), "MPI_Comm_get_attr");
  return found ? *static_cast<Holder*>(value) : nullptr;
}

void attach_state(MPI_Comm comm, std::shared_ptr<CommState> state) {
  auto holder = std::make_unique<Holder>(std::move(state));
  check(MPI_Comm_set_attr(comm, state_keyval(), holder.get()), "MPI_Comm_set_attr");
  holder.release();  // owned by the attribute now; delete_state frees it
}

namespace {

Algorithm parse_or_throw(const std::string& name, const char* source) {
  auto algorithm = Algorithm::parse(name);
  if (!algorithm) throw Error(Errc::info_value, std::string(source) + ": unknown algorithm '" + name + "'");
  return *algorithm;
}

}  // namespace

std::optional<Algorithm> algorithm_from_environment() {
  const char* name = std::getenv("CARTCOLL_ALGORITHM");
  if (name == nullptr || *name == '\0') return std::nullopt;
  return parse_or_throw(name, "CARTCOLL_ALGORITHM");
}

std::optional<Algorithm> algorithm_from_info(MPI_Info info) {
  if (info == MPI_INFO_NULL) return std::nullopt;
  char key[] = "cartcoll_algorithm";
  int length = 0, found = 0;
  check(MPI_Info_get_valuelen(info, key, &length, &found), "MPI_Info_get_valuelen");
  if (!found) return std::nullopt;
  std::string value(static_cast<std::size_t>(length) + 1, '\0');
  check(MPI_Info_get(info, key, length + 1, value.data(), &found), "MPI_Info_get");
  value.resize(static_cast<std::size_t>(length));
  return parse_or_throw(value, "info key cartcoll_algorithm");
}

Algorithm effective_algorithm(MPI_Info info, Algorithm fallback) {
  if (auto chosen = algorithm_from_environment()) return *chosen;
  if (auto chosen = algorithm_from_info(info)) return *chosen;
  return fallback;
}

}  // namespace cartcoll::detail
