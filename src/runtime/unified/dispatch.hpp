// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) collectives by topology: which
// way a call goes (a graph's neighborhoods through the library's engine, or MPI's own collective),
// for the C++ API and the C layer. The C layer hands a forwarded nonblocking or persistent call's
// MPI request back as it is, so that it costs nothing and works with MPI's own request functions
// too; the C++ API wraps it in a Request.
#include <mpi.h>

#include <functional>

#include "cartcoll/layout.hpp"
#include "cartcoll/unified_collectives.hpp"

namespace cartcoll::detail {

// The lengths of a call's arrays: on a graph this process's in-degree (receive side) and out-degree
// (send side); elsewhere the number of MPI's peers, both ways. Local.
Degrees array_lengths(MPI_Comm comm);

// A started or startable call: MPI's own request, or one of the library's (exactly one is set).
struct Started {
  MPI_Request mpi = MPI_REQUEST_NULL;
  Request library;
};

Started start_call(MPI_Comm comm, const unified::Call& call);
// `make_call` may throw a bad argument: on a graph every process then fails alike. `native`: use MPI's
// persistent collective where the MPI has one (false: build the persistent request from the
// nonblocking call, as on an MPI without them; for the tests).
Started init_call(MPI_Comm comm, const std::function<unified::Call()>& make_call, MPI_Info info, bool native = true);

}  // namespace cartcoll::detail
