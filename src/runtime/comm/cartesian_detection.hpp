// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Cartesian detection when a distributed-graph communicator is made (Träff and Hunold's Cartesian
// Collective Communication, section 2.2, the unified-interfaces paper by Träff, Hunold, Mercier and
// Holmes, section 3.2; docs/neighbor.md, "Cartesian detection"): where every process's neighbors
// are the same offsets on the grid of the parent's Cartesian naming, of its MPI Cartesian topology,
// or (neither) of an MPI_Dims_create torus or mesh in 2 or 3 dimensions, the communicator's
// collectives run on that Cartesian neighborhood (the Cartesian planners), with the graph's block
// numbering.
#include <mpi.h>

#include "core/planning/plan.hpp"
#include "neighborhood.hpp"

namespace cartcoll::detail {

// Collective over `graph`, which MPI has just made from `parent`; `neighbors` are this process's
// lists in `graph`. The Cartesian neighborhood the graph is, where it is one on every process, else
// the graph. At most three small allreduces, none where `algorithm` serves no Cartesian
// neighborhood; every process decides alike.
Neighborhood detected_or_graph(MPI_Comm parent, MPI_Comm graph, GraphNeighborhood neighbors, Algorithm algorithm);

}  // namespace cartcoll::detail
