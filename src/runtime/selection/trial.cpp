// SPDX-License-Identifier: BSD-3-Clause
#include "trial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <numeric>
#include <sstream>
#include <vector>

#include "runtime/exec/block_arena.hpp"
#include "runtime/exec/mpi_check.hpp"
#include "runtime/exec/mpi_executor.hpp"
#include "core/support/median.hpp"
#include "runtime/comm/collective.hpp"
#include "runtime/comm/verbs.hpp"

namespace cartcoll::detail {

namespace {

// The user's buffers already take this much; the trial allocates it again (send and receive side)
// plus the schedule's temp blocks, so it stays modest.
constexpr long long scratch_budget = 64LL << 20;
constexpr int warm_ups = 2;
// Oversubscribed machines time a run within ±20 %: as many runs as fit in a quarter of a second,
// at least 7 (large blocks), at most 31 (small ones).
constexpr int fewest_runs = 7, most_runs = 31;
constexpr double run_budget_seconds = 0.25;
constexpr double tie_margin = 0.02;
// The trial's bound: a candidate whose quickest warm-up run (maximum over processes) took more than
// give_up_factor times the quickest, and more than a run of the budget's most runs, is not run
// again (a cheap run stays measured: it costs little, and a first run is slow for any candidate that
// builds its datatypes); one the cost model prices at more than unrun_factor times the cheapest is
// not run at all (a schedule of 100,000 messages against one of a few: its one run would cost
// seconds where the winner's takes a millisecond).
constexpr double give_up_factor = 4;
constexpr double unrun_factor = 64;
constexpr double cheap_run_seconds = run_budget_seconds / most_runs;

// One candidate as the call would run it. A persistent request builds everything once, at init, so
// its runs time start and wait only. A repeated blocking call runs the execution it kept where
// keeps_execution says so, else builds a new one each time, its datatypes from the communicator's
// cache. (Building one in every run charged combining's lowering to each run: 4.1 against its real
// 0.7 us at 2 processes, 1 int, Moore 3-D, shared memory, and `auto` chose trivial at 2.2 us.)
class Candidate {
 public:
  Candidate(const Schedule& schedule, const Layout& layout, MPI_Comm comm, int tag, CallKind kind,
            std::size_t stage_up_to)
      : schedule_(&schedule), layout_(&layout), comm_(comm), tag_(tag), stage_up_to_(stage_up_to) {
    if (kind == CallKind::persistent)
      persistent_ = std::make_unique<Execution>(schedule, layout, comm, tag, Reuse{nullptr, false, stage_up_to});
    else if (keeps_execution(layout))
      kept_ = std::make_unique<Execution>(schedule, layout, comm, tag, Reuse{&cache_, false, stage_up_to});
  }

  // One barrier-aligned run, in seconds.
  double run() {
    barrier(comm_, tag_);
    const double start = MPI_Wtime();
    if (persistent_) {
      persistent_->start();
      ProgressEngine::instance().wait(*persistent_);
    } else if (kept_) {
      kept_->run();
    } else {
      Execution(*schedule_, *layout_, comm_, tag_, {&cache_, true, stage_up_to_}).run();
    }
    return MPI_Wtime() - start;
  }

 private:
  const Schedule* schedule_;
  const Layout* layout_;
  MPI_Comm comm_;
  int tag_;
  std::size_t stage_up_to_;
  TypeCache cache_;  // as the communicator's cache serves blocking calls; outlives the executions
  std::unique_ptr<Execution> persistent_, kept_;
};

// Fresh memory laid out like a layout's blocks, and the layout naming it: what the candidates run on,
// so that a trial never touches the call's buffers.
class Scratch {
 public:
  explicit Scratch(const Layout& like)
      : send_(like.send),
        recv_(like.recv),
        layout_{like.collective, {send_.blocks().begin(), send_.blocks().end()},
                {recv_.blocks().begin(), recv_.blocks().end()}, like.one_block_size} {}
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const Layout& layout() const noexcept { return layout_; }

