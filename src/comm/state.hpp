#pragma once
// What a cartcoll communicator carries, as the value of an MPI attribute.
#include <mpi.h>

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

namespace cartcoll::detail {

// Blocking and nonblocking calls run a schedule once; persistent requests start it many times.
enum class CallKind { once, persistent };

// What `auto` has learned on this communicator.
struct AutoChoices {
  bool profile_read = false;
  std::optional<CostModel> profile;     // from CARTCOLL_PROFILE: choose by the model, never measure
  std::optional<CostModel> calibrated;  // for calls too large to measure
  std::map<std::tuple<Collective, int, CallKind>, Algorithm> measured;  // by family, size class, kind
};

struct NeighborhoodState {
  Grid grid;
  Offsets offsets;
  std::optional<std::vector<int>> weights;
  Algorithm algorithm;
  int rank = 0;
  std::vector<int> coords;
  int tag_ub = 32767;

  NeighborhoodState(Grid grid, Offsets offsets, std::optional<std::vector<int>> weights, Algorithm algorithm,
                    int rank);
  // A copy for MPI_Comm_dup: same neighborhood, its own library communicator (made on first use).
  NeighborhoodState(const NeighborhoodState& other);
  NeighborhoodState& operator=(const NeighborhoodState&) = delete;
  ~NeighborhoodState();

  // The library's private duplicate of `user_comm`: its messages never match the user's.
  MPI_Comm library_comm(MPI_Comm user_comm);
  // Each collective call gets its own tag, so outstanding requests on one communicator never
  // match each other's messages. Calls happen in the same order everywhere (MPI's collective rule).
  int next_tag();
  // Schedules depend on the neighborhood, not on buffers, so blocking calls reuse them.
  std::shared_ptr<const Schedule> schedule(Collective collective, Algorithm algorithm);
  // The neighborhood's figures per algorithm, for `auto` (see cost.hpp).
  const Figures& figures(Collective collective, Algorithm algorithm);

  AutoChoices auto_choices;
  // Struct datatypes shared by calls, and the temp buffer shared by blocking calls (a duplicate
  // communicator starts with its own, empty).
  TypeCache type_cache;

 private:
  MPI_Comm library_comm_ = MPI_COMM_NULL;
  unsigned long long next_sequence_ = 0;
  std::map<std::pair<Collective, Algorithm>, std::shared_ptr<const Schedule>> schedules_;
  std::map<std::pair<Collective, Algorithm>, Figures> figures_;
};

// The state attached to comm, or nullptr if comm carries none.
NeighborhoodState* find_state(MPI_Comm comm);
void attach_state(MPI_Comm comm, std::unique_ptr<NeighborhoodState> state);

// The algorithm CARTCOLL_ALGORITHM names, if set (Error(Errc::info_value) for an unknown name).
std::optional<Algorithm> algorithm_from_environment();
// The algorithm the cartcoll_algorithm info key names, if set.
std::optional<Algorithm> algorithm_from_info(MPI_Info info);

}  // namespace cartcoll::detail
