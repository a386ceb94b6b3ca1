#pragma once
// PMPI counter of the point-to-point messages and bytes this process sends (a copy of the part of
// tests/support/traffic_census the benchmark needs, so that it builds without the tests):
// MPI_Send, MPI_Isend, MPI_Sendrecv, and MPI_Start/MPI_Startall on persistent sends (their sizes
// remembered at MPI_Send_init). Nested wrapped calls count once. Sends an MPI library makes
// internally (inside MPI_Neighbor_*, say) go past PMPI and are not seen.
#include <mpi.h>

namespace traffic {

struct Count {
  long long messages = 0;
  long long bytes = 0;
};

void reset();
Count read();

}  // namespace traffic
