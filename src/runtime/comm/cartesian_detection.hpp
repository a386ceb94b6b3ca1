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

#include <memory>

#include "core/planning/plan.hpp"
#include "collective.hpp"
#include "neighborhood.hpp"

namespace cartcoll::detail {

// The detection on `graph`, which MPI has just made from `parent` (`neighbors`: this process's lists
// in `graph`), in steps, so that its first allreduce may carry other values a creation agrees on:
// the constructor looks at this process's neighbors on the candidate grids (no communication; none
// where `algorithm` serves no Cartesian neighborhood); put() adds step 1's values to an agreement,
// the same layout whatever was looked at; after the agreement ran, result() (collective over
// `graph`) finishes: nothing more where no candidate is left, else an allreduce for the common
// offsets where they reach beyond what step 1 counted, and one for the verdict where every
// process's destinations are those offsets. Every process decides alike.
class CartesianDetection {
 public:
  CartesianDetection(MPI_Comm parent, MPI_Comm graph, const GraphNeighborhood& neighbors, Algorithm algorithm);
  ~CartesianDetection();
  CartesianDetection(const CartesianDetection&) = delete;
  CartesianDetection& operator=(const CartesianDetection&) = delete;
  void put(Agreement& agreement);
  Neighborhood result(MPI_Comm graph, const Agreement& agreed, GraphNeighborhood neighbors);

 private:
  struct Found;
  Neighborhood settled(MPI_Comm graph, GraphNeighborhood neighbors);
  std::unique_ptr<Found> found_;
  int rank_ = 0;
  std::size_t first_slot_ = 0;
};

}  // namespace cartcoll::detail
