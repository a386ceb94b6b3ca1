// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the tests of neighborhood collectives on MPI-made topologies share, whichever functions they
// call (Api: the library's CC_ functions, or MPI's names through libcartcoll_mpi): the same random
// graphs and topologies on every process, every form of a GraphCase run and checked, and arrays of
// requests, the library's and plain ones mixed, completed in rank-dependent orders by every
// completion function.
#include <mpi.h>

#include <vector>

#include "api_table.hpp"
#include "core/model/graph.hpp"
#include "graph_case.hpp"

namespace support {

// The same random graph on every process (same seed): repeated edges, self edges, isolated processes.
cartcoll::Graph shared_graph(unsigned seed, int max_out_degree = 5);

// MPI_Dist_graph_create_adjacent over MPI_COMM_WORLD with this process's lists of `graph`.
MPI_Comm mpi_adjacent(const cartcoll::Graph& graph);
// MPI_Graph_create: a ring, one chord per seed, the chord doubled and a self loop on rank 0.
MPI_Comm mpi_graph(unsigned seed);
// MPI_Cart_create over MPI_COMM_WORLD: 1 to 3 dimensions, periodic or not by the seed's bits (periodic
// dimensions of size 1 and 2 give repeated edges in MPI's order, meshes give MPI_PROC_NULL; blocks
// pair as Pairing::cartesian says).
MPI_Comm mpi_cart(unsigned seed);

// The blocking call, then a nonblocking one, then (where `api` has them) a persistent one started
// twice, each checked against the reference model; waits by api.wait, or api.test loops where `by_test`.
void run_all_forms(GraphCase& exchange, MPI_Comm comm, bool by_test, const Api& api = cc_api);

// Every neighborhood collective (neighbor_ops) once, blocking, on comm (any topology; its lists as
// gather_topology gives them), block sizes per edge, contents that depend on sender, block and
// element, checked against the reference model: how the error tests show that a communicator still
// delivers after errors. Collective.
void expect_every_neighbor_op_exact(MPI_Comm comm, unsigned seed);

// A plain MPI exchange around the ring on MPI_COMM_WORLD: two ordinary requests.
struct RingMessage {
  int out = 0, in = -1;
  void start(MPI_Request* requests, int generation);
  bool arrived(int generation) const;
};

// A permutation of 0..n-1 that differs between ranks.
std::vector<int> rank_order(int n, unsigned salt);

// How an array of requests is completed: one call for all, or repeated calls of the "any" and "some"
// functions (each index must come back once, then MPI_UNDEFINED), or a loop over single requests in
// a rank-dependent order (test: test until done; get_status: get_status until done, then wait).
enum class Completion { waitall, waitany, waitsome, testall, testany, testsome, test, get_status };
inline const Completion all_completions[] = {Completion::waitall,  Completion::waitany, Completion::waitsome,
                                             Completion::testall,  Completion::testany, Completion::testsome,
                                             Completion::test,     Completion::get_status};
const char* name(Completion how);

void complete_all(std::vector<MPI_Request>& requests, Completion how, unsigned salt, const Api& api = cc_api);

// Five nonblocking collectives on graph_comm, two on cart_comm and two plain requests (RingMessage)
// in one array in a rank-dependent order, completed by each Completion in turn; every result checked.
void nonblocking_mixed_with_plain(MPI_Comm graph_comm, MPI_Comm cart_comm, const Api& api = cc_api);
// Five persistent collectives on comm and two plain persistent requests (a message to itself),
// started together by api.startall and completed by each Completion in turn, then freed.
void persistent_mixed_with_plain(MPI_Comm comm, const Api& api = cc_api);

}  // namespace support
