// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What a cartcoll communicator carries, as the value of an MPI attribute.
#include <mpi.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "runtime/exec/mpi_executor.hpp"
#include "runtime/exec/type_cache.hpp"
#include "core/planning/cost.hpp"
#include "core/planning/plan.hpp"
#include "cartcoll/topology.hpp"
#include "library_comm.hpp"
#include "settings.hpp"
#include "neighborhood.hpp"
#include "runtime/exec/argument_print.hpp"

namespace cartcoll::detail {

// Blocking and nonblocking calls run a schedule once; persistent requests start it many times.
enum class CallKind { once, persistent };

// What `auto` has learned on this communicator. Every entry is made at a collective point from
// values all processes share (see policy.hpp), so it is the same on every process.
struct AutoChoices {
  std::optional<CostModel> calibrated;  // for calls that may not or cannot measure
  std::map<std::tuple<Collective, int, CallKind>, Algorithm> measured;  // by family, size class, kind
  // On a graph where a set-up ran under `auto`: the largest block the verdict's planner forwards
  // (-1: none), by family, kind and whether the blocks' sizes travel, measured at the first call
  // that may communicate.
  std::map<std::tuple<Collective, CallKind, bool>, long long> combine_up_to;
};

// What decided a call's algorithm (CARTCOLL_REPORT's decided_by): the user's request; MPI's contract,
// under which a forwarding planner could meet blocks sized differently (the direct exchange); the one
// candidate there is; the model of CARTCOLL_PROFILE; a measurement (a trial, now or earlier, of this
// size class, or of a graph's forwarding limit); the cost model (the default, or one calibrated here;
// on a graph, the limit agreed at creation).
enum class DecidedBy : std::uint8_t { forced, contract, only_candidate, profile, trial, model };
std::string_view name_of(DecidedBy decided_by) noexcept;

// What a call runs: a registered algorithm and, for a planner whose set-up has restricted results,
// the sides of its exchange this process forwards (`auto` may leave one out; docs/graph-combining.md).
// `sizes_travel`: its schedule lets forwarded blocks carry their sizes (Schedule::sizes_travel), under
// `auto`'s size gate where `forward_up_to` is set (Schedule::forward_up_to).
struct Choice {
  Algorithm algorithm;
  CombinedSides sides = {};
  DecidedBy decided_by = DecidedBy::forced;
  bool sizes_travel = false;
  std::optional<long long> forward_up_to = {};
};

// What a call's layout is checked against before anything is sent:
// - cartesian: Träff and Hunold's (Cartesian Collective Communication) contract on a communicator
//   made by Cart_neighborhood_create: t blocks each side and, every process using the same block
//   sizes, send block i and receive block i of equal bytes;
// - mpi: MPI 4.1's, one receive block per source and one send block per destination (one for
//   allgather); sizes are the processes' own business, matched per edge.
enum class Contract { cartesian, mpi };

// Who made the communicator: the library (Cart_neighborhood_create, CC_Dist_graph_create*), or MPI
// (MPI_Dist_graph_create*, MPI_Cart_create), the library attaching its state at the first collective.
enum class Origin { cartesian_create, graph_create, mpi_topology };

class ScheduledOperation;

class CommState {
 public:
  CommState(Neighborhood neighborhood, Weights weights, int rank, Origin origin, Settings settings,
            std::shared_ptr<LibraryComm> library);
  ~CommState();
  // The state of a duplicate (MPI_Comm_dup): the same neighborhood and what `auto` learned, its own
  // library communicator (a duplicate of this one's) and tags.
  std::unique_ptr<CommState> duplicate() const;

  const Neighborhood neighborhood;
  const Weights weights;
  const int rank;
  const Origin origin;
  const Settings settings;

  Degrees degrees() const { return neighborhood.degrees(); }
  // The Cartesian neighborhood; Error(Errc::topology) on a graph.
  const CartesianNeighborhood& cartesian() const;
  const std::shared_ptr<LibraryComm>& library() const noexcept { return library_; }
  TagSpace& tags() noexcept { return tags_; }

  // Schedules depend on the neighborhood, not on buffers, so calls reuse them.
  std::shared_ptr<const Schedule> schedule(Collective collective, Choice choice);
  // The neighborhood's figures per algorithm, for `auto`'s cost model (see cost.hpp).
  const Figures& figures(Collective collective, Algorithm algorithm);

