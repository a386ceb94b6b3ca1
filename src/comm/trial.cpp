#include "trial.hpp"

#include <algorithm>
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
constexpr std::size_t timed_runs = 7;
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
  // Interleaved, so drift in the machine's load hits every candidate alike. A run's time is the
  // maximum over processes (one allreduce at the end), as the benchmark counts it.
  std::vector<double> times(candidates.size() * timed_runs);
  for (int run = -warm_ups; run < static_cast<int>(timed_runs); ++run)
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      const double seconds = runners[c].run();
      if (run >= 0) times[c * timed_runs + static_cast<std::size_t>(run)] = seconds;
    }
  check(MPI_Allreduce(MPI_IN_PLACE, times.data(), static_cast<int>(times.size()), MPI_DOUBLE, MPI_MAX, library_comm),
        "MPI_Allreduce");
  std::vector<double> medians;
  for (std::size_t c = 0; c < candidates.size(); ++c)
    medians.push_back(median({times.begin() + static_cast<long>(c * timed_runs),
                              times.begin() + static_cast<long>((c + 1) * timed_runs)}));
  std::size_t best = 0;
  for (std::size_t c = 1; c < medians.size(); ++c)
    if (medians[c] < medians[best] * (1 - tie_margin)) best = c;
  return candidates[best];
}

}  // namespace cartcoll::detail
