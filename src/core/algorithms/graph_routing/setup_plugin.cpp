// SPDX-License-Identifier: BSD-3-Clause
// graph-routing's set-up as its planner's plug-in (core/planning/setup.hpp): one round per grid
// dimension in which the processes learn which blocks pass through them (routing_setup.hpp).
#include <algorithm>
#include <array>
#include <string>

#include "core/setup/single_edges.hpp"
#include "graph_routing.hpp"
#include "routing_setup.hpp"

namespace cartcoll::detail {

namespace {

// CARTCOLL_ROUTING_DIMS: the grid's dimensions; 0: default_routing_dims, or under `auto` the model's
// choice around it.
constexpr std::array parameters{SetupParameter{"routing_dims", 0, 0}};

// Under `auto` the set-up runs only where processes have on average this many single out-neighbors or
// more: routing saves messages where a process has many neighbors. The density at which
// graph-combining's set-up starts to pay with its default threshold (2Θ, Θ = 4).
constexpr long long least_mean_degree = 8;

std::vector<long long> contributions(const GraphView& view) {
  return {static_cast<long long>(single_neighbors(view.destinations, view.rank).size()),
          RoutingSetup::has_a_block(view) ? 0 : 1};
}

// The grids it may use: the one CARTCOLL_ROUTING_DIMS gives, or for a forced planner the default's;
// under `auto` without one, the default's and those of one dimension fewer and more, so that the
// model picks the balance of messages and phases (docs/graph-routing.md, "The grid"). A grid of one
// extent is the direct exchange with extra steps: never a candidate.
std::vector<std::vector<int>> grids(int size, int given_dims, bool automatic) {
  const int dims = given_dims > 0 ? given_dims : default_routing_dims(size);
  if (given_dims > 0 || !automatic) return {routing_extents(size, dims)};
  std::vector<std::vector<int>> made;
  for (int d = std::max(1, dims - 1); d <= dims + 1; ++d)
    if (auto extents = routing_extents(size, d); extents.size() > 1 && std::find(made.begin(), made.end(), extents) == made.end())
      made.push_back(std::move(extents));
  return made;
}

std::string label_of(const std::vector<int>& extents) {
  std::string grid;
  for (int extent : extents) grid += (grid.empty() ? "" : "x") + std::to_string(extent);
  return "graph-routing on " + grid;
}

std::vector<std::unique_ptr<SetupRun>> runs(const SetupInput& input) {
  if (input.automatic && input.totals[0] < least_mean_degree * input.view.size) return {};
  const bool routes_alltoall = input.totals[1] == 0;  // every process has a block
  std::vector<std::unique_ptr<SetupRun>> made;
  for (std::vector<int>& extents : grids(input.view.size, input.parameters[0], input.automatic)) {
    const int phases = static_cast<int>(extents.size());
    std::string label = label_of(extents);
    made.push_back(protocol_run<RoutingPattern>(
        std::make_unique<RoutingSetup>(input.view, std::move(extents), routes_alltoall), std::move(label), phases));
  }
  return made;
}

}  // namespace

// A process routes blocks of processes it has no edge with: all processes route or none (no restricted).
extern const SetupPlugin routing_setup{parameters, contributions, runs, nullptr};

}  // namespace cartcoll::detail
