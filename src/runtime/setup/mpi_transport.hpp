// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The MPI transport: one process's round protocol over a communicator, one sparse exchange (NBX, or
// routed under SMPI: src/runtime/comm/sparse_exchange.hpp) per round, so nothing is sized by the communicator.
#include <mpi.h>

#include "runtime/comm/sparse_exchange.hpp"
#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/setup/transport.hpp"

namespace cartcoll::detail {

// Collective over `comm`, a private communicator (the sparse exchange probes it for any source):
// every process runs its own protocol, all of them the same number of rounds. If the protocol throws
// on any process, every process throws after the last round (the failing one its own error, the
// others one of the same class), and none hangs. Returns what this process sent; `seconds` is its
// wall time, waiting included. Each round is one sparse exchange of the given kind.
SetupTraffic run_over_mpi(MPI_Comm comm, RoundProtocol& protocol, ExchangeKind kind = usable_exchange);

}  // namespace cartcoll::detail
