// SPDX-License-Identifier: BSD-3-Clause
#include "cartesian_detection.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
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

// The box of offsets step 1 counts in the same allreduce, of reach speculative_reach(d) (at most
// speculative_cells vectors): where the agreed reach is within it, step 2 needs no allreduce. 49
// covers a 2-D mesh of up to 4 processes a side (reach 3) and 3-D neighborhoods of reach 1.
constexpr int speculative_cells = 49;

int speculative_reach(int d) {
  int reach = 0;
  if (d < 1) return 0;
  while (box_size(d, reach + 1, speculative_cells).has_value()) ++reach;
  return reach;
}

// Per vector of a box, how often this process has it among its destinations, and the negated count
// where the vector leads from this process onto the grid (else `off_grid`): maximized over the
// processes, the most and the fewest of the processes that could have it.
constexpr long long off_grid = std::numeric_limits<long long>::min();

struct BoxCounts {
  std::vector<long long> most, negated_fewest;
};

BoxCounts box_counts(const Grid& grid, std::span<const int> coords, const RelativeNeighbors& mine, int reach) {
  const int d = grid.ndims();
  BoxCounts counts;
  for (int count : offset_counts(mine.destinations, d, reach)) counts.most.push_back(count);
  const Offsets box = offsets_of_counts(std::vector<int>(counts.most.size(), 1), d, reach);
  for (int cell = 0; cell < box.count(); ++cell)
    counts.negated_fewest.push_back(grid.shift(coords, box[cell], +1) ? -counts.most[static_cast<std::size_t>(cell)]
                                                                        : off_grid);
  return counts;
}

// One candidate grid as this process sees it, and what the agreement found.
struct Candidate {
  Grid grid;
  std::optional<RelativeNeighbors> mine;  // nullopt: not Cartesian here
  bool viable = false;                    // agreed: same grid everywhere, readable everywhere, box small
  int reach = 0;
  std::optional<Offsets> common;
};

// Where the agreed counts of a box make every process's destinations the common offsets that lead
// onto the grid from it (a necessary condition for step 3), the common offsets.
std::optional<Offsets> consistent_offsets(std::span<const long long> most, std::span<const long long> negated_fewest,
                                          int d, int reach) {
  std::vector<int> counts;
  for (std::size_t cell = 0; cell < most.size(); ++cell) {
    const long long fewest = negated_fewest[cell] == off_grid ? 0 : -negated_fewest[cell];
    if (most[cell] != fewest) return std::nullopt;
    counts.push_back(static_cast<int>(most[cell]));
  }
  return offsets_of_counts(counts, d, reach);
}

