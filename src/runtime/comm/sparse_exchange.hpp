// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A sparse exchange where receivers do not know their senders (NBX, Hoefler et al., PPoPP 2010):
// synchronous sends, probes for whatever arrives, and a nonblocking barrier entered once all of this
// process's sends have been matched; when the barrier completes, every message has been received.
// Memory and messages are proportional to what this process sends and receives, never to the
// communicator's size, and a graph that is inconsistent cannot make it hang.
#include <mpi.h>

#include <vector>

#include "core/setup/transport.hpp"
#include "simulated_mpi.hpp"

namespace cartcoll::detail {

// How the exchange runs: `probing` is NBX. `routed` passes parcels along the dissemination pattern
// instead (Bruck et al.'s index algorithm: in step k every process hands rank + 2^k the parcels
// whose remaining distance has bit k set), ceil(log2 p) blocking pairwise steps of two messages,
// with no probe and no test: under SimGrid's SMPI (3.32) an MPI_Test that completes a request
// leaves its activity in the simulated process's list, which SimGrid then searches at every later
// completion, so NBX's polling made a set-up at 1024 simulated processes take hours
// (docs/simulation.md). A process forwards others' parcels there, through up to log2 p hops, which
// the set-up's bound (work per process proportional to its own neighborhoods) excludes: `routed` is
// the simulation's only.
enum class ExchangeKind { probing, routed };
inline constexpr ExchangeKind usable_exchange = mpi_is_simulated ? ExchangeKind::routed : ExchangeKind::probing;

// Collective over comm (a private communicator: it uses `tag` with MPI_ANY_SOURCE, and tag + 2 for
// the barrier's messages where it sends any). Received parcels are in no particular order, except
// that a sender's parcels to one process keep their order.
std::vector<Parcel> sparse_exchange(MPI_Comm comm, int tag, const std::vector<Parcel>& outgoing,
                                    ExchangeKind kind = usable_exchange);

}  // namespace cartcoll::detail
