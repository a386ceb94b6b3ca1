// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What a distributed-graph communicator just made runs on (at CC_Dist_graph_create(_adjacent), and
// through libcartcoll_mpi at MPI_Dist_graph_create(_adjacent)): the Cartesian neighborhood
// detection finds (cartesian_detection.hpp), else the graph with graph-combining's set-up
// (Mirsadeghi et al.'s (Exploiting Common Neighborhoods) pattern extraction and matching,
// src/core/algorithms/graph_combining/combining_setup.hpp) and graph-routing's (src/core/algorithms/graph_routing/routing_setup.hpp) where the agreed
// algorithm needs them or `auto` may gain from them, and `auto`'s agreed verdict.
#include <mpi.h>

#include "runtime/comm/neighborhood.hpp"
#include "runtime/comm/settings.hpp"

namespace cartcoll::detail {

// Collective over `graph`, made from `parent` (this process is `rank` in `graph`, with `neighbors`);
// `settings` must be equal on every process. Under `auto` the set-up runs only where processes have
// on average at least 2Θ single out-neighbors (one allreduce decides), and `auto` then runs graph-combining
// for a collective where the cost model (CARTCOLL_PROFILE, else the default) predicts it faster at
// one element per block for the slowest process (one more allreduce). Where no phase budget was given,
// `auto` runs the set-up once per candidate budget and keeps the one the model prefers (the same
// allreduce). Where blocks are asserted uniform, graph-routing's set-up runs too, forced or, under
// `auto`, in lockstep on a few grids, which the same allreduce weighs. docs/graph-combining.md,
// docs/graph-routing.md.
Neighborhood neighborhood_at_creation(MPI_Comm parent, MPI_Comm graph, int rank, GraphNeighborhood neighbors,
                                      const Settings& settings);

}  // namespace cartcoll::detail
