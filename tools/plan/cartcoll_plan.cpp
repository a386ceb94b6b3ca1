// SPDX-License-Identifier: BSD-3-Clause
// cartcoll-plan: what each planner's schedule costs for a neighborhood, without MPI. For offsets:
// plans every registered planner's alltoall and allgather for the middle process of a torus that no
// offset wraps on, and prints messages, communication phases and volume per call, the allgather tree
// volume with the dimension order of Träff and Hunold (Cartesian Collective Communication) and with
// the best order, and their cut-off ratio. For a distributed
// graph (an edge file or a generator): the same figures for every process. For a stencil's halo
// (--halo): the bytes each algorithm sends for an alltoallw whose send blocks overlap.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cartcoll/error.hpp"
#include "cartcoll/topology.hpp"
#include "graph_figures.hpp"
#include "halo_figures.hpp"
#include "plan_figures.hpp"
#include "util/cli.hpp"
#include "util/graphs.hpp"

namespace {
constexpr const char* tool = "cartcoll-plan";
}  // namespace

int main(int argc, char** argv) {
  using namespace cartcoll;
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  const auto request = plan_tool::parse_command_line(args, error);
  if (!request) {
    std::fprintf(stderr, "%s\n", cli::bad_argument_line(tool, error).c_str());
    return 2;
  }
  if (request->help) {
    std::fputs(plan_tool::usage(), stdout);
    return 0;
  }
  if (request->version) {
    std::printf("%s\n", cli::version_line(tool).c_str());
    return 0;
  }
  try {
    if (request->graph) {
      const auto figures = plan_tool::compute_graph_figures(Graph::from_edges(request->graph->size, request->graph->edges),
                                                            {request->combining, request->verify, request->routing_dims, request->replay});
      if (request->json) {
        std::printf("%s\n", plan_tool::to_json(figures).c_str());
        return 0;
      }
      // The planners count blocks of one size; a graph with per-edge counts gets its spread on a line.
      std::printf("%s\n", request->description.c_str());
      if (!request->graph->counts.empty()) std::printf("%s\n", graphs::summary(*request->graph).c_str());
      std::printf("%s", plan_tool::to_table(figures).c_str());
      return 0;
    }
    if (request->halo) {
      const auto figures = plan_tool::compute_halo_figures(*request->halo);
      std::printf("%s\n", request->json ? plan_tool::to_json(figures).c_str() : plan_tool::to_table(figures).c_str());
      return 0;
    }
    const Offsets offsets(request->d, request->flat);
    const plan_tool::PlanFigures figures = plan_tool::compute_figures(offsets);
    if (request->json) {
      std::printf("%s\n", plan_tool::to_json(figures).c_str());
    } else {
      std::printf("%s\n%s", request->description.c_str(), plan_tool::to_table(figures).c_str());
    }
  } catch (const Error& e) {
    // Only the neighborhood can make these fail: an argument problem.
    std::fprintf(stderr, "%s\n", cli::bad_argument_line(tool, e.what()).c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cartcoll-plan: %s\n", e.what());
    return 1;
  }
  return 0;
}
