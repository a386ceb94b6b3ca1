// cartcoll-calibrate: measures the cost model that `auto` uses and writes it to a profile file, so
// that later runs (CARTCOLL_PROFILE=file) skip the calibration at their first `auto` call.
//   mpirun -n P cartcoll-calibrate [FILE]      (default: $CARTCOLL_PROFILE, else cartcoll.profile)
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cartcoll/cartcoll.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const char* from_env = std::getenv("CARTCOLL_PROFILE");
  const std::string file = argc > 1 ? argv[1] : (from_env && *from_env ? from_env : "cartcoll.profile");
  int rank = 0, size = 0, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const cartcoll::CostModel model = cartcoll::calibrate(MPI_COMM_WORLD);
  if (rank == 0) {
    if (FILE* out = std::fopen(file.c_str(), "w")) {
      // One line: latency, per-message and per-byte seconds (what cost_model_for reads).
      std::fprintf(out, "%.9e %.9e %.9e\n", model.latency, model.per_message, model.per_byte);
      std::fclose(out);
      std::printf("%d processes: latency %.2f us, per message %.2f us, per byte %.3f ns -> %s\n", size,
                  model.latency * 1e6, model.per_message * 1e6, model.per_byte * 1e9, file.c_str());
    } else {
      std::fprintf(stderr, "cartcoll-calibrate: cannot write %s\n", file.c_str());
      status = 1;
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
