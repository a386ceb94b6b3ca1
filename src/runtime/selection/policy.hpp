// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// `auto` as one policy: the one place that reads which algorithm the user asked for, decides among
// the registered planners and names one; the rest of the runtime asks it. One pipeline for both kinds
// of neighborhood — candidates, their figures, the cost model, a trial where a call may measure, and
// a decision every process holds alike (Choice, with what decided it; on a graph, ForwardingVerdict).
//
// At creation (at_creation.cpp), on a distributed graph: the set-ups of the planners that have one
// (PlannerEntry::setup) run, forced or as `auto`'s candidates, and under `auto` the cost model picks
// the candidate and agrees, for each collective, the largest block it forwards.
//
// Per call (per_call.cpp), `auto` is resolved from values that are the same on every process (the
// bytes of the call's blocks, equal everywhere by the Cartesian contract; what earlier collective
// calls measured) or agreed at a collective point, so all processes run the same schedule:
// - a size class already measured on this communicator (for this collective and call kind) is reused;
// - else a call that may communicate (blocking calls, *_init) measures the candidates on scratch
//   buffers (trial.hpp) and keeps the winner for the class, or, where the scratch buffers would be too
//   large, asks the cost model (calibrating it on the communicator if there is no machine profile);
// - else (a nonblocking call, which never communicates before it returns) the cost model decides:
//   one calibrated here, else the machine profile, else the default model.
// On a graph where a set-up ran, a limit on the block size takes the place of the size class
// (graph_choice in per_call.cpp). With CARTCOLL_PROFILE set at creation, the profile's model decides
// and nothing is measured.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "cartcoll/layout.hpp"
#include "core/planning/cost.hpp"
#include "runtime/comm/cartesian_detection.hpp"
#include "runtime/comm/library_comm.hpp"
#include "runtime/comm/neighborhood.hpp"
#include "runtime/comm/settings.hpp"
#include "runtime/comm/state.hpp"

namespace cartcoll::detail {

// --- What the user asked for (policy.cpp) ---

// The algorithm CARTCOLL_ALGORITHM names, if set (Error(Errc::info_value) for an unknown name).
std::optional<Algorithm> algorithm_from_environment();
// The algorithm the cartcoll_algorithm info key names, if set.
std::optional<Algorithm> algorithm_from_info(MPI_Info info);
// CARTCOLL_ALGORITHM, else the info key, else `fallback`.
Algorithm effective_algorithm(MPI_Info info, Algorithm fallback);

// What a request allows where a communicator is made:
// whether it may run a planner that needs nodes (`auto`, or such a planner forced): then the nodes are found;
bool may_use_nodes(Algorithm requested);
// whether it forces a planner that needs nodes (on a graph, its set-up keeps forwarding within them);
bool forces_nodes(Algorithm requested);
// whether it may run on a neighborhood of `kind` (`auto`, or a planner that serves it).
bool may_run_on(Algorithm requested, NeighborhoodKind kind);

// --- At creation (at_creation.cpp) ---

// What a distributed-graph communicator just made runs on (at CC_Dist_graph_create(_adjacent), and
// through libcartcoll_mpi at MPI_Dist_graph_create(_adjacent)): the Cartesian neighborhood detection
// finds (cartesian_detection.hpp), else the graph with the set-ups the agreed algorithm needs or
// `auto` may gain from, and `auto`'s agreed verdict. Collective over `graph`, made from `parent`
// (this process is `rank` in `graph`, with `neighbors`); `settings` must be equal on every process.
Neighborhood at_creation(MPI_Comm parent, MPI_Comm graph, int rank, GraphNeighborhood neighbors,
                         const Settings& settings);

// at_creation in steps, so that its first allreduce may carry other values (through libcartcoll_mpi,
// MPI_Dist_graph_create(_adjacent) agrees on the settings in it too): the constructor looks at this
// process's side without communicating (`local`: its settings before they are agreed); put() adds
// the detection's first step and every set-up's contributions (whichever run: one layout everywhere)
// to an agreement; after the agreement ran, finish() does the rest with the agreed settings, the
// set-ups' messages over `library` where given (the communicator's own: no duplicate of `graph`).
class CreationSteps {
 public:
  CreationSteps(MPI_Comm parent, MPI_Comm graph, int rank, const GraphNeighborhood& neighbors, const Settings& local);
  void put(Agreement& agreement);
  Neighborhood finish(MPI_Comm graph, const Agreement& agreed, GraphNeighborhood neighbors, const Settings& settings,
                      LibraryComm* library = nullptr);

