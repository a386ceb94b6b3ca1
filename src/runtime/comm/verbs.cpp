// SPDX-License-Identifier: BSD-3-Clause
#include "verbs.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "runtime/progress/progress.hpp"
#include "collective.hpp"
#include "operation.hpp"
#include "shared_sends_call.hpp"
#include "runtime/selection/policy.hpp"

namespace cartcoll::detail {

namespace {

void require_block_counts(const Layout& layout, Degrees degrees) {
  const std::size_t sends = layout.collective == Collective::allgather ? 1 : static_cast<std::size_t>(degrees.destinations);
  if (layout.recv.size() != static_cast<std::size_t>(degrees.sources) || layout.send.size() != sends)
    throw Error(Errc::arg, "the call has " + std::to_string(layout.send.size()) + " send and " +
                               std::to_string(layout.recv.size()) + " receive blocks; the neighborhood has " +
                               std::to_string(degrees.destinations) + " destinations and " +
                               std::to_string(degrees.sources) + " sources");
}

// Träff and Hunold's Cartesian Collective Communication and the isomorphic-collectives paper by
// Träff, Carpen-Amarie, Hunold and Rougier, section 2: every process uses the same block sizes, so
// send block i and receive block i (the one send block, for allgather) hold the same bytes; a local
// mismatch is already a violation, caught before it truncates or hangs.
void require_equal_sizes(const Layout& layout) {
  for (std::size_t i = 0; i < layout.recv.size(); ++i) {
    const BlockSpec& sent = layout.send[layout.collective == Collective::allgather ? 0 : i];
    if (bytes_of(sent) != bytes_of(layout.recv[i]))
      throw Error(Errc::count, "send and receive block " + std::to_string(i) + " differ in size");
  }
}

// An ephemeral tag taken at the start of a call, before anything can fail, so that every process
// advances its tag counter for every call; given back if the call fails before an operation holds it.
class EphemeralTag {
 public:
  explicit EphemeralTag(TagSpace& tags) : tags_(tags), tag_(tags.take_ephemeral()) {}
  ~EphemeralTag() {
    if (tag_ >= 0) tags_.release_ephemeral(tag_);
  }
  EphemeralTag(const EphemeralTag&) = delete;
  EphemeralTag& operator=(const EphemeralTag&) = delete;
  int get() const noexcept { return tag_; }
  int hand_over() noexcept { return std::exchange(tag_, -1); }

