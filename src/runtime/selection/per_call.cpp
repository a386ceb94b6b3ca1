// SPDX-License-Identifier: BSD-3-Clause
// `auto` per call (policy.hpp): the measured size class, a trial, or the cost model; on a graph, the
// forwarding limit; and the calibration of the cost model.
#include "policy.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/progress/progress.hpp"
#include "cartcoll/cartcoll.hpp"
#include "runtime/comm/collective.hpp"
#include "core/support/median.hpp"
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
    barrier(comm, tag);
    const double start = MPI_Wtime();
    for (int j = 0; j < messages; ++j) {
      const auto at = static_cast<std::size_t>(j) * static_cast<std::size_t>(bytes);
      check(MPI_Irecv(in.data() + at, bytes, MPI_BYTE, (rank - 1 - j + size * (j + 1)) % size, tag, comm,
                      &requests[2 * static_cast<std::size_t>(j)]), "MPI_Irecv");
      check(MPI_Isend(out.data() + at, bytes, MPI_BYTE, (rank + 1 + j) % size, tag, comm,
                      &requests[2 * static_cast<std::size_t>(j) + 1]), "MPI_Isend");
    }
    for (MPI_Request& request : requests) ProgressEngine::instance().wait(request);
    if (rep >= 0) times.push_back(MPI_Wtime() - start);
  }
  double slowest = median(times);
  allreduce_max(comm, std::span<double>(&slowest, 1));
  return slowest;
}

}  // namespace

CostModel calibrate(MPI_Comm comm, TagSpace& tags) {
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (size == 1) return CostModel{};  // every neighbor is the process itself: nothing to choose
  constexpr int large = 1 << 16;
  const int many = std::min(8, size - 1);
  const int tag = tags.take_ephemeral();
  const double one = exchange_time(comm, tag, 1, 1), several = exchange_time(comm, tag, many, 1),
               big = exchange_time(comm, tag, 1, large);
  tags.release_ephemeral(tag);
  CostModel model;
  model.per_message = many > 1 ? std::max(0.0, (several - one) / (many - 1)) : 0.0;
  model.latency = std::max(one - model.per_message, 1e-7);
  model.per_byte = std::max((big - one) / (large - 1), 1e-12);
  return model;
}

namespace {

std::vector<std::size_t> block_bytes(std::span<const BlockSpec> blocks) {
  std::vector<std::size_t> bytes;
  bytes.reserve(blocks.size());
  for (const BlockSpec& block : blocks) bytes.push_back(static_cast<std::size_t>(bytes_of(block)));
  return bytes;
}

// The model's price of each of `auto`'s candidates for the call, in auto_candidates order.
std::vector<double> modelled_seconds(CommState& state, const CostModel& model, const Layout& layout) {
  const std::vector<std::size_t> send = block_bytes(layout.send), recv = block_bytes(layout.recv);
  std::vector<double> seconds;
  for (Algorithm candidate : state.neighborhood.auto_candidates(layout.collective))
    seconds.push_back(predicted_seconds(state.figures(layout.collective, candidate), model, send, recv));
  return seconds;
}

Algorithm cheapest_by_model(CommState& state, const CostModel& model, const Layout& layout) {
  return cheapest(
      state.neighborhood.auto_candidates(layout.collective),
      [&](Algorithm candidate) -> const Figures& { return state.figures(layout.collective, candidate); },
      model, block_bytes(layout.send), block_bytes(layout.recv));
}

// The model `auto` decides by where it does not measure: one calibrated on this communicator, else the
// machine profile, else the default.
CostModel model_of(const CommState& state) {
  return state.auto_choices.calibrated.value_or(state.settings.machine.value_or(CostModel{}));
}

// Half an octave of the bytes a process receives per call: fine enough that the crossover between
// algorithms is found to within about 40 %, coarse enough that a sweep of sizes measures rarely.
int size_class(long long received) {
  return received == 0 ? -1 : static_cast<int>(std::floor(2 * std::log2(static_cast<double>(received))));
}

// On a graph where a set-up ran, MPI lets block sizes differ between processes, so no process may
// choose by sizes it alone sees; but on a regular alltoall or allgather (the only calls that forward)
// the processes at both ends of a forwarded block size it alike. So each process forwards the sides
// of its exchange (CombinedSides) whose blocks fit a limit that is the same everywhere: the model's,
// agreed at creation, until the first call of its family and kind that may communicate (a collective
// point, which every process reaches at the same call) measures it. A planner whose set-up has no
// restricted results forwards blocks of processes that have no edge with each other, so there every
// process forwards or none does, by the size of its first block, which the assertion it needs makes
// the same everywhere. In a v or w alltoall (`sizes_differ`) the sizes a forwarder sees tie nobody:
// there each block is forwarded, or sent straight to its receiver beside the schedule, by its own size
// against the limit, which both its ends know (Schedule::forward_up_to), on tags of their own (a tag
// space too small to have them runs direct); allgatherv and allgatherw run direct under `auto`
// (requested_for_call).
Choice graph_choice(CommState& state, const ForwardingVerdict& verdict, const Layout& layout, CallKind kind,
                    bool may_communicate, bool sizes_differ) {
  auto& measured = state.auto_choices.combine_up_to;
  const std::tuple key{layout.collective, kind, sizes_differ};
  auto known = measured.find(key);
  if (known == measured.end() && may_communicate && !state.settings.profile)
    known = measured.emplace(key, combining_limit_by_trial(state, verdict, layout.collective, kind, sizes_differ)).first;
  const long long limit =
      known != measured.end() ? known->second : verdict.up_to[layout.collective == Collective::alltoall ? 0 : 1];
  const DecidedBy decided_by = known != measured.end() ? DecidedBy::trial : DecidedBy::model;
  auto fits = [limit](std::span<const BlockSpec> blocks) { return !blocks.empty() && bytes_of(blocks.front()) <= limit; };
  if (sizes_differ) {  // per block, by the gate, which both ends of a block apply alike (Schedule::forward_up_to)
    if (limit < 0 || state.tags().straight_offset() == 0) return {verdict.direct, {}, decided_by};
    return {verdict.forwarding, {}, decided_by, true, limit};
  }
  if (verdict.forwarding.planner().setup->restricted == nullptr) {  // all or none: by the one asserted size
    if (fits(layout.send) || (layout.send.empty() && fits(layout.recv))) return {verdict.forwarding, {}, decided_by};
    return {verdict.direct, {}, decided_by};
  }
  const CombinedSides sides{fits(layout.send), fits(layout.recv)};
  if (!sides.sends && !sides.receives) return {verdict.direct, {}, decided_by};
  return {verdict.forwarding, sides, decided_by};
}

}  // namespace

