#include "combining_at_creation.hpp"

#include "../graph/combining_setup.hpp"
#include "../graph/mpi_transport.hpp"
#include "library_comm.hpp"

namespace cartcoll::detail {

std::shared_ptr<const CombiningPattern> combining_pattern(MPI_Comm graph, int rank, const GraphNeighborhood& neighbors,
                                                          const Settings& settings) {
  if (settings.algorithm.is_automatic() || !settings.algorithm.planner().needs_setup) return nullptr;
  CombiningSetup setup(GraphView{rank, neighbors.size, neighbors.sources, neighbors.destinations}, settings.combining);
  const LibraryComm scratch(graph);  // the set-up's messages never meet the user's
  run_over_mpi(scratch.get(), setup);
  return std::make_shared<const CombiningPattern>(setup.pattern());
}

}  // namespace cartcoll::detail
