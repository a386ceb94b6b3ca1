#pragma once
// Resolves `auto` per call: by measuring the candidates once per size class (trial.hpp), or by the
// cost model where CARTCOLL_PROFILE gives one or the call is too large to measure.
#include <mpi.h>

#include <optional>

#include "cartcoll/cost.hpp"
#include "cartcoll/layout.hpp"
#include "state.hpp"

namespace cartcoll::detail {

// Collective whenever it measures or calibrates (the first `auto` call of a size class); every
// process makes the same choice because block sizes, and the measurements after their allreduce,
// are the same everywhere.
Algorithm resolve_algorithm(NeighborhoodState& state, MPI_Comm user_comm, Algorithm requested, const Layout& layout,
                            CallKind kind);

// A short collective measurement of latency, per-message overhead and per-byte time on comm,
// identical on every process (the maximum over processes).
CostModel calibrate(MPI_Comm comm, int tag);
// The model in the file CARTCOLL_PROFILE names (written by cartcoll-calibrate), read on rank 0 and
// broadcast; nullopt everywhere if there is none.
std::optional<CostModel> profile_model(MPI_Comm comm);

}  // namespace cartcoll::detail
