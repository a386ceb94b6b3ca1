// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Resolves `auto` per call. Every choice is made from values that are the same on every process (the
// bytes of the call's blocks, equal everywhere by the Cartesian contract; what earlier collective
// calls measured) or agreed at a collective point, so all processes run the same schedule:
// - a size class already measured on this communicator (for this collective and call kind) is reused;
// - else a call that may communicate (blocking calls, *_init) measures the candidates on scratch
//   buffers (trial.hpp) and keeps the winner for the class, or, where the scratch buffers would be too
//   large, calibrates the cost model once and asks it;
// - else (a nonblocking call, which never communicates before it returns) the cost model decides:
//   the calibrated one if an earlier call calibrated, else the default model.
// On a graph where graph-combining's set-up ran, a limit on the block size takes the place of the
// size class (graph_choice in selection.cpp).
// With CARTCOLL_PROFILE set at creation, the profile's model decides and nothing is measured.
#include <mpi.h>

#include <cstdint>

#include "core/planning/cost.hpp"
#include "cartcoll/layout.hpp"
#include "runtime/comm/state.hpp"

namespace cartcoll::detail {

// What a call may do to choose: nothing but local work (a nonblocking call); communicate, at a
// collective point whose block sizes are already compared (init) or free to differ (MPI's
// contract); or communicate after comparing them (a blocking call under Träff and Hunold's
// (Cartesian Collective Communication) contract, whose processes pass the same sizes: sizes that
// differ would have the processes measure different things, or only some of them measure, and hang;
// one allreduce makes them Errc::count everywhere).
enum class ChoicePoint : std::uint8_t { local, collective, collective_comparing_sizes };

Choice resolve_algorithm(CommState& state, Algorithm requested, const Layout& layout, CallKind kind,
                         ChoicePoint point);

// A short collective measurement of latency, per-message overhead and per-byte time on comm,
// identical on every process (the maximum over processes).
CostModel calibrate(MPI_Comm comm, TagSpace& tags);

}  // namespace cartcoll::detail
