// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The communicators and checks every family of the errors suite shares: the rings and graphs the
// cases run on, and the full, checked calls that show a communicator still works after a case.
#include <mpi.h>

#include <array>
#include <initializer_list>

#include "../support/api_table.hpp"
#include "../support/graph_case.hpp"

namespace errors {

// MPI_Dist_graph_create_adjacent or CC_Dist_graph_create_adjacent.
using AdjacentCreate = int (*)(MPI_Comm, int, const int[], const int[], int, const int[], const int[], MPI_Info, int,
                               MPI_Comm*);

// A distributed graph over MPI_COMM_WORLD made by MPI (repeated and self edges), MPI_ERRORS_RETURN.
MPI_Comm graph_comm(unsigned seed);
// A directed ring over MPI_COMM_WORLD made by MPI_Dist_graph_create_adjacent (each process sends to
// the next): no repeated edge at any size, which MPIs' own collectives may pair differently.
// MPI_ERRORS_RETURN.
MPI_Comm ring_comm();
// A ring with both directions over MPI_COMM_WORLD made by `create` (repeated edges at 2 processes,
// self edges at 1); its error code, the communicator as `create` leaves it.
int ring_adjacent(AdjacentCreate create, MPI_Comm* graph);
// A ring made by Cart_neighborhood_create over MPI_COMM_WORLD with `offsets`; its error code.
int cart_ring(std::initializer_list<int> offsets, MPI_Comm* ring);
// The ring with offsets -1 and +1, MPI_ERRORS_RETURN.
MPI_Comm cart_ring();

// Whether CARTCOLL_TEST_EXPECT says the layer must be in front of MPI (layer) or not (native).
bool layer_expected();
// Whether MPI_Wait is libcartcoll_mpi's (preloaded or linked): the object that defines it is not
// the MPI library.
bool layer_in_front();

// A nonblocking, a blocking and a persistent alltoallv of per-edge sizes and mixed datatypes on comm,
// every receive block checked against the graph reference model.
void expect_usable(MPI_Comm comm, const support::Api& api);
// One blocking alltoall on comm by `api`, checked against the graph reference model on `graph`
// paired as `pairing` says: where which call comes first matters (the first call sets a
// communicator up).
void expect_full_call(MPI_Comm comm, const cartcoll::Graph& graph, support::Pairing pairing, unsigned seed,
                      const support::Api& api = support::cc_api);

// Three ints per block of cart_ring(), each naming its sender, block and element.
struct RingBlocks {
  std::array<int, 6> send{}, recv{};
  void prepare(int generation);
  // Block i comes from the process at -offset[i], which sent it as its block i.
  bool arrived(int generation) const;
};

// A blocking Cart_alltoall of RingBlocks on cart_ring(), checked; the class on every process.
void expect_cart_usable(MPI_Comm ring);

}  // namespace errors