 private:
  BlockArena send_, recv_;
  Layout layout_;
};

// What the trial measured: per candidate, the median run time (the one run's time where it ran
// once; infinity where it never ran) and how often it ran (warm-ups included).
struct Measured {
  std::vector<double> medians;
  std::vector<int> runs;
};

// With CARTCOLL_VERBOSE_AUTO set at creation, rank 0 says what it measured and chose (every rank
// has the same figures after the allreduce): per candidate its median and runs, or that the model
// priced it out.
void report(const CommState& state, const Layout& layout, std::span<const Algorithm> candidates,
            const Measured& measured, Algorithm chosen) {
  if (state.rank != 0 || !state.settings.verbose_auto) return;
  std::ostringstream line;
  line << "cartcoll auto: " << (layout.collective == Collective::alltoall ? "alltoall" : "allgather") << ", "
       << bytes_of(layout.recv) << " bytes received per call:";
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    line << ' ' << candidates[c].name();
    if (measured.runs[c] == 0 && candidates[c] == chosen)
      line << " not run (the only candidate the model keeps);";
    else if (measured.runs[c] == 0)
      line << " not run (the model prices it over " << unrun_factor << "x the cheapest);";
    else
      line << ' ' << measured.medians[c] * 1e6 << " us, " << measured.runs[c]
           << (measured.runs[c] == 1 ? " run;" : " runs;");
  }
  line << " chose " << chosen.name() << '\n';
  std::fputs(line.str().c_str(), stderr);
}

// The same for a rung of the graph limit's ladder.
void report_rung(const CommState& state, Collective collective, long long block_bytes, const Measured& measured,
                 const ForwardingVerdict& verdict) {
  if (state.rank != 0 || !state.settings.verbose_auto) return;
  std::ostringstream line;
  line << "cartcoll auto: " << (collective == Collective::alltoall ? "alltoall" : "allgather") << " on the graph, "
       << block_bytes << "-byte blocks: " << verdict.direct.name() << ' ' << measured.medians[0] * 1e6 << " us, "
       << measured.runs[0] << " runs; " << verdict.forwarding.name() << ' ' << measured.medians[1] * 1e6 << " us, "
       << measured.runs[1] << " runs\n";
  std::fputs(line.str().c_str(), stderr);
}

// Every process must run as often as the others: the warm-ups' duration, maximum over processes,
// decides how many runs fit the budget.
int agreed_runs(double warm_up_seconds, MPI_Comm comm, double budget_seconds) {
  allreduce_max(comm, std::span<double>(&warm_up_seconds, 1));
  const double per_run = std::max(warm_up_seconds / warm_ups, 1e-9);
  return static_cast<int>(std::clamp(budget_seconds / per_run, double{fewest_runs}, double{most_runs}));
}

// One warm-up round of the candidates still `kept`: each runs once, the times (maximum over
// processes) lower `quickest` (each candidate's quickest run so far), and a candidate whose quickest
// run is over give_up_factor times the quickest of all, and not cheap, leaves `kept`: it runs no more. Every process
// keeps the same candidates (agreed times). Returns the round's seconds, summed over those kept.
double warm_up_round(std::span<Candidate* const> runners, MPI_Comm comm, std::vector<std::size_t>& kept,
                     Measured& measured, std::vector<double>& quickest) {
  std::vector<double> times(kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k) times[k] = runners[kept[k]]->run();
  allreduce_max(comm, times);
  for (std::size_t k = 0; k < kept.size(); ++k) {
    quickest[kept[k]] = std::min(quickest[kept[k]], times[k]);
    measured.medians[kept[k]] = times[k];
    ++measured.runs[kept[k]];
  }
  const double best = *std::min_element(quickest.begin(), quickest.end());
  double seconds = 0;
  std::vector<std::size_t> still;
  for (std::size_t k = 0; k < kept.size(); ++k)
    if (quickest[kept[k]] <= std::max(give_up_factor * best, cheap_run_seconds)) {
      still.push_back(kept[k]);
      seconds += times[k];
    }
  kept = std::move(still);
  return seconds;
}

// Each candidate's median run time and runs. Two warm-up rounds drop the candidates that ran over
// give_up_factor times the quickest and were not cheap (warm_up_round). The others run as often as the budget allows,
// interleaved, so drift in the machine's load hits every candidate alike; a run's time is the maximum
// over processes (one allreduce at the end), as the benchmark counts it.
Measured median_times(std::span<Candidate* const> runners, MPI_Comm comm, double budget_seconds = run_budget_seconds) {
  Measured measured{std::vector<double>(runners.size()), std::vector<int>(runners.size(), 0)};
  std::vector<double> quickest(runners.size(), std::numeric_limits<double>::infinity());
  std::vector<std::size_t> kept(runners.size());
  std::iota(kept.begin(), kept.end(), std::size_t{0});
  double round_seconds = 0;  // the last (warm) round's, standing for every round of those kept
  for (int round = 0; round < warm_ups; ++round) round_seconds = warm_up_round(runners, comm, kept, measured, quickest);
  const int runs = agreed_runs(warm_ups * round_seconds, comm, budget_seconds);
  const auto per_candidate = static_cast<std::size_t>(runs);
  std::vector<double> times(kept.size() * per_candidate);
  for (std::size_t run = 0; run < per_candidate; ++run)
    for (std::size_t k = 0; k < kept.size(); ++k) times[k * per_candidate + run] = runners[kept[k]]->run();
  allreduce_max(comm, times);
  for (std::size_t k = 0; k < kept.size(); ++k) {
    measured.medians[kept[k]] = median(std::span<const double>(times).subspan(k * per_candidate, per_candidate));
    measured.runs[kept[k]] += runs;
  }
  return measured;
}

// The tags of the candidates' runs, held for the trial.
class TrialTags {
 public:
  explicit TrialTags(TagSpace& tags) : tags_(tags) {}
  ~TrialTags() {
    for (int tag : taken_) tags_.release_ephemeral(tag);
  }
  TrialTags(const TrialTags&) = delete;
  TrialTags& operator=(const TrialTags&) = delete;
  int take() { return taken_.emplace_back(tags_.take_ephemeral()); }

