// SPDX-License-Identifier: BSD-3-Clause
// GoogleTest under MPI: every rank runs every test; rank 0 prints the usual report, other ranks
// print only their failures (prefixed with the rank); the exit code is the same on every rank.
// A run in which every rank passed but some rank skipped test cases ends, after one line per case
// rank 0 skipped with its reason, with "cartcoll: K of N test cases skipped" (K the most any rank
// skipped), or "cartcoll: all N test cases skipped" where nothing ran. ctest's
// SKIP_REGULAR_EXPRESSION (tests/mpi/CMakeLists.txt) matches the second, so such a run counts as
// skipped; a run that passed its other cases counts as passed, and scripts/test.sh adds its K
// skipped cases to the summary's skipped count.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <string>

namespace {

class FailurePrinter : public testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank_, result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.summary());
  }

 private:
  int rank_;
};

// Why a skipped test case skipped: the message of its GTEST_SKIP().
std::string skip_reason(const testing::TestResult& result) {
  for (int i = 0; i < result.total_part_count(); ++i)
    if (result.GetTestPartResult(i).skipped()) return result.GetTestPartResult(i).message();
  return "no reason given";
}

void print_skipped_cases() {
  const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const testing::TestInfo& info = *suite.GetTestInfo(t);
      if (info.should_run() && info.result()->Skipped())
        std::printf("cartcoll: skipped %s.%s: %s\n", suite.name(), info.name(), skip_reason(*info.result()).c_str());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  int skipped = testing::UnitTest::GetInstance()->skipped_test_count();
  MPI_Allreduce(MPI_IN_PLACE, &skipped, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && failed == 0 && skipped > 0) {
    print_skipped_cases();
    const int to_run = testing::UnitTest::GetInstance()->test_to_run_count();
    if (skipped == to_run)
      std::printf("cartcoll: all %d test cases skipped\n", to_run);
    else
      std::printf("cartcoll: %d of %d test cases skipped\n", skipped, to_run);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return failed;
}
