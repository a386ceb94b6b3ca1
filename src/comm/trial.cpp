#include "trial.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "../exec/block_arena.hpp"
#include "../exec/mpi_check.hpp"
#include "../exec/mpi_executor.hpp"

namespace cartcoll::detail {

namespace {

// The user's buffers already take this much; the trial allocates it again (send and receive side)
// plus the schedule's temp buffer, so it stays modest. Blocks are the same size everywhere (the
// isomorphic contract), so every process reaches the same verdict.
constexpr std::size_t scratch_budget = std::size_t{64} << 20;
constexpr int warm_ups = 2;
// Oversubscribed machines time a run within ±20 %: as many runs as fit in a quarter of a second,
// at least 7 (large blocks), at most 31 (small ones).
constexpr int fewest_runs = 7, most_runs = 31;
constexpr double run_budget_seconds = 0.25;
constexpr double tie_margin = 0.02;

double median(std::vector<double> values) {
  std::nth_element(values.begin(), values.begin() + static_cast<long>(values.size() / 2), values.end());
  return values[values.size() / 2];
}

// One candidate as the call would run it: a blocking call posts its messages afresh each time
// (with its datatypes from the communicator's cache after the first); a persistent request builds
// everything once, at init, so its runs time start and wait only.
class Candidate {
 public:
  Candidate(const Schedule& schedule, const Layout& layout, MPI_Comm comm, int tag, CallKind kind)
      : schedule_(&schedule), layout_(&layout), comm_(comm), tag_(tag) {
    if (kind == CallKind::persistent)
      persistent_ = std::make_unique<Execution>(schedule, layout, comm, tag, Execution::Mode::persistent);
  }

  // One barrier-aligned run, in seconds.
  double run() {
    check(MPI_Barrier(comm_), "MPI_Barrier");
    const double start = MPI_Wtime();
    if (persistent_) {
      persistent_->start();
      persistent_->wait();
    } else {
      Execution execution(*schedule_, *layout_, comm_, tag_, Execution::Mode::once, {&cache_, true});
      execution.start();
      execution.wait();
    }
    return MPI_Wtime() - start;
  }

 private:
  const Schedule* schedule_;
  const Layout* layout_;
  MPI_Comm comm_;
  int tag_;
  std::unique_ptr<Execution> persistent_;
  TypeCache cache_;  // as the communicator's cache serves repeated blocking calls
};

long long received_bytes(const Layout& layout) {
  long long total = 0;
  for (const BlockSpec& block : layout.recv) {
    int size = 0;
    check(MPI_Type_size(block.type, &size), "MPI_Type_size");
    total += static_cast<long long>(size) * block.count;
  }
  return total;
}

// With CARTCOLL_VERBOSE_AUTO set, rank 0 says what it measured and chose (every rank has the
// same figures after the allreduce).
void report(MPI_Comm comm, const Layout& layout, std::span<const Algorithm> candidates,
            std::span<const double> medians, int runs, Algorithm chosen) {
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  if (rank != 0 || std::getenv("CARTCOLL_VERBOSE_AUTO") == nullptr) return;
  std::ostringstream line;
  line << "cartcoll auto: " << (layout.collective == Collective::alltoall ? "alltoall" : "allgather") << ", "
       << received_bytes(layout) << " bytes received per call, median of " << runs << " runs:";
  for (std::size_t c = 0; c < candidates.size(); ++c)
    line << ' ' << algorithm_name(candidates[c]) << ' ' << medians[c] * 1e6 << " us;";
  line << " chose " << algorithm_name(chosen) << '\n';
  std::fputs(line.str().c_str(), stderr);
}

// Every process must run as often as the others: the warm-ups' duration, maximum over processes,
// decides how many runs fit the budget.
int agreed_runs(double warm_up_seconds, MPI_Comm comm) {
  check(MPI_Allreduce(MPI_IN_PLACE, &warm_up_seconds, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
  const double per_run = std::max(warm_up_seconds / warm_ups, 1e-9);
  return static_cast<int>(std::clamp(run_budget_seconds / per_run, double{fewest_runs}, double{most_runs}));
}

// Each candidate's median run time, and the number of runs. Runs are interleaved, so drift in the
// machine's load hits every candidate alike; a run's time is the maximum over processes (one
// allreduce at the end), as the benchmark counts it.
std::pair<std::vector<double>, int> median_times(std::vector<Candidate>& runners, MPI_Comm comm) {
  double warm_up_seconds = 0;
  for (int run = 0; run < warm_ups; ++run)
    for (Candidate& runner : runners) warm_up_seconds += runner.run();
  const int runs = agreed_runs(warm_up_seconds, comm);
  const auto per_candidate = static_cast<std::size_t>(runs);
  std::vector<double> times(runners.size() * per_candidate);
  for (std::size_t run = 0; run < per_candidate; ++run)
    for (std::size_t c = 0; c < runners.size(); ++c) times[c * per_candidate + run] = runners[c].run();
  check(MPI_Allreduce(MPI_IN_PLACE, times.data(), static_cast<int>(times.size()), MPI_DOUBLE, MPI_MAX, comm),
        "MPI_Allreduce");
  std::vector<double> medians;
  for (std::size_t c = 0; c < runners.size(); ++c)
    medians.push_back(median({times.begin() + static_cast<long>(c * per_candidate),
                              times.begin() + static_cast<long>((c + 1) * per_candidate)}));
  return {medians, runs};
}

}  // namespace

std::optional<Algorithm> fastest_by_trial(NeighborhoodState& state, MPI_Comm library_comm, const Layout& layout,
                                          std::span<const Algorithm> candidates, CallKind kind) {
  int size = 0;
  check(MPI_Comm_size(library_comm, &size), "MPI_Comm_size");
  if (size == 1) return candidates.front();  // every neighbor is the process itself: only copies
  if (BlockArena::bytes_for(layout.send) + BlockArena::bytes_for(layout.recv) > scratch_budget) return std::nullopt;
  const BlockArena send(layout.send), recv(layout.recv);
  Layout scratch{layout.collective, {send.blocks().begin(), send.blocks().end()},
                 {recv.blocks().begin(), recv.blocks().end()}};
  std::vector<std::shared_ptr<const Schedule>> schedules;
  std::vector<Candidate> runners;
  runners.reserve(candidates.size());
  for (Algorithm candidate : candidates) {
    schedules.push_back(state.schedule(layout.collective, candidate));
    runners.emplace_back(*schedules.back(), scratch, library_comm, state.next_tag(), kind);
  }
  const auto [medians, runs] = median_times(runners, library_comm);
  std::size_t best = 0;
  for (std::size_t c = 1; c < medians.size(); ++c)
    if (medians[c] < medians[best] * (1 - tie_margin)) best = c;
  report(library_comm, layout, candidates, medians, runs, candidates[best]);
  return candidates[best];
}

}  // namespace cartcoll::detail