 private:
  TagSpace& tags_;
  std::vector<int> taken_;
};

}  // namespace

namespace {

// The candidates `run` (indices into `candidates`) measured against each other on scratch buffers
// shaped like the call's; the others keep no runs and an infinite time.
Measured measure(CommState& state, const Layout& layout, CallKind kind, std::span<const Algorithm> candidates,
                 std::span<const std::size_t> run, MPI_Comm comm) {
  Measured measured{std::vector<double>(candidates.size(), std::numeric_limits<double>::infinity()),
                    std::vector<int>(candidates.size(), 0)};
  if (run.size() < 2) return measured;  // nothing to measure against
  const Scratch scratch(layout);
  std::vector<std::shared_ptr<const Schedule>> schedules;
  std::vector<Candidate> runners;
  std::vector<Candidate*> pointers;
  TrialTags tags(state.tags());
  runners.reserve(run.size());
  for (std::size_t c : run) {
    schedules.push_back(state.schedule(layout.collective, {candidates[c]}));
    pointers.push_back(
        &runners.emplace_back(*schedules.back(), scratch.layout(), comm, tags.take(), kind, state.settings.stage_up_to));
  }
  const Measured of_run = median_times(pointers, comm);
  for (std::size_t k = 0; k < run.size(); ++k) {
    measured.medians[run[k]] = of_run.medians[k];
    measured.runs[run[k]] = of_run.runs[k];
  }
  return measured;
}

}  // namespace

std::optional<Algorithm> fastest_by_trial(CommState& state, const Layout& layout, CallKind kind,
                                          std::vector<double> modelled) {
  const std::span<const Algorithm> candidates = state.neighborhood.auto_candidates(layout.collective);
  const MPI_Comm comm = state.library()->ready();
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (size == 1 || candidates.size() == 1) return candidates.front();  // nothing to choose
  if (bytes_of(layout.send) + bytes_of(layout.recv) > scratch_budget) return std::nullopt;
  allreduce_max(comm, modelled);  // MPI's contract lets sizes, and so prices, differ between processes
  const double cheapest = *std::min_element(modelled.begin(), modelled.end());
  std::vector<std::size_t> run;  // the candidates the model does not price out, in registry order
  for (std::size_t c = 0; c < candidates.size(); ++c)
    if (modelled[c] <= unrun_factor * cheapest) run.push_back(c);
  const Measured measured = measure(state, layout, kind, candidates, run, comm);
  std::size_t best = run.front();
  for (std::size_t c : run)
    if (measured.medians[c] < measured.medians[best] * (1 - tie_margin)) best = c;
  report(state, layout, candidates, measured, candidates[best]);
  return candidates[best];
}

