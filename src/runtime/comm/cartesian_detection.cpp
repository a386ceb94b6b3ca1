// SPDX-License-Identifier: BSD-3-Clause
#include "cartesian_detection.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <numeric>

#include "runtime/exec/mpi_check.hpp"
#include "attach.hpp"
#include "core/model/cartesian_detection.hpp"
#include "cartcoll/naming.hpp"
#include "collective.hpp"
#include "state.hpp"
#include "runtime/selection/policy.hpp"

namespace cartcoll::detail {

namespace {

// A grid is described to the agreement by d, max_dims dimensions (0 beyond d) and a periodicity
// mask; the unnamed guesses are 4 grids. A larger d, or a box of offsets beyond box_limit vectors
// (a neighborhood reaching far, or a graph that is no stencil), is not looked at.
constexpr int max_dims = 8, max_candidates = 4, description_length = max_dims + 2;
constexpr std::int64_t box_limit = 1 << 14;

// The grids the graph may be Cartesian on, each numbered row-major as the communicator's ranks:
// the parent's naming, else its MPI Cartesian topology, else MPI_Dims_create's 2-D and 3-D tori
// and meshes. None where the naming or topology does not cover every process.
std::vector<Grid> candidate_grids(MPI_Comm parent, int size) {
  if (const std::optional<CartesianNaming> naming = naming_of(parent)) {
    if (naming->size() != size || naming->ndims() > max_dims) return {};
    return {naming->numbering()};
  }
  if (mpi_topology_of(parent) == MPI_CART) {
    const MpiCartesian cart = mpi_cartesian_of(parent);
    const int d = static_cast<int>(cart.dims.size());
    if (d == 0 || d > max_dims || std::reduce(cart.dims.begin(), cart.dims.end(), 1, std::multiplies<>()) != size)
      return {};
    return {Grid(cart.dims, std::vector<bool>(cart.periods.begin(), cart.periods.end()))};
  }
  std::vector<Grid> guesses;
  for (int d : {2, 3}) {
    std::vector<int> dims(static_cast<std::size_t>(d), 0);
    check(MPI_Dims_create(size, d, dims.data()), "MPI_Dims_create");
    for (bool periodic : {true, false}) guesses.emplace_back(dims, std::vector<bool>(dims.size(), periodic));
  }
  return guesses;
}

std::array<int, description_length> description_of(const Grid& grid) {
  std::array<int, description_length> description{};
  description[0] = grid.ndims();
  for (int k = 0; k < grid.ndims(); ++k) {
    description[static_cast<std::size_t>(k) + 1] = grid.dims()[static_cast<std::size_t>(k)];
    if (grid.periodic(k)) description[max_dims + 1] |= 1 << k;
  }
  return description;
}

// One candidate grid as this process sees it, and what the agreement found.
struct Candidate {
  Grid grid;
  std::optional<RelativeNeighbors> mine;  // nullopt: not Cartesian here
  bool viable = false;                    // agreed: same grid everywhere, readable everywhere, box small
  int reach = 0;
  std::optional<Offsets> common;
};

// Step 1: the same candidates everywhere, every process's neighbors on the grid, and the box's reach.
void agree_on_grids(MPI_Comm comm, std::vector<Candidate>& candidates) {
  constexpr int n = max_candidates * description_length;
  std::vector<int> values(2 * n + 2 * max_candidates, 0);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const auto description = description_of(candidates[c].grid);
    for (std::size_t i = 0; i < description.size(); ++i) {
      values[c * description_length + i] = description[i];
      values[n + c * description_length + i] = -description[i];
    }
    values[2 * n + c] = candidates[c].mine ? 0 : 1;
    values[2 * n + max_candidates + c] = candidates[c].mine ? reach_of(*candidates[c].mine) : 0;
  }
  allreduce_max(comm, values);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    bool same = true;
    for (std::size_t i = c * description_length; i < (c + 1) * description_length; ++i)
      same = same && values[i] == -values[n + i];
    candidates[c].reach = values[2 * n + max_candidates + c];
    candidates[c].viable = same && values[2 * n + c] == 0 &&
                           box_size(candidates[c].grid.ndims(), candidates[c].reach, box_limit).has_value();
  }
}

