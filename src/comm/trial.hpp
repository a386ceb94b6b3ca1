#pragma once
// `auto` by measurement: the candidate schedules run a few times each on scratch buffers shaped
// like the call's (same counts and datatypes), the way the call will run them, and the fastest wins.
#include <mpi.h>

#include <optional>
#include <span>

#include "cartcoll/layout.hpp"
#include "cartcoll/plan.hpp"
#include "state.hpp"

namespace cartcoll::detail {

// Collective over `library_comm`. Every process returns the same algorithm: the one whose median
// time, taken as the maximum over processes, is lowest; the first candidate keeps ties within
// 2 %. nullopt, on every process alike, when the scratch buffers would exceed the budget.
std::optional<Algorithm> fastest_by_trial(NeighborhoodState& state, MPI_Comm library_comm, const Layout& layout,
                                          std::span<const Algorithm> candidates, CallKind kind);

}  // namespace cartcoll::detail
