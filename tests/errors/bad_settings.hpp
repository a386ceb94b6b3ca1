// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The bad settings of the errors suite (docs/semantics.md, "Errors suite: settings and trial
// budget"), shared by the programs that call the library and the unmodified program run through
// libcartcoll_mpi: each is set on one process or on all, the call that agrees on settings must fail
// with `error_class` on every process, and the setting is then removed again.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../support/api_table.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"

namespace errors_suite {

struct BadSetting {
  const char* variable;
  std::string value;
  int error_class;
  bool bad_alone;  // a bad value by itself; else only bad where it differs from other processes
  // Also tried where each try costs more (a communicator, or MPICH's oversubscribed collectives):
  // on every kind of communicator but the one that meets every case, and through the layer. One
  // value of each variable.
  bool on_every_kind = false;
};

// The path of a file of this run (named after rank 0's process id, so that runs side by side never
// share one); with `text`, rank 0 writes it (collective over MPI_COMM_WORLD).
inline std::string run_file(const char* name, const char* text = nullptr) {
  long id = static_cast<long>(getpid());
  MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string path = "/tmp/cartcoll-errors-" + std::to_string(id) + "-" + name;
  if (text != nullptr && rank == 0) {
    FILE* out = std::fopen(path.c_str(), "w");
    if (out != nullptr) {
      std::fputs(text, out);
      std::fclose(out);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return path;
}

// Collective over MPI_COMM_WORLD: rank 0 writes the profile files.
inline std::vector<BadSetting> bad_settings() {
  return {
      {"CARTCOLL_ALGORITHM", "nonsense", MPI_ERR_INFO_VALUE, true, true},
      {"CARTCOLL_COMBINING_PHASES", "-3", MPI_ERR_INFO_VALUE, true, true},
      {"CARTCOLL_COMBINING_THRESHOLD", "many", MPI_ERR_INFO_VALUE, true},
      {"CARTCOLL_NODE_SIZE", "garbage", MPI_ERR_INFO_VALUE, true, true},
      {"CARTCOLL_NODE_SIZE", "0", MPI_ERR_INFO_VALUE, true},
      {"CARTCOLL_ROUTING_DIMS", "garbage", MPI_ERR_INFO_VALUE, true, true},
      {"CARTCOLL_ROUTING_DIMS", "-1", MPI_ERR_INFO_VALUE, true},
      {"CARTCOLL_ASSERT_UNIFORM_BLOCKS", "maybe", MPI_ERR_INFO_VALUE, true, true},
      {"CARTCOLL_MAX_TAG", "abc", MPI_ERR_ARG, true, true},
      {"CARTCOLL_MAX_TAG", "5", MPI_ERR_ARG, true},
      {"CARTCOLL_MAX_TAG", "0", MPI_ERR_ARG, true},
      {"CARTCOLL_MAX_TAG", "1e23", MPI_ERR_ARG, true},
      {"CARTCOLL_MAX_TAG", "100000000000000000000000", MPI_ERR_ARG, true},
      {"CARTCOLL_MAX_TAG", "200", MPI_ERR_ARG, false, true},
      {"CARTCOLL_STAGE_BYTES", "xyz", MPI_ERR_ARG, true, true},
      {"CARTCOLL_STAGE_BYTES", "-1", MPI_ERR_ARG, true},
      {"CARTCOLL_PROFILE", "/nonexistent/cartcoll.profile", MPI_ERR_ARG, true, true},
      {"CARTCOLL_PROFILE", "/tmp", MPI_ERR_ARG, true},  // a directory: unreadable as a profile
      {"CARTCOLL_PROFILE", run_file("negative", "1e-6 -1e-6 1e-9\n"), MPI_ERR_ARG, true},
      {"CARTCOLL_PROFILE", run_file("short", "1e-6 1e-6\n"), MPI_ERR_ARG, true},
      {"CARTCOLL_PROFILE", run_file("good", "1e-6 1e-6 1e-9\n"), MPI_ERR_ARG, false},
      {"CARTCOLL_MACHINE_PROFILE", "sometimes", MPI_ERR_ARG, true, true},
      {"CARTCOLL_MACHINE_PROFILE", "auto", MPI_ERR_ARG, false},  // where the others switched it off
  };
}

// Collective over MPI_COMM_WORLD.
inline void remove_files() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (const char* name : {"negative", "short", "good"}) {
    const std::string path = run_file(name);
    if (rank == 0) std::remove(path.c_str());
  }
}

// A variable set for one case and given back its value from before (the test environment's, where
// it sets one: CARTCOLL_MACHINE_PROFILE=off) when the case ends.
class SetFor {
 public:
  SetFor(const char* variable, const std::string& value, bool here) : variable_(variable), here_(here) {
    if (const char* before = std::getenv(variable)) before_ = before;
    if (here_) setenv(variable, value.c_str(), 1);
  }
  ~SetFor() {
    if (!here_) return;
    if (before_.empty())
      unsetenv(variable_);
    else
      setenv(variable_, before_.c_str(), 1);
  }
  SetFor(const SetFor&) = delete;
  SetFor& operator=(const SetFor&) = delete;

 private:
  const char* variable_;
  bool here_;
  std::string before_;
};

// Where a setting is bad on one process only, that process is the last.
inline bool sets_it(bool everywhere, int rank, int size) { return everywhere || rank == size - 1; }

// Whether a case is tried: on one process (where it can differ from the others) or on all (where the
// value is bad by itself), and, where not `every_case`, only where `on_every_kind` says so.
inline bool tried(const BadSetting& setting, bool everywhere, int size, bool every_case) {
  if (!every_case && !setting.on_every_kind) return false;
  return everywhere ? setting.bad_alone : size > 1 || setting.bad_alone;
}

inline std::string describe(const BadSetting& setting, bool everywhere) {
  return std::string(setting.variable) + "=" + setting.value + (everywhere ? " on every process" : " on one process");
}

// Each case tried (all where `every_case`, else those on_every_kind; on every process only where
// `everywhere_only`): the value set on the processes sets_it names, `attempt` (the call that agrees
// on settings, returning its code), the value removed, the class expected on every process.
// Collective over MPI_COMM_WORLD.
template <typename Attempt>
void for_each_case(bool every_case, bool everywhere_only, Attempt&& attempt) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (const BadSetting& setting : bad_settings())
    for (const bool everywhere : {false, true}) {
      if (!tried(setting, everywhere, size, every_case) || (everywhere_only && !everywhere)) continue;
      SCOPED_TRACE(describe(setting, everywhere));
      int code = MPI_SUCCESS;
      {
        const SetFor set(setting.variable, setting.value, sets_it(everywhere, rank, size));
        code = attempt();
      }
      support::expect_class_everywhere(code, setting.error_class);
    }
  remove_files();
}

// The first call on a fresh communicator MPI made is nonblocking (`op` of `api`, completed by its wait
// for alltoall and its waitall for alltoallv), with the setting bad on the processes sets_it names. No
// agreement is possible: every process starts the exchange (those with the bad value with the
// defaults), the data is right everywhere, and the bad value's class comes at completion on the
// processes that have it only. The communicator keeps the defaults: a call of the form `follow_up`
// (blocking, or nonblocking and waited for) that follows, the value still set, carries a full call
// everywhere, with no second set-up.
inline void nonblocking_first_call(const std::function<int(MPI_Comm*)>& create, support::Pairing pairing,
                                   support::Op op, support::Form follow_up, const BadSetting& setting, bool everywhere,
                                   const support::Api& api) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm = MPI_COMM_NULL;
  ASSERT_EQ(create(&comm), MPI_SUCCESS);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const cartcoll::Graph lists = support::gather_topology(comm);
  const support::TestTypes types;
  support::GraphCase exchange(op, support::Variant::plain, support::Sizes::per_edge, types, lists, rank, 5,
                              pairing);
  exchange.prepare(0);
  const bool bad_here = sets_it(everywhere, rank, size);
  const SetFor set(setting.variable, setting.value, bad_here);
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(exchange.call(support::Form::nonblocking, comm, &request, api), MPI_SUCCESS);
  EXPECT_NE(request, MPI_REQUEST_NULL);
  const int expected = bad_here ? setting.error_class : MPI_SUCCESS;
  if (op == support::Op::alltoall) {
    EXPECT_EQ(support::error_class(api.wait(&request, MPI_STATUS_IGNORE)), expected);
  } else {
    MPI_Status status;
    status.MPI_ERROR = MPI_ERR_PENDING;
    const int code = api.waitall(1, &request, &status);
    EXPECT_EQ(support::error_class(code), bad_here ? MPI_ERR_IN_STATUS : MPI_SUCCESS);
    if (bad_here) EXPECT_EQ(support::error_class(status.MPI_ERROR), expected);
  }
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
  exchange.prepare(1);
  EXPECT_EQ(exchange.call(follow_up, comm, &request, api), MPI_SUCCESS) << exchange.describe();
  if (follow_up == support::Form::nonblocking) EXPECT_EQ(api.wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
  MPI_Comm_free(&comm);
}

// One setting of each class (CARTCOLL_ALGORITHM, CARTCOLL_MAX_TAG: the path is the same for every
// variable), on the last process and on all; `follow_up` as for nonblocking_first_call.
// Collective over MPI_COMM_WORLD.
inline void nonblocking_first_calls(const std::function<int(MPI_Comm*)>& create, support::Pairing pairing,
                                    support::Op op, support::Form follow_up, const support::Api& api = support::cc_api) {
  int tried_cases = 0;
  for (const BadSetting& setting : bad_settings()) {
    const std::string variable = setting.variable;
    const bool one_of_each_class = variable == "CARTCOLL_ALGORITHM" || variable == "CARTCOLL_MAX_TAG";
    if (!one_of_each_class || !setting.bad_alone || !setting.on_every_kind) continue;
    for (const bool everywhere : {false, true}) {
      SCOPED_TRACE(describe(setting, everywhere) + ", " + support::name(op));
      nonblocking_first_call(create, pairing, op, follow_up, setting, everywhere, api);
      ++tried_cases;
    }
  }
  EXPECT_EQ(tried_cases, 4) << "one bad value of each class, on one process and on all";
  remove_files();
}

}  // namespace errors_suite
