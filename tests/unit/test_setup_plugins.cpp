// SPDX-License-Identifier: BSD-3-Clause
// The set-up plug-ins of the registered planners (core/planning/setup.hpp), without MPI: each
// declares valid parameters; its runs are what the runtime runs at creation (forced: one; under
// `auto`: none below its density, else one per variant the model weighs); run for every process over
// the simulated transport they give the results the algorithm's own simulated set-up gives; a result
// is opaque to every planner but its own.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/algorithms/graph_routing/graph_routing.hpp"
#include "core/model/graph.hpp"
#include "core/planning/plan.hpp"
#include "core/setup/simulated_transport.hpp"
#include "util/graphs.hpp"

namespace cartcoll {
namespace {

Graph dense_graph() {
  const graphs::EdgeList edges = graphs::erdos_renyi(16, 0.8, 7);
  return Graph::from_edges(edges.size, edges.edges);
}

// Every process's runs of `plugin` with `values`, `automatic`, and the totals of the contributions.
std::vector<std::vector<std::unique_ptr<SetupRun>>> runs_of(const SetupPlugin& plugin, const Graph& graph,
                                                            const std::vector<int>& values, bool automatic) {
  std::vector<long long> totals;
  for (int rank = 0; rank < graph.size(); ++rank) {
    const std::vector<long long> mine = plugin.contributions(graph.view(rank));
    totals.resize(mine.size());
    for (std::size_t k = 0; k < mine.size(); ++k) totals[k] += mine[k];
  }
  std::vector<std::vector<std::unique_ptr<SetupRun>>> runs;
  for (int rank = 0; rank < graph.size(); ++rank)
    runs.push_back(plugin.runs(SetupInput{graph.view(rank), values, 0, automatic, totals}));
  return runs;
}

// Run `r` of every process over the simulated transport; each process's result.
std::vector<std::shared_ptr<const SetupResult>> simulate_run(std::vector<std::vector<std::unique_ptr<SetupRun>>>& runs,
                                                             std::size_t r) {
  std::vector<detail::RoundProtocol*> protocols;
  for (auto& mine : runs) protocols.push_back(&mine.at(r)->protocol());
  detail::run_simulated(protocols);
  std::vector<std::shared_ptr<const SetupResult>> results;
  for (auto& mine : runs) results.push_back(mine.at(r)->result());
  return results;
}

std::vector<int> defaults_of(const SetupPlugin& plugin) {
  std::vector<int> values;
  for (const SetupParameter& parameter : plugin.parameters) values.push_back(parameter.fallback);
  return values;
}

TEST(SetupPlugins, ParametersAreNamedOnceAndTheirDefaultsValid) {
  std::set<const SetupPlugin*> plugins;
  for (const PlannerEntry& planner : planners())
    if (planner.setup != nullptr) {
      EXPECT_TRUE(planner.serves(NeighborhoodKind::graph)) << planner.name;
      plugins.insert(planner.setup);
    }
  ASSERT_GE(plugins.size(), 2u);
  std::set<std::string> names;
  for (const SetupPlugin* plugin : plugins)
    for (const SetupParameter& parameter : plugin->parameters) {
      EXPECT_TRUE(names.insert(std::string(parameter.name)).second) << parameter.name << " declared twice";
      EXPECT_TRUE(parameter.fallback == parameter_unset || parameter.fallback >= parameter.minimum) << parameter.name;
    }
}

TEST(SetupPlugins, CombiningRunsOneBudgetForcedAndWeighsTwoUnderAuto) {
  const Graph graph = dense_graph();
  const SetupPlugin& plugin = detail::combining_setup;
  std::vector<int> values = defaults_of(plugin);
  EXPECT_EQ(runs_of(plugin, graph, values, false).front().size(), 1u);
  const auto weighed = runs_of(plugin, graph, values, true);
  ASSERT_EQ(weighed.front().size(), 2u);
  EXPECT_EQ(weighed.front()[0]->most_phases, 2);
  EXPECT_EQ(weighed.front()[1]->most_phases, 4);
  values.back() = 3;  // a phase budget given: `auto` weighs only it
  const auto given = runs_of(plugin, graph, values, true);
  ASSERT_EQ(given.front().size(), 1u);
  EXPECT_EQ(given.front()[0]->most_phases, 3);
  const Graph ring = Graph::from_edges(4, std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  EXPECT_TRUE(runs_of(plugin, ring, defaults_of(plugin), true).front().empty()) << "too sparse to pay";
  EXPECT_EQ(runs_of(plugin, ring, defaults_of(plugin), false).front().size(), 1u) << "forced runs anyway";
}

TEST(SetupPlugins, CombiningRunGivesTheSimulatedSetUpsPatterns) {
  const Graph graph = dense_graph();
  auto runs = runs_of(detail::combining_setup, graph, defaults_of(detail::combining_setup), false);
  const auto results = simulate_run(runs, 0);
  const SimulatedSetup expected = simulate_combining_setup(graph, CombiningParameters{});
  std::size_t steps = 0;
  for (const CombiningPattern& pattern : expected.patterns) steps += pattern.steps.size();
  ASSERT_GT(steps, 0u) << "the graph must be dense enough for friends";
  for (int rank = 0; rank < graph.size(); ++rank) {
    const auto* pattern = dynamic_cast<const CombiningPattern*>(results[static_cast<std::size_t>(rank)].get());
    ASSERT_NE(pattern, nullptr);
    const CombiningPattern& want = expected.patterns[static_cast<std::size_t>(rank)];
    EXPECT_EQ(pattern->phases, want.phases);
    ASSERT_EQ(pattern->steps.size(), want.steps.size()) << "rank " << rank;
    for (std::size_t s = 0; s < want.steps.size(); ++s) {
      EXPECT_EQ(pattern->steps[s].partner, want.steps[s].partner);
      EXPECT_EQ(pattern->steps[s].onloaded, want.steps[s].onloaded);
    }
    ASSERT_EQ(pattern->arrivals.size(), want.arrivals.size()) << "rank " << rank;
  }
  // Restricted to no side, nothing is combined; the direct exchange keeps the budget's last phase.
  const auto none = detail::combining_setup.restricted(*results[0], CombinedSides{false, false});
  const auto* restricted = dynamic_cast<const CombiningPattern*>(none.get());
  ASSERT_NE(restricted, nullptr);
  EXPECT_TRUE(restricted->steps.empty() && restricted->arrivals.empty());
  EXPECT_EQ(restricted->direct_phase(), expected.patterns[0].phases - 1);
}

TEST(SetupPlugins, RoutingWeighsGridsAroundTheDefaultAndRoutesAllOrNone) {
  const Graph graph = dense_graph();
  const SetupPlugin& plugin = detail::routing_setup;
  EXPECT_EQ(plugin.restricted, nullptr) << "a process routes blocks of processes it has no edge with";
  const auto forced = runs_of(plugin, graph, {0}, false);
  ASSERT_EQ(forced.front().size(), 1u);
  EXPECT_EQ(forced.front()[0]->most_phases,
            static_cast<int>(routing_extents(16, default_routing_dims(16)).size()));
  const auto weighed = runs_of(plugin, graph, {0}, true);
  EXPECT_GE(weighed.front().size(), 2u);
  std::set<std::string> labels;
  for (const auto& run : weighed.front()) EXPECT_TRUE(labels.insert(run->label).second) << run->label;
  EXPECT_EQ(runs_of(plugin, graph, {2}, true).front().size(), 1u) << "dimensions given";
  auto runs = runs_of(plugin, graph, {2}, false);
  const auto results = simulate_run(runs, 0);
  const SimulatedRouting expected = simulate_routing_setup(graph, 2);
  for (int rank = 0; rank < graph.size(); ++rank) {
    const auto* routed = dynamic_cast<const RoutingPattern*>(results[static_cast<std::size_t>(rank)].get());
    ASSERT_NE(routed, nullptr);
    EXPECT_EQ(routed->extents, expected.patterns[static_cast<std::size_t>(rank)].extents);
    EXPECT_EQ(routed->arrivals, expected.patterns[static_cast<std::size_t>(rank)].arrivals);
    EXPECT_EQ(routed->routes_alltoall, expected.patterns[static_cast<std::size_t>(rank)].routes_alltoall);
  }
}

TEST(SetupPlugins, AResultIsOpaqueToOtherPlanners) {
  const Graph graph = dense_graph();
  const SimulatedRouting routing = simulate_routing_setup(graph, 2);
  GraphView view = graph.view(0);
  view.setup = &routing.patterns[0];
  EXPECT_EQ(setup_result_of<CombiningPattern>(view), nullptr);
  EXPECT_NE(setup_result_of<RoutingPattern>(view), nullptr);
  // graph-combining given routing's result plans the direct exchange.
  const Schedule with = plan(Algorithm::named("graph-combining"), view, Collective::alltoall);
  view.setup = nullptr;
  const Schedule without = plan(Algorithm::named("graph-combining"), view, Collective::alltoall);
  EXPECT_EQ(with.messages(), without.messages());
  EXPECT_EQ(with.phases.size(), without.phases.size());
}

}  // namespace
}  // namespace cartcoll
