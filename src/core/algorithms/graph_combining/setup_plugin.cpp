// SPDX-License-Identifier: BSD-3-Clause
// graph-combining's set-up as its planner's plug-in (core/planning/setup.hpp): Mirsadeghi et al.'s
// (Exploiting Common Neighborhoods) pattern extraction and friend matching, run when a graph
// communicator is made; node-combining on graphs runs it with friends within a node.
#include <array>
#include <string>

#include "combining_setup.hpp"
#include "core/setup/single_edges.hpp"
#include "graph_combining.hpp"

namespace cartcoll::detail {

namespace {

// CARTCOLL_COMBINING_THRESHOLD, _STEPS and _PHASES (docs/graph-combining.md).
constexpr CombiningParameters defaults{};
constexpr std::array parameters{
    SetupParameter{"combining_threshold", defaults.threshold, 2},
    SetupParameter{"combining_steps", defaults.steps, 0},
    SetupParameter{"combining_phases", parameter_unset, 2},
};

// The phase budgets `auto` chooses between when the user gave none: Mirsadeghi et al.'s combining
// and one round of cumulative combining. Their set-ups run in lockstep, so each costs bytes and
// compute, not rounds. 6 would save a process about a quarter as many messages again as 4 saves
// over 2, for two more phases (docs/graph-combining.md, "Choosing the phase budget").
constexpr std::array<int, 2> budget_candidates{2, 4};

std::vector<long long> contributions(const GraphView& view) {
  return {static_cast<long long>(single_neighbors(view.destinations, view.rank).size())};
}

// Under `auto` the set-up runs only where processes have on average 2Θ single out-neighbors or more,
// so that friends sharing Θ of them can be common; sparser graphs (PETSc's, a ring) pay nothing.
bool worth_running(const SetupInput& input, int threshold) {
  return input.totals[0] >= 2LL * threshold * input.view.size;
}

std::vector<std::unique_ptr<SetupRun>> runs(const SetupInput& input) {
  CombiningParameters chosen;
  chosen.threshold = input.parameters[0];
  chosen.steps = input.parameters[1];
  chosen.node_size = input.node_size;
  const int given = input.parameters[2];
  std::vector<int> budgets{given != parameter_unset ? given : defaults.phases};
  if (input.automatic) {
    if (!worth_running(input, chosen.threshold)) return {};
    if (given == parameter_unset) budgets.assign(budget_candidates.begin(), budget_candidates.end());
  }
  std::vector<std::unique_ptr<SetupRun>> made;
  for (int budget : budgets) {
    chosen.phases = budget;
    made.push_back(protocol_run<CombiningPattern>(std::make_unique<CombiningSetup>(input.view, chosen),
                                                  "graph-combining, budget " + std::to_string(budget), budget));
  }
  return made;
}

std::shared_ptr<const SetupResult> restricted(const SetupResult& result, CombinedSides sides) {
  return std::make_shared<const CombiningPattern>(restricted_to(dynamic_cast<const CombiningPattern&>(result), sides));
}

}  // namespace

extern const SetupPlugin combining_setup{parameters, contributions, runs, restricted};

}  // namespace cartcoll::detail