// Step 2 for the candidates step 1's box did not cover: the common offsets, as the maximum over the
// processes of each vector's count among their destinations, and whether every process has them all
// where they lead onto the grid (a process off a mesh lacks some; one with more or other offsets
// fails here or in step 3).
void agree_on_offsets(MPI_Comm comm, int rank, std::span<Candidate> candidates) {
  Agreement agreement;
  std::vector<std::size_t> firsts;
  for (const Candidate& candidate : candidates) {
    const BoxCounts counts = box_counts(candidate.grid, candidate.grid.coords_of(rank), *candidate.mine, candidate.reach);
    firsts.push_back(agreement.max(0));
    for (long long count : counts.most) agreement.max(count);
    for (long long count : counts.negated_fewest) agreement.max(count);
  }
  agreement.run(comm, std::nullopt);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const std::size_t cells = static_cast<std::size_t>(*box_size(candidates[c].grid.ndims(), candidates[c].reach, box_limit));
    std::vector<long long> values;
    for (std::size_t i = 0; i < 2 * cells; ++i) values.push_back(agreement.maximum(firsts[c] + 1 + i));
    candidates[c].common = consistent_offsets(std::span(values).first(cells), std::span(values).last(cells),
                                              candidates[c].grid.ndims(), candidates[c].reach);
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

struct CartesianDetection::Found {
  std::vector<Candidate> candidates;
};

CartesianDetection::CartesianDetection(MPI_Comm parent, MPI_Comm graph, const GraphNeighborhood& neighbors,
                                       Algorithm algorithm)
    : found_(std::make_unique<Found>()) {
  if (!may_run_on(algorithm, NeighborhoodKind::cartesian)) return;
  int parent_rank = 0;
  check(MPI_Comm_rank(graph, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_rank(parent, &parent_rank), "MPI_Comm_rank");
  for (Grid& grid : candidate_grids(parent, neighbors.size)) {
    // A reordered communicator numbers the processes differently from the grid: not looked at.
    std::optional<RelativeNeighbors> mine;
    if (rank_ == parent_rank) mine = relative_neighbors(grid, rank_, neighbors.sources, neighbors.destinations);
    found_->candidates.push_back({std::move(grid), std::move(mine), false, 0, std::nullopt});
  }
}

CartesianDetection::~CartesianDetection() = default;

// Step 1, per candidate slot (max_candidates of them, unused ones zero, so that the layout is one
// everywhere): its description and its negation (the same grid everywhere), whether this process
// cannot read its neighbors on it, their reach, and the speculative box's counts (box_counts).
void CartesianDetection::put(Agreement& agreement) {
  const std::vector<Candidate>& candidates = found_->candidates;
  first_slot_ = agreement.max(0);
  for (std::size_t c = 0; c < max_candidates; ++c) {
    const Candidate* candidate = c < candidates.size() ? &candidates[c] : nullptr;
    const auto description = candidate ? description_of(candidate->grid) : std::array<int, description_length>{};
    for (int value : description) agreement.max(value);
    for (int value : description) agreement.max(-value);
    agreement.max(candidate && !candidate->mine ? 1 : 0);
    const int reach = candidate && candidate->mine ? reach_of(*candidate->mine) : 0;
    agreement.max(reach);
    BoxCounts counts{std::vector<long long>(speculative_cells, 0), std::vector<long long>(speculative_cells, off_grid)};
    if (candidate && candidate->mine && candidate->grid.ndims() >= 1 && reach <= speculative_reach(candidate->grid.ndims()))
      counts = box_counts(candidate->grid, candidate->grid.coords_of(rank_), *candidate->mine,
                          speculative_reach(candidate->grid.ndims()));
    counts.most.resize(speculative_cells, 0);
    counts.negated_fewest.resize(speculative_cells, off_grid);
    for (long long count : counts.most) agreement.max(count);
    for (long long count : counts.negated_fewest) agreement.max(count);
  }
}

Neighborhood CartesianDetection::result(MPI_Comm graph, const Agreement& agreed, GraphNeighborhood neighbors) {
  std::vector<Candidate>& candidates = found_->candidates;
  constexpr std::size_t per_candidate = 2 * description_length + 2 + 2 * speculative_cells;
  std::vector<Candidate*> uncovered;  // viable, reaching beyond the speculative box: step 2
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    Candidate& candidate = candidates[c];
    std::vector<long long> values;
    for (std::size_t i = 0; i < per_candidate; ++i) values.push_back(agreed.maximum(first_slot_ + 1 + c * per_candidate + i));
    bool same = true;
    for (std::size_t i = 0; i < description_length; ++i) same = same && values[i] == -values[description_length + i];
    candidate.reach = static_cast<int>(values[2 * description_length + 1]);
    candidate.viable = same && values[2 * description_length] == 0 && candidate.grid.ndims() >= 1 &&
                       box_size(candidate.grid.ndims(), candidate.reach, box_limit).has_value();
    if (!candidate.viable) continue;
    const int spec = speculative_reach(candidate.grid.ndims());
    if (candidate.reach > spec) {
      uncovered.push_back(&candidate);
      continue;
    }
    const std::size_t cells = static_cast<std::size_t>(*box_size(candidate.grid.ndims(), spec, speculative_cells));
    const std::span<const long long> box = std::span<const long long>(values).subspan(2 * description_length + 2);
    candidate.common = consistent_offsets(box.first(cells), box.subspan(speculative_cells, cells), candidate.grid.ndims(), spec);
  }
  if (!uncovered.empty()) {
    std::vector<Candidate> step2;
    for (Candidate* candidate : uncovered) step2.push_back(std::move(*candidate));
    agree_on_offsets(graph, rank_, step2);
    for (std::size_t i = 0; i < uncovered.size(); ++i) *uncovered[i] = std::move(step2[i]);
  }
  return settled(graph, std::move(neighbors));
}

// Step 3, where a candidate's common offsets are consistent and connect its grid: whether every
// process's lists are exactly that Cartesian neighborhood.
Neighborhood CartesianDetection::settled(MPI_Comm graph, GraphNeighborhood neighbors) {
  std::vector<Candidate>& candidates = found_->candidates;
  bool any = false;
  for (Candidate& candidate : candidates) {
    candidate.viable = candidate.viable && candidate.common && candidate.common->count() > 0 &&
                       connects_grid(candidate.grid, *candidate.common);
    any = any || candidate.viable;
  }
  if (!any) return Neighborhood(std::move(neighbors));
  std::vector<std::optional<CartesianNeighborhood>> found;
  std::vector<int> differs;
  for (const Candidate& candidate : candidates) {
    found.push_back(candidate.viable ? as_cartesian(candidate, rank_, neighbors) : std::nullopt);
    differs.push_back(found.back() ? 0 : 1);
  }
  allreduce_max(graph, differs);
  for (std::size_t c = 0; c < candidates.size(); ++c)
    if (differs[c] == 0) return Neighborhood(std::move(*found[c]));
  return Neighborhood(std::move(neighbors));
}

}  // namespace cartcoll::detail
