#include "measure.hpp"

#include "util/median.hpp"

#include <algorithm>

#include "traffic_census.hpp"

namespace bench {
namespace {

// Linear interpolation between closest ranks, on sorted values.
double quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

double max_over_ranks(double value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return value;
}

double timed_call(const Run& run) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  run();
  return max_over_ranks(MPI_Wtime() - start);
}

}  // namespace

std::vector<std::vector<double>> time_interleaved(const std::vector<Run>& runs, int reps, int warmup, int batch) {
  std::vector<std::vector<double>> times(runs.size());
  for (int rep = 0; rep < warmup; ++rep)
    for (const Run& run : runs) timed_call(run);
  // Each round of turns starts one implementation later than the one before, so that no implementation
  // always runs right after the same other one (whose leftovers, such as connections in rendezvous or
  // cold caches, it would otherwise pay every time).
  for (int done = 0, round = 0; done < reps; done += batch, ++round)
    for (std::size_t turn = 0; turn < runs.size(); ++turn) {
      const std::size_t k = (turn + static_cast<std::size_t>(round)) % runs.size();
      if (batch > 1) timed_call(runs[k]);  // the turn's untimed lead
      for (int rep = done; rep < std::min(done + batch, reps); ++rep) times[k].push_back(timed_call(runs[k]));
    }
  return times;
}

Summary summarize(std::vector<double> times) {
  Summary summary;
  summary.total = static_cast<int>(times.size());
  if (times.empty()) return summary;
  std::sort(times.begin(), times.end());
  const double q1 = quantile(times, 0.25), q3 = quantile(times, 0.75), iqr = q3 - q1;
  std::vector<double> kept;
  for (double t : times)
    if (t >= q1 - 3 * iqr && t <= q3 + 3 * iqr) kept.push_back(t);
  summary.kept = static_cast<int>(kept.size());
  summary.median = cartcoll::detail::median(kept);
  summary.min = kept.front();
  summary.max = kept.back();
  return summary;
}

Traffic count_traffic(const Run& run) {
  MPI_Barrier(MPI_COMM_WORLD);
  census::reset_traffic();
  run();
  const census::Traffic count = census::traffic();
  long long values[2] = {count.messages, count.bytes};
  MPI_Allreduce(MPI_IN_PLACE, values, 2, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return {values[0], values[1]};
}

}  // namespace bench
