// SPDX-License-Identifier: BSD-3-Clause
#include "report.hpp"

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "api/introspection.hpp"
#include "cartcoll/neighbor.hpp"
#include "control.hpp"

namespace cartcoll::interpose {

namespace {

struct Tally {
  long long calls = 0;
  int messages = 0;  // per call, as the library's schedule sends them
};

// One communicator: how MPI's own implementation would send (one message per edge to another
// process), and what ran, by MPI function and algorithm.
struct CommRecord {
  int number = 0;
  std::string topology;
  std::string neighborhood;
  int size = 0;
  int edges = 0;
  std::map<std::tuple<std::string, std::string, std::string>, Tally> runs;  // function, algorithm, decided by
};

struct Report {
  std::vector<std::unique_ptr<CommRecord>> comms;  // in the order of their first call
  std::map<MPI_Request, Tally*> persistent;        // the library's live persistent requests
};

void print(const Report& all);

// MPI_COMM_SELF's attributes go first thing in MPI_Finalize, whichever binding called it, while MPI
// still works: the report is printed then, and goes, and so do both keys.
int delete_report(MPI_Comm, int report_keyval, void* value, void* extra_state) {
  const std::unique_ptr<Report> report(static_cast<Report*>(value));
  print(*report);
  int record_keyval = static_cast<int>(reinterpret_cast<std::intptr_t>(extra_state));
  MPI_Comm_free_keyval(&record_keyval);
  MPI_Comm_free_keyval(&report_keyval);
  return MPI_SUCCESS;
}

struct Keys {
  int report = MPI_KEYVAL_INVALID;  // MPI_COMM_SELF's attribute: the Report
  int record = MPI_KEYVAL_INVALID;  // a communicator's attribute: its CommRecord (owned by the Report)
};

const Keys& keys() {
  static const Keys made = [] {
    Keys k;
    introspection::check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k.record, nullptr),
                  "MPI_Comm_create_keyval");
    introspection::check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_report, &k.report,
                                         reinterpret_cast<void*>(static_cast<std::intptr_t>(k.record))),
                  "MPI_Comm_create_keyval");
    return k;
  }();
  return made;
}

Report& report() {
  void* value = nullptr;
  int found = 0;
  introspection::check(MPI_Comm_get_attr(MPI_COMM_SELF, keys().report, &value, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<Report*>(value);
  auto made = std::make_unique<Report>();
  introspection::check(MPI_Comm_set_attr(MPI_COMM_SELF, keys().report, made.get()), "MPI_Comm_set_attr");
  return *made.release();
}

std::string topology_of(MPI_Comm comm) {
  int kind = MPI_UNDEFINED;
  introspection::check(MPI_Topo_test(comm, &kind), "MPI_Topo_test");
  switch (kind) {
    case MPI_DIST_GRAPH: return "dist_graph";
    case MPI_GRAPH: return "graph";
    case MPI_CART: return "cart";
    default: return "none";
  }
}

// MPI's implementations send one message per destination that is another process.
int edges_to_others(MPI_Comm comm) {
  int rank = 0, edges = 0;
  introspection::check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  for (int destination : NeighborComm(comm).destinations()) edges += destination != MPI_PROC_NULL && destination != rank;
  return edges;
}

CommRecord& record_of(MPI_Comm comm, const introspection::LastRun& run) {
  void* value = nullptr;
  int found = 0;
  introspection::check(MPI_Comm_get_attr(comm, keys().record, &value, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<CommRecord*>(value);
  Report& all = report();
  auto made = std::make_unique<CommRecord>();
  made->number = static_cast<int>(all.comms.size()) + 1;
  made->topology = topology_of(comm);
  made->neighborhood = run.cartesian ? "cartesian" : "graph";
  introspection::check(MPI_Comm_size(comm, &made->size), "MPI_Comm_size");
  made->edges = edges_to_others(comm);
  introspection::check(MPI_Comm_set_attr(comm, keys().record, made.get()), "MPI_Comm_set_attr");
  all.comms.push_back(std::move(made));
  return *all.comms.back();
}

}  // namespace

void count_call(const char* function, MPI_Comm comm, const MPI_Request* persistent) {
  if (!reporting()) return;
  try {
    const auto run = introspection::last_run(comm);
    if (!run) return;
    Tally& tally = record_of(comm, *run).runs[{function, run->algorithm, run->decided_by}];
    tally.messages = run->messages;
    if (persistent != nullptr)
      report().persistent[*persistent] = &tally;
    else
      ++tally.calls;
  } catch (...) {
    // The report never fails a call that succeeded.
  }
}

void count_starts(const MPI_Request* requests, int count) {
  if (!reporting() || requests == nullptr) return;
  Report& all = report();
  for (int i = 0; i < count; ++i)
    if (const auto found = all.persistent.find(requests[i]); found != all.persistent.end()) ++found->second->calls;
}

void forget_request(MPI_Request request) {
  if (reporting()) report().persistent.erase(request);
}

void arm_report() {
  if (reporting()) report();
}

namespace {

void print(const Report& all) {
  if (!reporting()) return;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (disabled()) {
    std::fprintf(stderr, "cartcoll: rank=%d disabled (CARTCOLL_DISABLE): every call went to MPI\n", rank);
    return;
  }
  if (all.comms.empty()) std::fprintf(stderr, "cartcoll: rank=%d no neighborhood collective was called\n", rank);
  for (const auto& comm : all.comms)
    for (const auto& [key, tally] : comm->runs)
      std::fprintf(stderr,
                   "cartcoll: rank=%d comm=%d topology=%s size=%d neighborhood=%s function=%s algorithm=%s calls=%lld "
                   "messages_before=%d messages_after=%d decided_by=%s\n",
                   rank, comm->number, comm->topology.c_str(), comm->size, comm->neighborhood.c_str(),
                   std::get<0>(key).c_str(), std::get<1>(key).c_str(), tally.calls, comm->edges, tally.messages,
                   std::get<2>(key).c_str());
  std::fflush(stderr);
}

}  // namespace

}  // namespace cartcoll::interpose
