#pragma once
// What a cartcoll communicator carries, as the value of an MPI attribute.
#include <mpi.h>

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "../exec/type_cache.hpp"
#include "cartcoll/cost.hpp"
#include "cartcoll/plan.hpp"
#include "cartcoll/topology.hpp"
#include "library_comm.hpp"

namespace cartcoll::detail {

// Blocking and nonblocking calls run a schedule once; persistent requests start it many times.
enum class CallKind { once, persistent };

// What `auto` has learned on this communicator. Every entry is made at a collective point from
// values all processes share (see selection.hpp), so it is the same on every process.
struct AutoChoices {
  std::optional<CostModel> calibrated;  // for calls that may not or cannot measure
  std::map<std::tuple<Collective, int, CallKind>, Algorithm> measured;  // by family, size class, kind
};

// What is fixed at creation, read from the environment and the info argument there.
struct Settings {
  Algorithm algorithm = Algorithm::automatic();  // agreed by all processes at creation
  std::optional<CostModel> profile;             // CARTCOLL_PROFILE: choose by this model, never measure
  bool verbose_auto = false;                    // CARTCOLL_VERBOSE_AUTO
  int max_tag = std::numeric_limits<int>::max();  // CARTCOLL_MAX_TAG (agreed), else MPI_TAG_UB
};

class CommState {
 public:
  CommState(Grid grid, Offsets offsets, std::optional<std::vector<int>> weights, int rank, Settings settings,
            std::shared_ptr<LibraryComm> library);
  // The state of a duplicate (MPI_Comm_dup): the same neighborhood and what `auto` learned, its own
  // library communicator (a duplicate of this one's) and tags.
  std::unique_ptr<CommState> duplicate() const;

  const Grid grid;
  const Offsets offsets;
  const std::optional<std::vector<int>> weights;
  const int rank;
  const std::vector<int> coords;
  const Settings settings;

  CartesianView view() const { return {grid, offsets, coords}; }
  Degrees degrees() const { return {offsets.count(), offsets.count()}; }
  const std::shared_ptr<LibraryComm>& library() const noexcept { return library_; }
  TagSpace& tags() noexcept { return tags_; }

  // Schedules depend on the neighborhood, not on buffers, so calls reuse them.
  std::shared_ptr<const Schedule> schedule(Collective collective, Algorithm algorithm);
  // The neighborhood's figures per algorithm, for `auto`'s cost model (see cost.hpp).
  const Figures& figures(Collective collective, Algorithm algorithm);

  AutoChoices auto_choices;
  // Struct datatypes shared by calls, and the temp blocks shared by blocking calls.
  TypeCache type_cache;

  // When the user's communicator is freed: views that outlive it notice (freed()), and the library
  // communicator goes as soon as no operation holds it any more.
  void mark_freed() noexcept;
  bool freed() const noexcept { return library_ == nullptr; }

 private:
  std::shared_ptr<LibraryComm> library_;
  TagSpace tags_;
  std::map<std::pair<Collective, int>, std::shared_ptr<const Schedule>> schedules_;
  std::map<std::pair<Collective, int>, Figures> figures_;
};

// The state attached to comm, or nullptr if comm carries none.
std::shared_ptr<CommState> find_state(MPI_Comm comm);
void attach_state(MPI_Comm comm, std::shared_ptr<CommState> state);

// The algorithm CARTCOLL_ALGORITHM names, if set (Error(Errc::info_value) for an unknown name).
std::optional<Algorithm> algorithm_from_environment();
// The algorithm the cartcoll_algorithm info key names, if set.
std::optional<Algorithm> algorithm_from_info(MPI_Info info);
// CARTCOLL_ALGORITHM, else the info key, else `fallback`.
Algorithm effective_algorithm(MPI_Info info, Algorithm fallback);

}  // namespace cartcoll::detail
