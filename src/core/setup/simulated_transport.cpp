// SPDX-License-Identifier: BSD-3-Clause
#include "simulated_transport.hpp"

#include <time.h>

#include <algorithm>
#include <string>

#include "cartcoll/error.hpp"

namespace cartcoll::detail {

namespace {

// This thread's CPU time: a process's compute without the time the machine's other work takes the
// core away (a wall clock charges a preemption to whichever process ran then, and on a shared
// machine the per-round maxima then measure the machine, not the protocol).
double cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

int common_round_count(std::span<RoundProtocol* const> processes) {
  const int rounds = processes.empty() ? 0 : processes[0]->rounds();
  for (RoundProtocol* process : processes)
    if (process->rounds() != rounds) throw Error(Errc::intern, "processes of one protocol run different round counts");
  return rounds;
}

// Round `round` of every process: all send, then all receive (senders visited in rank order, so each
// inbox is ordered by sender already).
void run_round(std::span<RoundProtocol* const> processes, int round, SimulatedRun& run) {
  const auto p = processes.size();
  std::vector<std::vector<Parcel>> inboxes(p);
  double slowest = 0;
  long long most = 0, heaviest = 0;
  std::vector<double> seconds(p);
  for (std::size_t sender = 0; sender < p; ++sender) {
    const double start = cpu_seconds();
    std::vector<Parcel> parcels = processes[sender]->outgoing(round);
    seconds[sender] = cpu_seconds() - start;
    SetupTraffic& traffic = run.traffic[sender];
    traffic.messages += static_cast<long long>(parcels.size());
    most = std::max(most, static_cast<long long>(parcels.size()));
    const long long bytes_before = traffic.bytes;
    for (Parcel& parcel : parcels) {
      if (parcel.peer < 0 || static_cast<std::size_t>(parcel.peer) >= p || parcel.values.empty())
        throw Error(Errc::intern, "rank " + std::to_string(sender) + " sent an empty parcel or one to no process");
      traffic.bytes += static_cast<long long>(parcel.values.size() * sizeof(int));
      const auto to = static_cast<std::size_t>(parcel.peer);
      parcel.peer = static_cast<int>(sender);
      inboxes[to].push_back(std::move(parcel));
    }
    heaviest = std::max(heaviest, traffic.bytes - bytes_before);
  }
  for (std::size_t receiver = 0; receiver < p; ++receiver) {
    const double start = cpu_seconds();
    processes[receiver]->incoming(round, std::move(inboxes[receiver]));
    std::vector<Parcel>().swap(inboxes[receiver]);
    seconds[receiver] += cpu_seconds() - start;
    run.traffic[receiver].seconds += seconds[receiver];
    ++run.traffic[receiver].rounds;
    slowest = std::max(slowest, seconds[receiver]);
  }
  run.round_seconds.push_back(slowest);
  run.round_messages.push_back(most);
  run.round_bytes.push_back(heaviest);
}

}  // namespace

SimulatedRun run_simulated(std::span<RoundProtocol* const> processes) {
  const int rounds = common_round_count(processes);
  SimulatedRun run;
  run.traffic.resize(processes.size());
  for (int round = 0; round < rounds; ++round) run_round(processes, round, run);
  return run;
}

}  // namespace cartcoll::detail
