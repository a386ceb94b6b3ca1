// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What is fixed when a communicator gets its state: read from the environment and the info argument
// there, once, never per call.
#include <mpi.h>

#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include "core/planning/cost.hpp"
#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/planning/plan.hpp"

namespace cartcoll::detail {

// The default of CARTCOLL_STAGE_BYTES: 65536 with MPICH and 4096 with other MPIs (docs/performance.md,
// "Staged messages").
std::size_t default_stage_up_to() noexcept;

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
  // Multi-block messages up to this many bytes are staged (src/runtime/exec/staging.hpp): a local choice,
  // the same messages either way, so it needs no agreement.
  std::size_t stage_up_to = default_stage_up_to();
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
// The settings only the environment gives, read by this process without communicating: CARTCOLL_MAX_TAG
// (an integer of at least 127, else Error(Errc::arg); above MPI_TAG_UB the communicator uses
// MPI_TAG_UB), CARTCOLL_STAGE_BYTES (a non-negative integer, else Errc::arg), CARTCOLL_VERBOSE_AUTO,
// CARTCOLL_PROGRESS's error once per process (ProgressEngine::setting_error_once), and, where
// `read_profile`, the cost model in the file CARTCOLL_PROFILE names (three finite non-negative numbers,
// else Errc::arg: a missing or unreadable file too).
void read_environment_settings(Settings& settings, bool read_profile);
// Every setting: the environment's (read_environment_settings), then the algorithm, graph-combining's
// and graph-routing's parameters and the node size, each from the environment, else `info`.
void read_all_settings(Settings& settings, std::optional<int>& node_size, MPI_Info info, bool read_profile);
// The integers every process must hold alike, for agree(): the algorithm, the tag range,
// CARTCOLL_PROFILE's text (a digest), graph-combining's and graph-routing's parameters, the node size.
std::vector<int> settings_to_match(const Settings& settings, std::optional<int> node_size);
// After the agreement, collectively over `comm`: every process gets rank 0's profile.
void share_profile(MPI_Comm comm, Settings& settings);

// The settings of a communicator MPI made, at the call that sets it up (collective over `comm`):
// every process parses its own (read_all_settings, rank 0 reading the profile) and one agreement
// carries the first bad value, so that every process throws the same class; values that differ
// between processes are Errc::arg everywhere.
Settings agreed_settings(MPI_Comm comm, MPI_Info info, std::optional<int>& node_size);
// The same without communicating, for a call that must not (a nonblocking first call): a bad value
// throws on the processes that have it.
Settings local_settings(MPI_Info info);

}  // namespace cartcoll::detail
