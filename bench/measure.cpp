// SPDX-License-Identifier: BSD-3-Clause
#include "measure.hpp"

#include "core/support/median.hpp"

#include <algorithm>
#include <numeric>
#include <random>

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
  // Each round of turns runs the implementations in an order of its own, drawn from the round number
  // (the same on every rank), so that no implementation mostly runs right after the same other one:
  // the one after a heavy implementation pays its leftovers (the untimed lead does not absorb all of
  // them), and with a fixed order, or one only rotated, that was always the same one.
  std::vector<std::size_t> order(runs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (int done = 0, round = 0; done < reps; done += batch, ++round) {
    std::mt19937 draw(static_cast<std::mt19937::result_type>(round));
    std::shuffle(order.begin(), order.end(), draw);
    for (const std::size_t k : order) {
      if (batch > 1) timed_call(runs[k]);  // the turn's untimed lead
      for (int rep = done; rep < std::min(done + batch, reps); ++rep) times[k].push_back(timed_call(runs[k]));
    }
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