double modelled_seconds(const CommState& state, const Schedule& schedule, const Layout& layout) {
  const CostModel model = state.settings.profile.value_or(model_of(state));
  return predicted_seconds(figures_of(schedule), model, block_bytes(layout.send), block_bytes(layout.recv));
}

Choice per_call(CommState& state, Algorithm requested, const Layout& layout, Contract contract, CallKind kind,
                ChoicePoint point) {
  const bool may_communicate = point != ChoicePoint::local;
  if (const Algorithm allowed = requested_for_call(state, layout, contract, requested); !allowed.is_automatic())
    return {allowed, {}, allowed == requested ? DecidedBy::forced : DecidedBy::contract,
            sizes_travel(state, layout, contract, allowed)};
  if (const GraphNeighborhood* graph = state.neighborhood.graph(); graph != nullptr && graph->auto_verdict)
    return graph_choice(state, *graph->auto_verdict, layout, kind, may_communicate,
                        forwarded_sizes_may_differ(state, layout, contract, requested));
  const auto candidates = state.neighborhood.auto_candidates(layout.collective);
  if (candidates.size() == 1) return {candidates.front(), {}, DecidedBy::only_candidate};  // nothing to agree on
  if (state.settings.profile) return {cheapest_by_model(state, *state.settings.profile, layout), {}, DecidedBy::profile};
  AutoChoices& choices = state.auto_choices;
  const std::tuple key{layout.collective, size_class(bytes_of(layout.recv)), kind};
  if (const auto known = choices.measured.find(key); known != choices.measured.end())
    return {known->second, {}, DecidedBy::trial};
  if (may_communicate) {
    if (point == ChoicePoint::collective_comparing_sizes)
      agree(state.library()->ready(), std::nullopt, block_size_digest(layout),
            Error(Errc::count, "processes passed different block sizes"));
    if (const auto fastest = fastest_by_trial(
            state, layout, kind, modelled_seconds(state, model_of(state), layout))) {
      choices.measured.emplace(key, *fastest);
      return {*fastest, {}, DecidedBy::trial};
    }
    if (!choices.calibrated && !state.settings.machine)
      choices.calibrated = calibrate(state.library()->ready(), state.tags());
  }
  return {cheapest_by_model(state, model_of(state), layout), {}, DecidedBy::model};
}

}  // namespace cartcoll::detail

namespace cartcoll {

CostModel calibrate(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  const detail::LibraryComm own(comm);
  detail::TagSpace tags(own.tag_ub());
  return detail::calibrate(own.get(), tags);
}

}  // namespace cartcoll
