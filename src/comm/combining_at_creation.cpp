#include "combining_at_creation.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
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

// The registered planner that `auto` combines with on graphs: the first that plans from the set-up
// (graph-combining; node-combining, registered after it, is the same with friends within a node).
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

int blocks_sent(const Figures& figures) {
  return std::accumulate(figures.sends_of_send_block.begin(), figures.sends_of_send_block.end(), 0) +
         std::accumulate(figures.sends_of_recv_block.begin(), figures.sends_of_recv_block.end(), 0);
}

// The largest block for which the model predicts `combined` faster than `direct`, given each one's
// phases, messages and blocks sent (the maxima over processes): combining saves phases × latency +
// messages × per-message overhead at no bytes and pays for the blocks it forwards per byte. -1
// where it saves nothing.
long long largest_block_combined(const int* direct, const int* combined, const CostModel& model) {
  const double saved = (direct[0] - combined[0]) * model.latency + (direct[1] - combined[1]) * model.per_message;
  const double extra_bytes_per_block_byte = combined[2] - direct[2];
  if (saved <= 0) return -1;
  if (extra_bytes_per_block_byte <= 0 || model.per_byte <= 0) return std::numeric_limits<long long>::max();
  return static_cast<long long>(std::min(saved / (extra_bytes_per_block_byte * model.per_byte), 0x1p62));
}

// `auto`'s verdict per collective from the model (CARTCOLL_PROFILE's, else the default) and the
// figures of both schedules, their maxima over processes (agreed).
CombiningVerdict auto_verdict(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors, const Settings& settings) {
  const Neighborhood neighborhood(neighbors);
  const Algorithm direct = Algorithm::named("trivial"), combining = *setup_planner();
  std::vector<int> figures;  // per collective, direct then combined: phases, messages, blocks sent
  for (Collective collective : {Collective::alltoall, Collective::allgather})
    for (Algorithm algorithm : {direct, combining}) {
      const Figures f = neighborhood.figures(algorithm, collective, rank);
      figures.insert(figures.end(), {f.phases, f.messages, blocks_sent(f)});
    }
  allreduce_max(graph, figures);
  const CostModel model = settings.profile.value_or(CostModel{});
  std::array<long long, 2> up_to{};
  for (std::size_t c = 0; c < 2; ++c) up_to[c] = largest_block_combined(&figures[6 * c], &figures[6 * c + 3], model);
  return {direct, combining, up_to};
}

}  // namespace

Neighborhood neighborhood_at_creation(MPI_Comm parent, MPI_Comm graph, int rank, GraphNeighborhood neighbors,
                                      const Settings& settings) {
  Neighborhood detected = detected_or_graph(parent, graph, neighbors, settings.algorithm);
  if (const CartesianNeighborhood* cartesian = detected.cartesian()) {
    if (settings.combining.node_size == 0) return detected;
    CartesianNeighborhood on_nodes = *cartesian;  // forced node-combining plans the Cartesian way
    on_nodes.node_size = settings.combining.node_size;
    return Neighborhood(std::move(on_nodes));
  }
  if (!runs_setup(graph, rank, neighbors, settings)) return detected;
  neighbors.pattern = run_setup(graph, rank, neighbors, settings);
  if (settings.algorithm.is_automatic()) neighbors.auto_combining = auto_verdict(graph, rank, neighbors, settings);
  return Neighborhood(std::move(neighbors));
}

}  // namespace cartcoll::detail
