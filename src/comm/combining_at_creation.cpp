#include "combining_at_creation.hpp"

#include <optional>

#include "../exec/mpi_check.hpp"
#include "../graph/combining_setup.hpp"
#include "../graph/mpi_transport.hpp"
#include "../graph/single_edges.hpp"
#include "cartcoll/cost.hpp"
#include "cartesian_detection.hpp"
#include "collective.hpp"
#include "library_comm.hpp"

namespace cartcoll::detail {

namespace {

// The registered planner that plans from the set-up on graphs (there is one: graph-combining).
std::optional<Algorithm> setup_planner() {
  const auto table = planners();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i].needs_setup && table[i].serves(NeighborhoodKind::graph)) return Algorithm::from_id(static_cast<int>(i));
  return std::nullopt;
}

// Whether the set-up runs: always for a forced planner that needs it; under `auto` where processes
// have on average 2Θ single out-neighbors or more, so that friends sharing Θ of them can be common
// (collective: one allreduce, so all decide alike). Sparser graphs (PETSc's, a ring) pay nothing.
bool runs_setup(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors, const Settings& settings) {
  if (!settings.algorithm.is_automatic()) return settings.algorithm.planner().needs_setup;
  if (!setup_planner()) return false;
  long long total = static_cast<long long>(single_neighbors(neighbors.destinations, rank).size());
  allreduce_sum(graph, std::span<long long>(&total, 1));
  return total >= 2LL * settings.combining.threshold * neighbors.size;
}

std::shared_ptr<const CombiningPattern> run_setup(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors,
                                                  const Settings& settings) {
  CombiningSetup setup(GraphView{rank, neighbors.size, neighbors.sources, neighbors.destinations}, settings.combining);
  const LibraryComm scratch(graph);  // the set-up's messages never meet the user's
  run_over_mpi(scratch.get(), setup);
  return std::make_shared<const CombiningPattern>(setup.pattern());
}

// `auto`'s verdict per collective: graph-combining where the model predicts it faster at one
// element per block for the process that is slowest either way (the figures' maxima, agreed).
std::array<Algorithm, 2> auto_verdict(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors, const Settings& settings) {
  const Neighborhood neighborhood(neighbors);
  const Algorithm direct = Algorithm::named("trivial"), combining = *setup_planner();
  std::vector<int> figures;  // per collective: phases and messages, direct then combined
  for (Collective collective : {Collective::alltoall, Collective::allgather})
    for (Algorithm algorithm : {direct, combining}) {
      const Figures f = neighborhood.figures(algorithm, collective, rank);
      figures.insert(figures.end(), {f.phases, f.messages});
    }
  allreduce_max(graph, figures);
  const CostModel model = settings.profile.value_or(CostModel{});
  std::array<Algorithm, 2> choice{direct, direct};
  for (std::size_t c = 0; c < 2; ++c) {
    const int* f = &figures[4 * c];
    const double seconds_direct = f[0] * model.latency + f[1] * model.per_message;
    const double seconds_combined = f[2] * model.latency + f[3] * model.per_message;
    if (seconds_combined < seconds_direct) choice[c] = combining;
  }
  return choice;
}

}  // namespace

Neighborhood neighborhood_at_creation(MPI_Comm parent, MPI_Comm graph, int rank, GraphNeighborhood neighbors,
                                      const Settings& settings) {
  Neighborhood detected = detected_or_graph(parent, graph, neighbors, settings.algorithm);
  if (detected.kind() == NeighborhoodKind::cartesian) return detected;
  if (!runs_setup(graph, rank, neighbors, settings)) return detected;
  neighbors.pattern = run_setup(graph, rank, neighbors, settings);
  if (settings.algorithm.is_automatic()) neighbors.auto_choice = auto_verdict(graph, rank, neighbors, settings);
  return Neighborhood(std::move(neighbors));
}

}  // namespace cartcoll::detail