 private:
  TagSpace& tags_;
  int tag_;
};

// Init calls are collective anyway and build datatypes, so one small allreduce buys what blocking
// calls cannot afford: an error on any process, or a disagreeing algorithm, reaches every process;
// and the request's tag is agreed there (see TagSpace).
// `must_match[i]` must be the same on every process, else every process throws mismatches[i].
int agree_on_init(CommState& state, const std::optional<Error>& local_error, std::span<const int> must_match,
                  std::span<const Error> mismatches) {
  TagSpace& tags = state.tags();
  const MPI_Comm comm = state.library()->ready();
  std::uint64_t in_use = agree(comm, local_error, must_match, mismatches, tags.persistent_candidates_in_use());
  for (int windows = 1;; ++windows) {
    if (const int tag = tags.take_persistent(in_use); tag >= 0) return tag;
    // Every process sees the same marks, so all of them give up together.
    if (windows >= tags.persistent_windows())
      throw Error(Errc::intern, "more persistent requests alive on this communicator than it has tags for them");
    in_use = agree(comm, std::nullopt, {}, std::span<const Error>(), tags.persistent_candidates_in_use());
  }
}

// The processes' algorithm must match, and the one they asked for (whether they look for shared
// send bytes depends on it: shared_sends_call), and (Cartesian contract, else zeros) their block
// sizes: a local check cannot see another process's, and a start (or `auto`'s trial at init) with
// different ones would truncate.
int agree_on_init(CommState& state, const std::optional<Error>& local_error, Algorithm algorithm, Algorithm requested,
                  SizeDigest sizes = {}) {
  const int must_match[] = {algorithm.id(), requested.id(), sizes[0], sizes[1]};
  const Error algorithms_differ(Errc::not_isomorphic, "processes chose different algorithms");
  const Error sizes_differ(Errc::count, "processes passed different block sizes");
  const Error mismatches[] = {algorithms_differ, algorithms_differ, sizes_differ, sizes_differ};
  return agree_on_init(state, local_error, must_match, mismatches);
}

// A blocking call under Träff and Hunold's contract compares the processes' block sizes before
// `auto` measures (init compares them anyway: agree_on_init).
ChoicePoint blocking_point(Contract contract) {
  return contract == Contract::cartesian ? ChoicePoint::collective_comparing_sizes : ChoicePoint::collective;
}

// The execution of a blocking call: the last one again where the call repeats it (see
// CommState::RepeatedCall), else a new one, kept for the next call where keeps_execution says so.
Execution& blocking_execution(CommState& state, const Schedule& schedule, const Layout& layout) {
  CommState::RepeatedCall& last = state.last_blocking_call;
  if (last.execution && last.schedule == &schedule && last.layout == layout) return *last.execution;
  const bool keep = keeps_execution(layout);
  auto execution = std::make_unique<Execution>(schedule, layout, state.library()->ready(), state.tags().blocking(),
                                               state.reuse(!keep));
  last = {keep ? &schedule : nullptr, keep ? layout : Layout{}, std::move(execution), std::nullopt, std::nullopt,
          std::nullopt};
  return *last.execution;
}

// Runs a blocking call's execution to its end.
void run_blocking(CommState& state, Execution& execution) {
  execution.run();
  if (execution.error() != MPI_SUCCESS) {
    const int code = execution.error();
    state.last_blocking_call = {};
    throw Error(Errc::mpi, "a message of the collective failed", code);
  }
}

}  // namespace

bool keeps_execution(const Layout& layout) { return all_predefined(layout.send) && all_predefined(layout.recv); }

void check_layout(const CommState& state, const Layout& layout, Contract contract) {
  require_block_counts(layout, state.degrees());
  if (contract == Contract::cartesian) require_equal_sizes(layout);
}

Algorithm choose(CommState& state, const Layout& layout, Contract contract) {
  check_layout(state, layout, contract);
  return per_call(state, state.settings.algorithm, layout, contract, CallKind::once, blocking_point(contract))
      .algorithm;
}

void exchange(CommState& state, const Layout& layout, Contract contract) {
  check_layout(state, layout, contract);
  const Choice choice = per_call(state, state.settings.algorithm, layout, contract, CallKind::once, blocking_point(contract));
  const auto schedule = state.schedule(layout.collective, choice);
  state.last_run = CommState::Run{choice.algorithm, schedule->messages(), choice.decided_by};
  run_blocking(state, blocking_execution(state, *schedule, layout));
}

// Equal arguments make an equal layout, which passed its checks last time and resolves to the same
// algorithm without communicating (`auto` keeps what it learned), so a repeat skips all of that on
// this process alone, whatever the others do.
void exchange(CommState& state, const RegularArguments& arguments, Contract contract) {
  const CommState::RepeatedCall::Arguments key{arguments, contract, state.settings.algorithm};
  CommState::RepeatedCall& last = state.last_blocking_call;
  if (last.schedule != nullptr && last.arguments == key) {
    state.last_run = last.run;
    run_blocking(state, *last.execution);
    return;
  }
  exchange(state, arguments.layout(state.degrees()), contract);
  if (last.schedule == nullptr) return;
  last.arguments = key;
  last.run = state.last_run;
}

// The same for any collective, recognized by its print (ArgumentPrint): the arrays' contents count,
// not their addresses, so counts or displacements changed in place are a new call.
void exchange(CommState& state, const ArgumentPrint& print, const std::function<Layout()>& make_layout,
              Contract contract) {
  CommState::RepeatedCall& last = state.last_blocking_call;
  const std::span<const std::intptr_t> values = print.values();
  if (last.schedule != nullptr && last.printed && print.complete() && last.printed->contract == contract &&
      last.printed->requested == state.settings.algorithm &&
      std::equal(values.begin(), values.end(), last.printed->values.begin(), last.printed->values.end())) {
    state.last_run = last.run;
    run_blocking(state, *last.execution);
    return;
  }
  exchange(state, make_layout(), contract);
  if (last.schedule == nullptr || !print.complete()) return;
  last.printed = CommState::RepeatedCall::Printed{{values.begin(), values.end()}, contract, state.settings.algorithm};
  last.run = state.last_run;
}

namespace {

// Starts a nonblocking operation that holds `tag` from now on.
Request start_nonblocking(std::unique_ptr<ScheduledOperation> operation, EphemeralTag& tag,
                          const Error* reported_at_completion) {
  tag.hand_over();
  operation->start();
  if (reported_at_completion != nullptr) operation->report_at_completion(*reported_at_completion);
  return RequestAccess::make(std::move(operation));
}

// What a nonblocking call with this layout runs, chosen without communicating; `direct`: the call
// may run the direct exchange only (requested_for_call: a v or w call under MPI's contract), which
// per_call returns as it is.
struct NonblockingChoice {
  std::shared_ptr<const Schedule> schedule;
  bool direct;
};
NonblockingChoice nonblocking_schedule(CommState& state, const Layout& layout, Contract contract) {
  const Choice choice = per_call(state, state.settings.algorithm, layout, contract, CallKind::once, ChoicePoint::local);
  auto schedule = state.schedule(layout.collective, choice);
  state.last_run = CommState::Run{choice.algorithm, schedule->messages(), choice.decided_by};
  const bool only_one = choice.decided_by == DecidedBy::forced || choice.decided_by == DecidedBy::contract;
  return {std::move(schedule), only_one && choice.algorithm == direct_exchange()};
}

// The last call's idle operation, where the print is that call's and the layout it stands for still
// resolves to the same schedule (the direct exchange, or a choice made then and made again: the same
// one, unless `auto` has learned since); else nullptr.
std::unique_ptr<ScheduledOperation> repeated_operation(CommState& state, const ArgumentPrint& print, Contract contract) {
  CommState::RepeatedNonblocking& last = state.last_nonblocking_call;
  const std::span<const std::intptr_t> values = print.values();
  if (!last.idle || !print.complete() || last.printed->contract != contract ||
      last.printed->requested != state.settings.algorithm ||
      !std::equal(values.begin(), values.end(), last.printed->values.begin(), last.printed->values.end()))
    return nullptr;
  if (last.direct)
    state.last_run = last.run;
  else if (nonblocking_schedule(state, last.layout, contract).schedule != last.schedule)
    return nullptr;
  return std::move(last.idle);
}

// Makes `print` the one last_nonblocking_call keeps an execution for (reusing the slot's memory);
// returns its generation.
std::uint64_t keep_for(CommState& state, const ArgumentPrint& print, Contract contract, const Layout& layout,
                       NonblockingChoice choice) {
  CommState::RepeatedNonblocking& last = state.last_nonblocking_call;
  const std::span<const std::intptr_t> values = print.values();
  if (!last.printed) last.printed.emplace(CommState::RepeatedCall::Printed{{}, contract, state.settings.algorithm});
  last.printed->values.assign(values.begin(), values.end());
  last.printed->contract = contract;
  last.printed->requested = state.settings.algorithm;
  last.layout = layout;
  last.schedule = std::move(choice.schedule);
  last.direct = choice.direct;
  last.run = *state.last_run;
  last.idle.reset();
  return ++last.generation;
}

}  // namespace

Request iexchange(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const Layout& layout, Contract contract,
                  const Error* reported_at_completion) {
  EphemeralTag tag(state->tags());
  check_layout(*state, layout, contract);
  const auto schedule = nonblocking_schedule(*state, layout, contract).schedule;
  return start_nonblocking(std::make_unique<ScheduledOperation>(state, user_comm, *schedule, layout, tag.get(), false,
                                                                state->reuse(false)),
                           tag, reported_at_completion);
}

// Equal prints make equal layouts, which passed their checks before, so a repeat skips them as a
// blocking call does; and it takes the operation of the last call, lowered already, kept while its
// datatypes are predefined (keeps_execution).
Request iexchange(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const ArgumentPrint& print,
                  const std::function<Layout()>& make_layout, Contract contract) {
  if (auto operation = repeated_operation(*state, print, contract)) {
    EphemeralTag tag(state->tags());
    operation->reuse(user_comm, tag.get());
    return start_nonblocking(std::move(operation), tag, nullptr);
  }
  const Layout layout = make_layout();
  if (!print.complete() || !keeps_execution(layout)) return iexchange(state, user_comm, layout, contract);
  EphemeralTag tag(state->tags());
  check_layout(*state, layout, contract);
  NonblockingChoice choice = nonblocking_schedule(*state, layout, contract);
  auto execution = std::make_unique<Execution>(*choice.schedule, layout, state->library()->get(), tag.get(),
                                               state->reuse(false), state->library()->gate());
  const std::uint64_t generation = keep_for(*state, print, contract, layout, std::move(choice));
  return start_nonblocking(
      std::make_unique<ScheduledOperation>(state, user_comm, std::move(execution), tag.get(), generation), tag, nullptr);
}

// A persistent operation for `layout`: `plain`, the schedule `choice` names, unless its send blocks
// share bytes and the processes agree to send those once (shared_sends_call, collective where it
// applies).
Request persistent_operation(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, Algorithm requested,
                             const Layout& layout, const Schedule& plain, const Choice& choice, int tag) {
  if (std::optional<SharedSendsCall> shared = shared_sends_call(*state, requested, layout, plain)) {
    state->last_run = CommState::Run{shared->choice.algorithm, shared->schedule.messages(), shared->choice.decided_by};
    return RequestAccess::make(std::make_unique<ScheduledOperation>(state, user_comm, shared->schedule, shared->layout,
                                                                    tag, true, state->persistent_reuse(),
                                                                    std::move(shared->types)));
  }
  state->last_run = CommState::Run{choice.algorithm, plain.messages(), choice.decided_by};
  return RequestAccess::make(
      std::make_unique<ScheduledOperation>(state, user_comm, plain, layout, tag, true, state->persistent_reuse()));
}

Request exchange_init(const std::shared_ptr<CommState>& state, MPI_Comm user_comm,
                      const std::function<Layout()>& make_layout, const RequestOptions& options, Contract contract) {
  std::optional<Layout> layout;
  std::optional<Error> local_error;
  Algorithm requested = state->settings.algorithm, algorithm = requested;
  try {
    requested = effective_algorithm(options.info, options.algorithm.value_or(state->settings.algorithm));
    layout = make_layout();
    check_layout(*state, *layout, contract);
    algorithm = requested_for_call(*state, *layout, contract, requested);
  } catch (const Error& error) {
    local_error = error;
  }
  const bool compare_sizes = contract == Contract::cartesian && !local_error;
  const SizeDigest sizes = compare_sizes ? block_size_digest(*layout) : SizeDigest{};
  const int tag = agree_on_init(*state, local_error, algorithm, requested, sizes);
  try {
    const Choice choice = per_call(*state, requested, *layout, contract, CallKind::persistent, ChoicePoint::collective);
    return persistent_operation(state, user_comm, requested, *layout, *state->schedule(layout->collective, choice),
                                choice, tag);
  } catch (...) {
    state->tags().release_persistent(tag);
    throw;
  }
}

void run_graph_call(CommState& state, const GraphCall& call) {
  if (!call.schedule) return exchange(state, call.layout, Contract::mpi);
  const EphemeralTag tag(state.tags());
  Execution execution(*call.schedule, call.layout, state.library()->ready(), tag.get(), state.reuse(true));
  execution.start();
  ProgressEngine::instance().wait(execution);
  if (execution.error() != MPI_SUCCESS) throw Error(Errc::mpi, "a message of the collective failed", execution.error());
}

Request start_graph_call(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const GraphCall& call,
                         const Error* reported_at_completion) {
  if (!call.schedule) return iexchange(state, user_comm, call.layout, Contract::mpi, reported_at_completion);
  EphemeralTag tag(state->tags());
  return start_nonblocking(std::make_unique<ScheduledOperation>(state, user_comm, *call.schedule, call.layout, tag.get(),
                                                                false, state->reuse(false)),
                           tag, reported_at_completion);
}

// As exchange_init for a neighborhood call, with the route and the caller's values agreed too, in the
// same one allreduce whichever the route, so that processes taking different routes fail alike.
Request init_graph_call(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const std::function<GraphCall()>& make,
                        std::span<const Error> mismatches, MPI_Info info) {
  std::optional<GraphCall> call;
  std::optional<Error> local_error;
  Algorithm requested = state->settings.algorithm, algorithm = requested;
  try {
    requested = algorithm = effective_algorithm(info, requested);
    call = make();
    if (call->must_match.size() != mismatches.size()) throw Error(Errc::intern, "one mismatch error per value to agree on");
    if (!call->schedule) {
      check_layout(*state, call->layout, Contract::mpi);
      algorithm = requested_for_call(*state, call->layout, Contract::mpi, requested);
    }
  } catch (const Error& error) {
    local_error = error;
    call.reset();
  }
  std::vector<int> must_match = {call && call->schedule ? 1 : 0, algorithm.id(), requested.id()};
  if (call) must_match.insert(must_match.end(), call->must_match.begin(), call->must_match.end());
  must_match.resize(3 + mismatches.size());  // a failed process's values: it throws first anyway
  std::vector<Error> errors = {Error(Errc::buffer, "processes disagree on MPI_IN_PLACE"),
                               Error(Errc::not_isomorphic, "processes chose different algorithms"),
                               Error(Errc::not_isomorphic, "processes chose different algorithms")};
  errors.insert(errors.end(), mismatches.begin(), mismatches.end());
  const int tag = agree_on_init(*state, local_error, must_match, errors);
  try {
    if (!call->schedule) {
      const Choice choice =
          per_call(*state, requested, call->layout, Contract::mpi, CallKind::persistent, ChoicePoint::collective);
      return persistent_operation(state, user_comm, requested, call->layout,
                                  *state->schedule(call->layout.collective, choice), choice, tag);
    }
    return RequestAccess::make(std::make_unique<ScheduledOperation>(state, user_comm, *call->schedule, call->layout, tag, true,
                                                           state->persistent_reuse()));
  } catch (...) {
    state->tags().release_persistent(tag);
    throw;
  }
}

}  // namespace cartcoll::detail