 private:
  CartesianDetection detection_;
  int rank_;
  std::vector<std::vector<long long>> contributions_;  // per planner of planners(); empty where it has no set-up
  std::vector<std::size_t> totals_;                    // their first slots in the agreement
};

// --- Per call (per_call.cpp, policy.cpp) ---

// What a call may do to choose: nothing but local work (a nonblocking call); communicate, at a
// collective point whose block sizes are already compared (init) or free to differ (MPI's
// contract); or communicate after comparing them (a blocking call under Träff and Hunold's
// (Cartesian Collective Communication) contract, whose processes pass the same sizes: sizes that
// differ would have the processes measure different things, or only some of them measure, and hang;
// one allreduce makes them Errc::count everywhere).
enum class ChoicePoint : std::uint8_t { local, collective, collective_comparing_sizes };

// `requested` (the communicator's algorithm, or a request's own) as a call under `contract` may run
// it (requested_for_call), else `auto` resolved as above; with what decided.
Choice per_call(CommState& state, Algorithm requested, const Layout& layout, Contract contract, CallKind kind,
                ChoicePoint point);

// What a call under `contract` may run of `requested`: the direct exchange where processes may size
// the blocks a forwarding planner would pass on differently and its schedules cannot carry the sizes
// (PlannerEntry::sizes_may_travel), else `requested`.
Algorithm requested_for_call(const CommState& state, const Layout& layout, Contract contract, Algorithm requested);
// Whether a call running `algorithm` lets its forwarded blocks carry their sizes (Choice::sizes_travel).
bool sizes_travel(const CommState& state, const Layout& layout, Contract contract, Algorithm algorithm);
// Whether processes may size the blocks a planner forwards differently from what the forwarders'
// own arguments say (a v or w call under MPI's contract, ...), so that their sizes must travel.
bool forwarded_sizes_may_differ(const CommState& state, const Layout& layout, Contract contract, Algorithm algorithm);

// The registered planners `auto` chooses among per call for `collective` on `neighborhood`: those
// that serve its kind, less those that need nodes unless there are several of several processes.
std::vector<Algorithm> candidates_for_auto(Collective collective, const Neighborhood& neighborhood);

// The direct exchange: one message per edge, what a call runs where nothing may forward.
Algorithm direct_exchange();

// --- Send blocks that share bytes (the unified-interfaces paper's alltoallw, section 3.5) ---

// The planner of parts (PlannerEntry::plans_shared_sends) where a persistent call may run it: an
// alltoallv or alltoallw (whose blocks may overlap) on a Cartesian neighborhood, `requested` being
// `auto` or that planner. The same on every process of an agreed init.
std::optional<Algorithm> shared_sends_planner(const CommState& state, Algorithm requested, const Layout& layout);
// The price of `schedule` with `layout`'s blocks, this process's part of the call, by the model
// `auto` decides by without measuring (CARTCOLL_PROFILE's, else a calibrated one, else the machine
// profile, else the default).
double modelled_seconds(const CommState& state, const Schedule& schedule, const Layout& layout);
// Whether `auto` measures the parts' schedule against the plain choice (at the init, a collective
// point), as it measures its candidates: where no CARTCOLL_PROFILE says it never measures.
bool measures_shared_sends(const CommState& state, Algorithm requested);
// What a call whose processes agreed that their send blocks share bytes runs: the parts where the
// planner is forced; under `auto` where they were measured faster than the plain choice, or, not
// measured (`measured_faster` nullopt), where the model prices them (on the busiest process) below
// it; nullopt: the plain choice.
std::optional<Choice> shared_sends_choice(const CommState& state, Algorithm planner, Algorithm requested,
                                          double plain_seconds, double shared_seconds,
                                          std::optional<bool> measured_faster);

// --- The cost models (per_call.cpp, machine_profile.cpp) ---

// A short collective measurement of latency, per-message overhead and per-byte time on comm,
// identical on every process (the maximum over processes).
CostModel calibrate(MPI_Comm comm, TagSpace& tags);

// The machine profile (CARTCOLL_MACHINE_PROFILE, docs/configuration.md, rule 75): this machine's
// cost model under this MPI, measured once (calibrate) on the first communicator of several
// processes that wants it, and kept in the cache directory (CARTCOLL_CACHE_DIR, else
// $XDG_CACHE_HOME/cartcoll, else ~/.cache/cartcoll), one file per host and MPI library. Wanted where
// the algorithm is `auto`, no CARTCOLL_PROFILE is set, the machine profile is not switched off and
// the communicator has several processes (all agreed values).
bool wants_machine_profile(const Settings& settings, int processes);
// CARTCOLL_MACHINE_PROFILE: unset, empty or "auto": true; "off": false; else Error(Errc::arg).
bool machine_profile_from_environment();
// Rank 0's reading of the file (else what this process last read or measured), this process only;
// nullopt where there is neither.
std::optional<CostModel> cached_machine_profile();
// Collective over `comm`: calibrates, and rank 0 keeps the result in the file.
CostModel measure_machine_profile(MPI_Comm comm);

}  // namespace cartcoll::detail
