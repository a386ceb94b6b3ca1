#include "state.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

#include "../exec/mpi_check.hpp"
#include "cartcoll/error.hpp"

namespace cartcoll::detail {

NeighborhoodState::NeighborhoodState(Grid grid_, Offsets offsets_, std::optional<std::vector<int>> weights_,
                                     Algorithm algorithm_, int rank_)
    : grid(std::move(grid_)),
      offsets(std::move(offsets_)),
      weights(std::move(weights_)),
      algorithm(algorithm_),
      rank(rank_),
      coords(grid.coords_of(rank_)) {}

NeighborhoodState::NeighborhoodState(const NeighborhoodState& other)
    : grid(other.grid),
      offsets(other.offsets),
      weights(other.weights),
      algorithm(other.algorithm),
      rank(other.rank),
      coords(other.coords),
      tag_ub(other.tag_ub),
      auto_choices(other.auto_choices),
      schedules_(other.schedules_),
      figures_(other.figures_) {}

NeighborhoodState::~NeighborhoodState() {
  if (library_comm_ != MPI_COMM_NULL) MPI_Comm_free(&library_comm_);
}

MPI_Comm NeighborhoodState::library_comm(MPI_Comm user_comm) {
  if (library_comm_ == MPI_COMM_NULL) {
    check(MPI_Comm_dup(user_comm, &library_comm_), "MPI_Comm_dup");
    check(MPI_Comm_set_errhandler(library_comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    void* value = nullptr;
    int found = 0;
    check(MPI_Comm_get_attr(library_comm_, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr");
    if (found) tag_ub = *static_cast<int*>(value);
  }
  return library_comm_;
}

int NeighborhoodState::next_tag() {
  return static_cast<int>(next_sequence_++ % (static_cast<unsigned long long>(tag_ub) + 1));
}

std::shared_ptr<const Schedule> NeighborhoodState::schedule(Collective collective, Algorithm algorithm_) {
  auto& cached = schedules_[{collective, algorithm_}];
  if (!cached) cached = std::make_shared<const Schedule>(plan(algorithm_, grid, offsets, collective, coords));
  return cached;
}

const Figures& NeighborhoodState::figures(Collective collective, Algorithm algorithm_) {
  auto [at, added] = figures_.try_emplace({collective, algorithm_});
  if (added) at->second = neighborhood_figures(algorithm_, offsets, collective);
  return at->second;
}

namespace {

int copy_state(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  try {
    *static_cast<void**>(out) = new NeighborhoodState(*static_cast<NeighborhoodState*>(in));
    *flag = 1;
    return MPI_SUCCESS;
  } catch (...) {
    *flag = 0;
    return MPI_ERR_NO_MEM;
  }
}

int delete_state(MPI_Comm, int, void* value, void*) {
  delete static_cast<NeighborhoodState*>(value);
  return MPI_SUCCESS;
}

// Frees the neighborhood keyval when MPI_COMM_SELF goes at MPI_Finalize.
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

// The one piece of process-wide state: an MPI attribute key.
int state_keyval() {
  static const int keyval = make_state_keyval();
  return keyval;
}

}  // namespace

NeighborhoodState* find_state(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(comm, state_keyval(), &value, &found), "MPI_Comm_get_attr");
  return found ? static_cast<NeighborhoodState*>(value) : nullptr;
}

void attach_state(MPI_Comm comm, std::unique_ptr<NeighborhoodState> state) {
  check(MPI_Comm_set_attr(comm, state_keyval(), state.get()), "MPI_Comm_set_attr");
  state.release();  // owned by the attribute now; delete_state frees it
}

namespace {

Algorithm parse_or_throw(const std::string& name, const char* source) {
  auto algorithm = parse_algorithm(name);
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

}  // namespace cartcoll::detail