namespace {

// Fresh memory for a call's regions, and its layouts moved onto it.
class RegionScratch {
 public:
  explicit RegionScratch(const CallRegions& regions)
      : regions_(regions),
        send_(static_cast<std::size_t>(regions.send_bytes)),
        recv_(static_cast<std::size_t>(regions.recv_bytes)) {}
  Layout moved(const Layout& layout) const {
    Layout onto = layout;
    for (BlockSpec& block : onto.send) block.address = address_of(send_) + (block.address - regions_.send_low);
    for (BlockSpec& block : onto.recv) block.address = address_of(recv_) + (block.address - regions_.recv_low);
    return onto;
  }

 private:
  static MPI_Aint address_of(const std::vector<std::byte>& memory) {
    MPI_Aint address = 0;
    check(MPI_Get_address(memory.data(), &address), "MPI_Get_address");
    return address;
  }
  CallRegions regions_;
  std::vector<std::byte> send_, recv_;
};

}  // namespace

std::optional<bool> second_faster_by_trial(CommState& state, const Schedule& first, const Layout& first_layout,
                                           const Schedule& second, const Layout& second_layout,
                                           const CallRegions& regions) {
  const MPI_Comm comm = state.library()->ready();
  double too_large = regions.send_bytes + regions.recv_bytes > scratch_budget ? 1 : 0;
  allreduce_max(comm, std::span<double>(&too_large, 1));
  if (too_large != 0) return std::nullopt;
  const RegionScratch scratch(regions);
  const Layout first_moved = scratch.moved(first_layout), second_moved = scratch.moved(second_layout);
  TrialTags tags(state.tags());
  Candidate runners[] = {{first, first_moved, comm, tags.take(), CallKind::persistent, state.settings.stage_up_to},
                         {second, second_moved, comm, tags.take(), CallKind::persistent, state.settings.stage_up_to}};
  Candidate* pointers[] = {&runners[0], &runners[1]};
  const Measured measured = median_times(pointers, comm);
  return measured.medians[1] < measured.medians[0] * (1 - tie_margin);
}

namespace {

// Blocks of `bytes` bytes each, as many as a regular `collective` has on this process (addresses 0:
// a shape for Scratch).
Layout regular_layout(Collective collective, Degrees degrees, long long bytes) {
  const BlockSpec block{0, static_cast<int>(bytes), MPI_BYTE};
  const int sends = collective == Collective::allgather ? 1 : degrees.destinations;
  return {collective, std::vector<BlockSpec>(static_cast<std::size_t>(sends), block),
          std::vector<BlockSpec>(static_cast<std::size_t>(degrees.sources), block), true};
}

// The ladder's sizes; each rung shares one run budget with the others.
constexpr long long ladder[] = {8, 64, 512, 4096, 32768};
constexpr long long rung_factor = 8;

}  // namespace

long long combining_limit_by_trial(CommState& state, const ForwardingVerdict& verdict, Collective collective,
                                   CallKind kind, bool sizes_travel) {
  const MPI_Comm comm = state.library()->ready();
  const Degrees degrees = state.degrees();
  int most_blocks = (collective == Collective::allgather ? 1 : degrees.destinations) + degrees.sources;
  allreduce_max(comm, std::span<int>(&most_blocks, 1));
  const auto direct = state.schedule(collective, {verdict.direct});
  const auto combined = state.schedule(collective, {verdict.forwarding, {}, DecidedBy::trial, sizes_travel});
  TrialTags tags(state.tags());
  const int direct_tag = tags.take(), combined_tag = tags.take();
  long long limit = -1;
  for (const long long bytes : ladder) {
    if (bytes * most_blocks > scratch_budget) break;
    const Scratch scratch(regular_layout(collective, degrees, bytes));
    Candidate direct_runner(*direct, scratch.layout(), comm, direct_tag, kind, state.settings.stage_up_to);
    Candidate combined_runner(*combined, scratch.layout(), comm, combined_tag, kind, state.settings.stage_up_to);
    Candidate* const runners[] = {&direct_runner, &combined_runner};
    const Measured measured = median_times(runners, comm, run_budget_seconds / std::size(ladder));
    report_rung(state, collective, bytes, measured, verdict);
    if (!(measured.medians[1] < measured.medians[0] * (1 - tie_margin))) break;
    limit = static_cast<long long>(static_cast<double>(bytes) * std::sqrt(double{rung_factor}));
  }
  return limit;
}

}  // namespace cartcoll::detail
