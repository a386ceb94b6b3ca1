#pragma once
// A sparse exchange where receivers do not know their senders (NBX, Hoefler et al., PPoPP 2010):
// synchronous sends, probes for whatever arrives, and a nonblocking barrier entered once all of this
// process's sends have been matched; when the barrier completes, every message has been received.
// Memory and messages are proportional to what this process sends and receives, never to the
// communicator's size, and a graph that is inconsistent cannot make it hang.
#include <mpi.h>

#include <vector>

#include "../graph/transport.hpp"

namespace cartcoll::detail {

// Collective over comm (a private communicator: it uses `tag` with MPI_ANY_SOURCE, and tag + 2 for
// the barrier's messages where it sends any). Received parcels are in no particular order.
std::vector<Parcel> sparse_exchange(MPI_Comm comm, int tag, const std::vector<Parcel>& outgoing);

}  // namespace cartcoll::detail
