#pragma once
// What is fixed when a communicator gets its state: read from the environment and the info argument
// there, once, never per call.
#include <mpi.h>

#include <cstddef>
#include <limits>
#include <optional>

#include "cartcoll/cost.hpp"
#include "cartcoll/graph_combining.hpp"
#include "cartcoll/plan.hpp"

namespace cartcoll::detail {

// CARTCOLL_STAGE_BYTES, else 65536 with MPICH and 4096 with other MPIs (docs/performance.md,
// "Staged messages"); Error(Errc::arg) for a value that is not a non-negative integer.
std::size_t stage_up_to_from_environment();

// The graph settings of docs/graph-routing.md; agreed at graph creation.
struct RoutingSettings {
  // CARTCOLL_ASSERT_UNIFORM_BLOCKS, else the info key cartcoll_assert_uniform_blocks ("true" or
  // "false"): the user asserts that every block of every call on the communicator, on every process,
  // has one type signature. Then a process can hold blocks of processes it has no edge with
  // (graph-routing), and v and w calls may forward blocks as one-count calls do.
  bool uniform_blocks = false;
  // CARTCOLL_ROUTING_DIMS, else cartcoll_routing_dims: graph-routing's grid dimensions (0:
  // default_routing_dims).
  int dims = 0;
  friend bool operator==(const RoutingSettings&, const RoutingSettings&) = default;
};

// What is fixed at creation, read from the environment and the info argument there.
struct Settings {
  Algorithm algorithm = Algorithm::automatic();  // agreed by all processes at creation
  std::optional<CostModel> profile;             // CARTCOLL_PROFILE: choose by this model, never measure
  bool verbose_auto = false;                    // CARTCOLL_VERBOSE_AUTO
  int max_tag = std::numeric_limits<int>::max();  // CARTCOLL_MAX_TAG (agreed), else MPI_TAG_UB
  CombiningParameters combining;                  // graph-combining's set-up (agreed at graph creation)
  // No phase budget given (CARTCOLL_COMBINING_PHASES, cartcoll_combining_phases): `auto` chooses it
  // at graph creation (docs/graph-combining.md, "Choosing the phase budget"). Agreed.
  bool choose_phase_budget = false;
  RoutingSettings routing;  // agreed at graph creation
  // Multi-block messages up to this many bytes are staged (src/exec/staging.hpp): a local choice,
  // the same messages either way, so it needs no agreement.
  std::size_t stage_up_to = stage_up_to_from_environment();
};

// The algorithm CARTCOLL_ALGORITHM names, if set (Error(Errc::info_value) for an unknown name).
std::optional<Algorithm> algorithm_from_environment();
// The algorithm the cartcoll_algorithm info key names, if set.
std::optional<Algorithm> algorithm_from_info(MPI_Info info);
// CARTCOLL_ALGORITHM, else the info key, else `fallback`.
Algorithm effective_algorithm(MPI_Info info, Algorithm fallback);
// graph-combining's threshold and steps: CARTCOLL_COMBINING_THRESHOLD and CARTCOLL_COMBINING_STEPS,
// else the info keys cartcoll_combining_threshold and cartcoll_combining_steps, else the defaults;
// Error(Errc::info_value) for a value that is not an integer or out of range (validate()).
CombiningParameters combining_parameters(MPI_Info info);
// Whether CARTCOLL_COMBINING_PHASES or the info key cartcoll_combining_phases is set.
bool phase_budget_given(MPI_Info info);
// RoutingSettings from the environment, else the info keys; Error(Errc::info_value) for a value that
// is not "true" or "false", or not an integer of at least 0; and where `algorithm` is graph-routing
// (a planner that needs_routing) without the assertion, which it cannot run without.
RoutingSettings routing_settings(MPI_Info info, Algorithm algorithm);
// node-combining's node size: CARTCOLL_NODE_SIZE, else the info key cartcoll_node_size; nullopt
// where neither is set (the node is then what MPI_COMM_TYPE_SHARED says). Error(Errc::info_value)
// for a value that is not an integer of at least 1.
std::optional<int> node_size_setting(MPI_Info info);
// CARTCOLL_MAX_TAG, else the largest int (Error(Errc::arg) for a value that is not a number).
int max_tag_from_environment();

// The settings of a communicator being created, collectively over `comm`: CARTCOLL_PROFILE is read
// by rank 0 and broadcast, so every process has the same model; `algorithm` and `max_tag` must have
// been agreed.
Settings settings_at_creation(MPI_Comm comm, Algorithm algorithm, int max_tag);
// The settings of a communicator MPI made, read by this process alone (no communication): every
// process must have the same environment.
Settings settings_of_environment();

}  // namespace cartcoll::detail
