// SPDX-License-Identifier: BSD-3-Clause
// cartcoll-calibrate: measures the cost model that `auto` uses and writes it to a profile file, so
// that later runs (CARTCOLL_PROFILE=file) skip the calibration at their first `auto` call.
//   mpirun -n P cartcoll-calibrate [FILE]      (default: $CARTCOLL_PROFILE, else cartcoll.profile)
// The command line is read before MPI_Init, so that --help, --version and a bad argument need no MPI
// run.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "cartcoll/cartcoll.hpp"
#include "util/cli.hpp"

namespace {

constexpr const char* tool = "cartcoll-calibrate";

constexpr const char* usage =
    "usage: mpirun -n P cartcoll-calibrate [FILE]\n"
    "       cartcoll-calibrate --help | --version\n"
    "Measures the cost model that the `auto` algorithm uses (latency, per-message and per-byte costs,\n"
    "from timed exchanges between the P >= 2 processes) and writes it to FILE, one line of three\n"
    "numbers in seconds. Later runs with CARTCOLL_PROFILE=FILE read it instead of measuring.\n"
    "FILE: default $CARTCOLL_PROFILE, else cartcoll.profile.\n";

struct Request {
  std::string file;
  bool help = false, version = false;
};

// nullopt and `error` set for a bad command line.
std::optional<Request> parse(const std::vector<std::string>& args, std::string& error) {
  Request request;
  std::vector<std::string> files;
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") request.help = true;
    else if (arg == "--version") request.version = true;
    else if (arg.starts_with("-")) error = cartcoll::cli::unknown_argument(arg);
    else files.push_back(arg);
    if (!error.empty()) return std::nullopt;
  }
  if (files.size() > 1) {
    error = cartcoll::cli::unknown_argument(files[1]) + " (one FILE only)";
    return std::nullopt;
  }
  const char* from_env = std::getenv("CARTCOLL_PROFILE");
  request.file = !files.empty() ? files[0] : (from_env && *from_env ? from_env : "cartcoll.profile");
  return request;
}

// Rank 0 writes the model; returns the exit status every process returns.
int write_profile(const cartcoll::CostModel& model, const std::string& file, int size) {
  FILE* out = std::fopen(file.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "%s: cannot write %s\n", tool, file.c_str());
    return 1;
  }
  // One line: latency, per-message and per-byte seconds (what cost_model_for reads).
  std::fprintf(out, "%.9e %.9e %.9e\n", model.latency, model.per_message, model.per_byte);
  std::fclose(out);
  std::printf("%d processes: latency %.2f us, per message %.2f us, per byte %.3f ns -> %s\n", size,
              model.latency * 1e6, model.per_message * 1e6, model.per_byte * 1e9, file.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = cartcoll::cli;
  std::string error;
  const auto request = parse(std::vector<std::string>(argv + 1, argv + argc), error);
  if (!request || request->help || request->version) {
    if (cli::first_launched_process()) {
      if (!request) std::fprintf(stderr, "%s\n", cli::bad_argument_line(tool, error).c_str());
      else if (request->help) std::fputs(usage, stdout);
      else std::printf("%s\n", cli::version_line(tool).c_str());
    }
    return request ? 0 : 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, status = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    std::fprintf(stderr, "%s: one process cannot measure messages between processes; run it on at least 2 "
                 "(mpirun -n 2 %s); nothing written\n", tool, tool);
    MPI_Finalize();
    return 1;
  }
  const cartcoll::CostModel model = cartcoll::calibrate(MPI_COMM_WORLD);
  if (rank == 0) status = write_profile(model, request->file, size);
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
