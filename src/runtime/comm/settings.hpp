// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What is fixed when a communicator gets its state: read from the environment and the info argument
// there, once, never per call.
#include <mpi.h>

#include <cstddef>
#include <istream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/planning/cost.hpp"
#include "core/planning/plan.hpp"
#include "collective.hpp"

namespace cartcoll::detail {

// Every registered planner's set-up parameters at their defaults (parameter_unset where none).
std::vector<std::vector<int>> default_setup_parameters();

// The default of CARTCOLL_STAGE_BYTES: 65536 with MPICH and 4096 with other MPIs (docs/performance.md,
// "Staged messages").
std::size_t default_stage_up_to() noexcept;

// What is fixed at creation, read from the environment and the info argument there.
struct Settings {
  Algorithm algorithm = Algorithm::automatic();  // agreed by all processes at creation
  std::optional<CostModel> profile;             // CARTCOLL_PROFILE: choose by this model, never measure
  bool machine_profile = true;                  // CARTCOLL_MACHINE_PROFILE: auto (true) or off; agreed
  std::optional<CostModel> machine;             // the machine profile, where wanted (policy.hpp)
  bool verbose_auto = false;                    // CARTCOLL_VERBOSE_AUTO
  int max_tag = std::numeric_limits<int>::max();  // CARTCOLL_MAX_TAG (agreed), else MPI_TAG_UB
  // CARTCOLL_ASSERT_UNIFORM_BLOCKS, else the info key cartcoll_assert_uniform_blocks ("true" or
  // "false"): the user asserts that every block of every call on the communicator, on every process,
  // has one type signature. Then forwarded blocks take the shape of the forwarder's own, as in
  // one-count calls, instead of carrying their sizes (Schedule::sizes_travel), and `auto` may route
  // (planners that need_uniform_blocks). Agreed.
  bool uniform_blocks = false;
  // The set-up parameters (SetupPlugin::parameters) of each registered planner, by Algorithm::id;
  // empty for a planner without a set-up. Agreed at graph creation.
  std::vector<std::vector<int>> setup_parameters = default_setup_parameters();
  // The nodes a graph's set-up keeps forwarding within, where the agreed planner needs nodes
  // (node-combining); 0 elsewhere.
  int graph_node_size = 0;
  // Multi-block messages up to this many bytes are staged (src/runtime/exec/staging.hpp): a local choice,
  // the same messages either way, so it needs no agreement.
  std::size_t stage_up_to = default_stage_up_to();
};

// The value of the info key `name`, if `info` has it.
std::optional<std::string> info_value(MPI_Info info, const char* name);
// Every registered planner's set-up parameters (SetupParameter: CARTCOLL_<NAME>, else the info key
// cartcoll_<name>, else the default); Error(Errc::info_value) for a value that is not an integer, is
// below its minimum or fails the plug-in's validation.
std::vector<std::vector<int>> setup_parameters(MPI_Info info);
// CARTCOLL_ASSERT_UNIFORM_BLOCKS, else cartcoll_assert_uniform_blocks; Error(Errc::info_value) for a
// value that is not "true" or "false".
bool uniform_blocks_setting(MPI_Info info);
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
// Every setting: the environment's (read_environment_settings), then the algorithm, the set-up
// parameters, the uniform-blocks assertion and the node size, each from the environment, else `info`.
void read_all_settings(Settings& settings, std::optional<int>& node_size, MPI_Info info, bool read_profile);
// The integers every process must hold alike, for agree(): the algorithm, the tag range,
// CARTCOLL_PROFILE's text (a digest), the set-up parameters, the assertion, the node size.
std::vector<int> settings_to_match(const Settings& settings, std::optional<int> node_size);
// After the agreement, collectively over `comm`: every process gets rank 0's profile and, where the
// policy wants it, the machine profile (rank 0's file, else measured now: policy.hpp).
void share_profile(MPI_Comm comm, Settings& settings);
// Three finite non-negative numbers and nothing else (latency, per message, per byte: the format of
// cartcoll-calibrate); else nullopt, with what is wrong in `wrong` if given.
std::optional<CostModel> cost_model_in(std::istream& in, std::string* wrong);

// The settings of a communicator MPI made, at the call that sets it up (collective over `comm`):
// every process parses its own (read_all_settings, rank 0 reading the profile) and one agreement
// carries the first bad value, so that every process throws the same class; values that differ
// between processes are Errc::arg everywhere.
Settings agreed_settings(MPI_Comm comm, MPI_Info info, std::optional<int>& node_size);

// The steps of agreed_settings, for a creation that agrees on more in the same allreduce:
// read_all_settings on this process (rank 0 of `comm` reading the profile), an error returned for the
// agreement, not thrown (the settings are then the defaults);
std::optional<Error> read_settings_to_agree(MPI_Comm comm, MPI_Info info, Settings& settings,
                                           std::optional<int>& node_size);
// the values every process must hold alike (settings_to_match, each failing with `mismatch`) and rank
// 0's profile and machine profile (where the policy wants one), put into `agreement`;
using ProfileSlots = std::size_t;
ProfileSlots put_settings(Agreement& agreement, MPI_Comm comm, const Settings& settings, std::optional<int> node_size,
                          const Error& mismatch);
// after it ran, rank 0's profiles in `settings`, the machine's measured now (collectively over
// `comm`) where the policy wants one and rank 0 kept none.
void take_profiles(MPI_Comm comm, const Agreement& agreement, ProfileSlots first, Settings& settings);
// Processes whose good settings differ: Errc::arg.
Error settings_mismatch();
// The same without communicating, for a call that must not (a nonblocking first call): a bad value
// throws on the processes that have it.
Settings local_settings(MPI_Info info);

}  // namespace cartcoll::detail