// Step 2: the common offsets, as the maximum over the processes of each vector's count among their
// destinations (a process off a mesh lacks some; one with more or other offsets fails step 3).
void agree_on_offsets(MPI_Comm comm, std::vector<Candidate>& candidates) {
  std::vector<int> counts;
  for (const Candidate& candidate : candidates)
    if (candidate.viable) {
      const std::vector<int> box = offset_counts(candidate.mine->destinations, candidate.grid.ndims(), candidate.reach);
      counts.insert(counts.end(), box.begin(), box.end());
    }
  if (counts.empty()) return;
  allreduce_max(comm, counts);
  std::size_t at = 0;
  for (Candidate& candidate : candidates)
    if (candidate.viable) {
      const std::size_t cells = static_cast<std::size_t>(*box_size(candidate.grid.ndims(), candidate.reach, box_limit));
      candidate.common = offsets_of_counts(std::span<const int>(counts).subspan(at, cells), candidate.grid.ndims(),
                                           candidate.reach);
      at += cells;
      candidate.viable = candidate.common->count() > 0 && connects_grid(candidate.grid, *candidate.common);
    }
}

// This process's neighborhood on a candidate, if its graph lists are exactly that (checked back).
std::optional<CartesianNeighborhood> as_cartesian(const Candidate& candidate, int rank, const GraphNeighborhood& graph) {
  const std::vector<int> coords = candidate.grid.coords_of(rank);
  std::optional<BlockOrders> orders = match_offsets(candidate.grid, coords, *candidate.common, *candidate.mine);
  if (!orders) return std::nullopt;
  CartesianNeighborhood cartesian{candidate.grid, *candidate.common, coords, std::move(orders->receive),
                                  std::move(orders->send), graph};
  cartesian.forwarding_may_mismatch = forwarding_may_mismatch(candidate.grid, *candidate.common);
  const Neighborhood view(cartesian);
  if (view.sources(rank) != graph.sources || view.destinations(rank) != graph.destinations) return std::nullopt;
  return cartesian;
}

}  // namespace

Neighborhood detected_or_graph(MPI_Comm parent, MPI_Comm graph, GraphNeighborhood neighbors, Algorithm algorithm) {
  if (!may_run_on(algorithm, NeighborhoodKind::cartesian))
    return Neighborhood(std::move(neighbors));
  int rank = 0, parent_rank = 0;
  check(MPI_Comm_rank(graph, &rank), "MPI_Comm_rank");
  check(MPI_Comm_rank(parent, &parent_rank), "MPI_Comm_rank");
  std::vector<Candidate> candidates;
  for (Grid& grid : candidate_grids(parent, neighbors.size)) {
    // A reordered communicator numbers the processes differently from the grid: not looked at.
    std::optional<RelativeNeighbors> mine;
    if (rank == parent_rank) mine = relative_neighbors(grid, rank, neighbors.sources, neighbors.destinations);
    candidates.push_back({std::move(grid), std::move(mine), false, 0, std::nullopt});
  }
  agree_on_grids(graph, candidates);
  if (std::none_of(candidates.begin(), candidates.end(), [](const Candidate& c) { return c.viable; }))
    return Neighborhood(std::move(neighbors));
  agree_on_offsets(graph, candidates);
  std::vector<std::optional<CartesianNeighborhood>> found;
  std::vector<int> differs;
  for (const Candidate& candidate : candidates) {
    found.push_back(candidate.viable ? as_cartesian(candidate, rank, neighbors) : std::nullopt);
    differs.push_back(found.back() ? 0 : 1);
  }
  allreduce_max(graph, differs);
  for (std::size_t c = 0; c < candidates.size(); ++c)
    if (differs[c] == 0) return Neighborhood(std::move(*found[c]));
  return Neighborhood(std::move(neighbors));
}

}  // namespace cartcoll::detail
