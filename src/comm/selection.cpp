#include "selection.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "../exec/mpi_check.hpp"
#include "cartcoll/cartcoll.hpp"
#include "trial.hpp"

namespace cartcoll::detail {

namespace {

// Seconds for one exchange in which every process sends `messages` messages of `bytes` bytes to
// the next ranks and receives as many from the previous ones: median of repetitions, then the
// maximum over processes.
double exchange_time(MPI_Comm comm, int tag, int messages, int bytes) {
  int size = 0, rank = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  std::vector<char> out(static_cast<std::size_t>(bytes) * static_cast<std::size_t>(messages), 1), in(out.size());
  std::vector<MPI_Request> requests(2 * static_cast<std::size_t>(messages));
  std::vector<double> times;
  for (int rep = -3; rep < 21; ++rep) {
    check(MPI_Barrier(comm), "MPI_Barrier");
    const double start = MPI_Wtime();
    for (int j = 0; j < messages; ++j) {
      const auto at = static_cast<std::size_t>(j) * static_cast<std::size_t>(bytes);
      check(MPI_Irecv(in.data() + at, bytes, MPI_BYTE, (rank - 1 - j + size * (j + 1)) % size, tag, comm,
                      &requests[2 * static_cast<std::size_t>(j)]), "MPI_Irecv");
      check(MPI_Isend(out.data() + at, bytes, MPI_BYTE, (rank + 1 + j) % size, tag, comm,
                      &requests[2 * static_cast<std::size_t>(j) + 1]), "MPI_Isend");
    }
    check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    if (rep >= 0) times.push_back(MPI_Wtime() - start);
  }
  std::nth_element(times.begin(), times.begin() + static_cast<long>(times.size() / 2), times.end());
  double median = times[times.size() / 2];
  check(MPI_Allreduce(MPI_IN_PLACE, &median, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  return median;
}

}  // namespace

CostModel calibrate(MPI_Comm comm, int tag) {
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (size == 1) return CostModel{};  // every neighbor is the process itself: nothing to choose
  constexpr int large = 1 << 16;
  const int many = std::min(8, size - 1);
  const double one = exchange_time(comm, tag, 1, 1), several = exchange_time(comm, tag, many, 1),
               big = exchange_time(comm, tag, 1, large);
  CostModel model;
  model.per_message = many > 1 ? std::max(0.0, (several - one) / (many - 1)) : 0.0;
  model.latency = std::max(one - model.per_message, 1e-7);
  model.per_byte = std::max((big - one) / (large - 1), 1e-12);
  return model;
}

std::optional<CostModel> profile_model(MPI_Comm comm) {
  double values[4] = {0, 0, 0, 0};  // found, latency, per message, per byte: rank 0's file
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const char* profile = std::getenv("CARTCOLL_PROFILE");
  if (rank == 0 && profile != nullptr && *profile != '\0') {
    std::ifstream in(profile);
    if (in >> values[1] >> values[2] >> values[3]) values[0] = 1;
  }
  check(MPI_Bcast(values, 4, MPI_DOUBLE, 0, comm), "MPI_Bcast");
  if (values[0] == 0) return std::nullopt;
  return CostModel{values[1], values[2], values[3]};
}

namespace {

std::vector<std::size_t> block_bytes(const Layout& layout) {
  std::vector<std::size_t> bytes;
  for (const BlockSpec& block : layout.recv) {
    int size = 0;
    check(MPI_Type_size(block.type, &size), "MPI_Type_size");
    bytes.push_back(static_cast<std::size_t>(size) * static_cast<std::size_t>(block.count));
  }
  return bytes;
}

Algorithm cheapest_by_model(NeighborhoodState& state, const CostModel& model, const Layout& layout) {
  const auto bytes = block_bytes(layout);
  Algorithm best = candidate_algorithms[0];
  double best_seconds = 0;
  for (Algorithm candidate : candidate_algorithms) {
    const double seconds = predicted_seconds(state.figures(layout.collective, candidate), model, bytes, layout.collective);
    if (candidate == candidate_algorithms[0] || seconds < best_seconds) {
      best = candidate;
      best_seconds = seconds;
    }
  }
  return best;
}

// Half an octave of the bytes a process receives per call: fine enough that the crossover between
// algorithms is found to within about 40 %, coarse enough that a sweep of sizes measures rarely.
int size_class(const Layout& layout) {
  std::size_t total = 0;  // summed in place: this runs on every `auto` call
  for (const BlockSpec& block : layout.recv) {
    int size = 0;
    check(MPI_Type_size(block.type, &size), "MPI_Type_size");
    total += static_cast<std::size_t>(size) * static_cast<std::size_t>(block.count);
  }
  return total == 0 ? -1 : static_cast<int>(std::floor(2 * std::log2(static_cast<double>(total))));
}

}  // namespace

Algorithm resolve_algorithm(NeighborhoodState& state, MPI_Comm user_comm, Algorithm requested, const Layout& layout,
                            CallKind kind) {
  if (requested != Algorithm::automatic) return requested;
  const MPI_Comm library = state.library_comm(user_comm);
  AutoChoices& choices = state.auto_choices;
  if (!choices.profile_read) {
    choices.profile = profile_model(library);
    choices.profile_read = true;
  }
  if (choices.profile) return cheapest_by_model(state, *choices.profile, layout);
  const std::tuple key{layout.collective, size_class(layout), kind};
  if (const auto known = choices.measured.find(key); known != choices.measured.end()) return known->second;
  if (const auto fastest = fastest_by_trial(state, library, layout, candidate_algorithms, kind)) {
    choices.measured.emplace(key, *fastest);
    return *fastest;
  }
  if (!choices.calibrated) choices.calibrated = calibrate(library, state.next_tag());
  return cheapest_by_model(state, *choices.calibrated, layout);
}

}  // namespace cartcoll::detail

namespace cartcoll {

CostModel calibrate(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  MPI_Comm own = MPI_COMM_NULL;
  detail::check(MPI_Comm_dup(comm, &own), "MPI_Comm_dup");
  const Communicator owner(own);  // frees the duplicate on every path
  detail::check(MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  return detail::calibrate(own, 0);
}

}  // namespace cartcoll
