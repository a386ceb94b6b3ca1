// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A cost model for `auto` (CARTCOLL_PROFILE, read where a communicator is made), for the tests whose
// choice must follow the model.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace support {

// Writes `line` (latency, per-message and per-byte seconds) to a file on rank 0 and points
// CARTCOLL_PROFILE at it everywhere; the caller unsets it and removes the file. The name carries rank
// 0's process id, so that tests running side by side (ctest -j) never share it.
inline std::string use_profile(const std::string& line) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const std::string file = "cartcoll_test." + std::to_string(id) + ".profile";
  if (rank == 0) {
    FILE* out = std::fopen(file.c_str(), "w");
    std::fputs(line.c_str(), out);
    std::fclose(out);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  setenv("CARTCOLL_PROFILE", file.c_str(), 1);
  return file;
}

}  // namespace support