  AutoChoices auto_choices;
  // Struct datatypes shared by calls, and the temp blocks shared by blocking calls.
  TypeCache type_cache;
  // What an execution of a call on this communicator takes from type_cache (the temp blocks only
  // where `shared_temps`: a blocking call), and the staging limit of its settings. A persistent
  // request takes nothing: it builds its datatypes once, at init.
  Reuse reuse(bool shared_temps) { return {&type_cache, shared_temps, settings.stage_up_to, tags_.straight_offset()}; }
  Reuse persistent_reuse() const { return {nullptr, false, settings.stage_up_to, tags_.straight_offset()}; }

  // The last blocking call's execution, kept for a next call with the same schedule and blocks,
  // which then posts its messages without lowering anything again. Blocking calls never overlap on
  // a communicator, so one is enough; it owns its temp blocks.
  // An alltoall or allgather call is also recognized by its arguments (and by what decided its
  // algorithm), before its layout is built.
  // What a call ran: the algorithm and this process's point-to-point messages per call. The latest
  // call's (blocking, nonblocking or *_init) is kept for libcartcoll_mpi's report (CARTCOLL_REPORT),
  // which reads it right after the call.
  struct Run {
    Algorithm algorithm = Algorithm::automatic();
    int messages = 0;
    DecidedBy decided_by = DecidedBy::forced;
  };
  std::optional<Run> last_run;

  struct RepeatedCall {
    struct Arguments {
      RegularArguments regular;
      Contract contract;
      Algorithm requested;
      friend bool operator==(const Arguments&, const Arguments&) = default;
    };
    // A v or w call's arguments (ArgumentPrint's values).
    struct Printed {
      std::vector<std::intptr_t> values;
      Contract contract;
      Algorithm requested;
    };
    const Schedule* schedule = nullptr;
    Layout layout;
    std::unique_ptr<Execution> execution;
    std::optional<Arguments> arguments;
    std::optional<Printed> printed;
    std::optional<Run> run;  // what the call recognized by its arguments ran
  };
  RepeatedCall last_blocking_call;

  // The last nonblocking v or w call's operation, idle between calls, for a next call with the same
  // print (ArgumentPrint): that call takes it and posts its messages without building its layout,
  // lowering anything or allocating, and its request gives it back when it completes. Nonblocking
  // calls may overlap, so a call that finds it taken (by a call still in flight) makes its own.
  // `generation` changes with the print, so that an operation made for an earlier print is not
  // given back under a later one.
  struct RepeatedNonblocking {
    std::optional<RepeatedCall::Printed> printed;
    Layout layout;                             // what the print stands for, to choose on again
    std::shared_ptr<const Schedule> schedule;  // what it ran (held, so that no other takes its address)
    bool direct = false;                       // the direct exchange only: no choice to make again
    Run run;
    std::unique_ptr<ScheduledOperation> idle;  // holds a reference to this state, dropped by mark_freed
    std::uint64_t generation = 0;
  };
  RepeatedNonblocking last_nonblocking_call;
  // A completed operation of last_nonblocking_call's `generation` goes back there, if the slot is
  // still of that generation and empty; otherwise it is returned, for its caller to let go.
  [[nodiscard]] std::unique_ptr<ScheduledOperation> give_back(std::unique_ptr<ScheduledOperation> operation,
                                                              std::uint64_t generation) noexcept;

  // When the user's communicator is freed: views that outlive it notice (freed()), and the library
  // communicator goes as soon as no operation holds it any more.
  void mark_freed() noexcept;
  bool freed() const noexcept { return library_ == nullptr; }

 private:
  std::shared_ptr<LibraryComm> library_;
  TagSpace tags_;
  std::map<std::tuple<Collective, int, bool, bool, bool, std::optional<long long>>, std::shared_ptr<const Schedule>> schedules_;
  std::map<std::pair<Collective, int>, Figures> figures_;
};

// The state attached to comm, or nullptr if comm carries none.
std::shared_ptr<CommState> find_state(MPI_Comm comm);
void attach_state(MPI_Comm comm, std::shared_ptr<CommState> state);

}  // namespace cartcoll::detail
