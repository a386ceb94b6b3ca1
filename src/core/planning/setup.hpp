// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// An algorithm's distributed set-up as a plug-in of its planner (PlannerEntry::setup): what the
// processes of a graph learn about their neighborhood by exchanging messages when the communicator
// is made, before the algorithm can plan. The set-up is written once, as a round protocol per process
// (core/setup/transport.hpp), and run by the MPI transport at creation, by the simulated one in the
// tools and tests. The runtime keeps its result opaque (SetupResult) and hands it back to the
// planner in GraphView::setup; nothing outside the algorithm's folder knows its type.
#include <climits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/graph.hpp"
#include "core/setup/transport.hpp"

namespace cartcoll {

// What an algorithm's set-up learned about one process's neighborhood: each algorithm derives its
// own type, and its planner reads it back from GraphView::setup (setup_result_of).
struct SetupResult {
  virtual ~SetupResult() = default;
  // The phase in which a schedule planned beside this result (the direct exchange of a process that
  // forwards nothing in a call) sends its direct edges, so that it meets the processes that forward
  // where they deliver: equal on every process.
  virtual int direct_phase() const { return 0; }
};

// The result in `view` if it is of the algorithm's type `Result`, else null (no set-up ran, or
// another algorithm's did: the planner then plans without it).
template <typename Result>
const Result* setup_result_of(const GraphView& view) {
  return dynamic_cast<const Result*>(view.setup);
}

// Which sides of its exchange a process forwards through the set-up's result in one call, where
// blocks of different sizes may meet (the rest goes directly): what it sends, what it receives.
struct CombinedSides {
  bool sends = true;
  bool receives = true;
  friend bool operator==(const CombinedSides&, const CombinedSides&) = default;
};

// A parameter of a set-up, read when a communicator is made: the environment variable
// CARTCOLL_<NAME>, else the info key cartcoll_<name>, else `fallback`. Every process must hold the
// same value (the creation agrees on it).
struct SetupParameter {
  std::string_view name;  // lower case: "combining_threshold" is CARTCOLL_COMBINING_THRESHOLD
  int fallback;           // parameter_unset: none; the set-up then chooses (under `auto`, by the model)
  int minimum;            // a smaller value is Errc::info_value
};
inline constexpr int parameter_unset = INT_MIN;

// One run of a set-up on one process: its round protocol, and once that has run, the result.
struct SetupRun {
  virtual ~SetupRun() = default;
  virtual detail::RoundProtocol& protocol() = 0;
  virtual std::shared_ptr<const SetupResult> result() const = 0;
  std::string label;    // for CARTCOLL_VERBOSE_AUTO: "graph-combining, budget 4"
  int most_phases = 1;  // the most phases a schedule planned from the result has (equal everywhere)
};

// A run of `Protocol`, a set-up whose pattern() is its `Result` once it has run.
template <typename Result, typename Protocol>
std::unique_ptr<SetupRun> protocol_run(std::unique_ptr<Protocol> protocol, std::string label, int most_phases) {
  struct Run final : SetupRun {
    std::unique_ptr<Protocol> running;
    detail::RoundProtocol& protocol() override { return *running; }
    std::shared_ptr<const SetupResult> result() const override { return std::make_shared<const Result>(running->pattern()); }
  };
  auto run = std::make_unique<Run>();
  run->running = std::move(protocol);
  run->label = std::move(label);
  run->most_phases = most_phases;
  return run;
}

// What a set-up is given on one process. Everything but `view` is equal on every process.
struct SetupInput {
  GraphView view;
  std::span<const int> parameters;    // values of SetupPlugin::parameters, in that order
  int node_size = 0;                  // nodes to keep forwarding within (ranks with equal rank / node_size); 0: none
  bool automatic = false;             // `auto` weighs the runs: every variant worth weighing; else the one asked for
  std::span<const long long> totals;  // SetupPlugin::contributions, summed over all processes
};

struct SetupPlugin {
  std::span<const SetupParameter> parameters;
  // What this process adds to the sums every process needs before it runs the set-up (one allreduce
  // for all set-ups of a creation): for example how many edges it could forward.
  std::vector<long long> (*contributions)(const GraphView& view);
  // The runs, from agreed values only, so every process makes the same number: one where the
  // algorithm is forced; under `auto` none where the set-up cannot pay, or one per variant the model
  // should weigh.
  std::vector<std::unique_ptr<SetupRun>> (*runs)(const SetupInput& input);
  // The result restricted to `sides`, for a process that forwards only some sides (blocks of
  // different sizes on one process); nullptr where a process forwards blocks of processes it has no
  // edge with, so that all processes must forward or none.
  std::shared_ptr<const SetupResult> (*restricted)(const SetupResult& result, CombinedSides sides);
  // Validates the parameter values (Error(Errc::info_value)) beyond their minimum; may be null.
  void (*validate)(std::span<const int> values) = nullptr;
};

// What one process spent on a set-up.
struct SetupTraffic {
  int rounds = 0;
  long long messages = 0;  // sent
  long long bytes = 0;     // sent (4 bytes a value)
  double seconds = 0;      // its own compute, measured (thread CPU time in the simulated transport)
};

// What a set-up run in the simulated transport cost.
struct SetupCosts {
  std::vector<SetupTraffic> traffic;  // per rank
  // Per round, the largest compute time and the most messages and bytes sent by one process: the
  // critical path of a lockstep run is the sum over rounds of these maxima.
  std::vector<double> round_seconds;
  std::vector<long long> round_messages;
  std::vector<long long> round_bytes;
};

}  // namespace cartcoll
