#pragma once
// Resolves `auto` per call: calibrated cost model x the neighborhood's schedule figures.
#include <mpi.h>

#include "cartcoll/cost.hpp"
#include "cartcoll/layout.hpp"
#include "state.hpp"

namespace cartcoll::detail {

// Collective the first time a communicator needs its cost model (it calibrates); every process
// makes the same choice because figures, block sizes and the model are the same everywhere.
Algorithm resolve_algorithm(NeighborhoodState& state, MPI_Comm user_comm, Algorithm requested, const Layout& layout);

// A short collective measurement of latency, per-message overhead and per-byte time on comm,
// identical on every process (the maximum over processes). CARTCOLL_PROFILE names a file written by
// cartcoll-calibrate to use instead.
CostModel calibrate(MPI_Comm comm, int tag);
CostModel cost_model_for(MPI_Comm comm, int tag);

}  // namespace cartcoll::detail
