// SPDX-License-Identifier: BSD-3-Clause
// cartcoll-plan-time: how long plan() takes for one process, MPI-free. Moore neighborhoods d = 2..5,
// radius 1..3 (the set of Table 2 of Träff et al., Message-Combining Algorithms for Isomorphic, Sparse
// Collective Communication), every registered planner, alltoall and allgather, on the (2r+1)^d
// torus, on which no offset wraps.
// Prints CSV: the median time of one plan() call and that time per t*d, which stays flat where the
// planner is linear in the neighborhood's size (Proposition 3.1 of Träff and Hunold, Cartesian
// Collective Communication: O(td)).
//
// Two more allgather rows break the combining allgather down: "tree-000-order" builds Träff and
// Hunold's prefix tree once in their dimension order (by increasing distinct coordinates; the row's
// name keeps "000", their paper, as the recorded results have it), "best-order-search" is
// best_allgather_order(), which builds the tree for every dimension order (d! of them for d <= 6).
//
// Times are this thread's CPU time by default (--clock cpu), so that other load on a small shared
// machine does not inflate them; --clock wall measures steady_clock instead. Calls are timed in
// batches of at least a millisecond; the median over the batches is reported.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/planning/allgather_tree.hpp"
#include "core/planning/plan.hpp"
#include "core/model/schedule.hpp"
#include "cartcoll/topology.hpp"
#include "util/cli.hpp"
#include "core/support/median.hpp"
#include "core/model/neighborhoods.hpp"

namespace {

struct Options {
  double min_ms = 200;  // measure each case at least this long (and at least 3 to 5 batches)
  int max_d = 5;
  int max_r = 3;
  bool wall = false;
  bool breakdown = true;
};

constexpr const char* tool = "cartcoll-plan-time";

constexpr const char* usage =
    "usage: cartcoll-plan-time [--min-ms MS] [--max-d D] [--max-r R] [--clock cpu|wall] [--no-breakdown]\n"
    "       cartcoll-plan-time --help | --version\n"
    "Times plan() for one process, without MPI: Moore neighborhoods d = 2..D (default 5, at most 6),\n"
    "radius 1..R (default 3, at most 4), every Cartesian planner, alltoall and allgather; CSV on stdout.\n"
    "  --min-ms MS       measure each case at least MS milliseconds (default 200)\n"
    "  --clock cpu|wall  this thread's CPU time (default) or the steady clock\n"
    "  --no-breakdown    without the rows timing the combining allgather's tree and order search\n";

[[noreturn]] void exit_with(int status, const std::string& problem = {}) {
  if (!problem.empty()) std::fprintf(stderr, "%s\n", cartcoll::cli::bad_argument_line(tool, problem).c_str());
  std::exit(status);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      exit_with(0);
    }
    if (arg == "--version") {
      std::printf("%s\n", cartcoll::cli::version_line(tool).c_str());
      exit_with(0);
    }
    if (arg == "--no-breakdown") {
      options.breakdown = false;
      continue;
    }
    if (arg != "--clock" && arg != "--min-ms" && arg != "--max-d" && arg != "--max-r")
      exit_with(2, cartcoll::cli::unknown_argument(arg));
    if (i + 1 >= argc) exit_with(2, arg + " needs a value");
    const std::string text = argv[++i];
    const std::string bad = "bad value '" + text + "' for " + arg;
    if (arg == "--clock") {
      if (text != "cpu" && text != "wall") exit_with(2, bad + " (cpu or wall)");
      options.wall = text == "wall";
      continue;
    }
    if (arg == "--min-ms") {
      const auto value = cartcoll::cli::parse_double(text);
      if (!value || *value < 0) exit_with(2, bad + " (milliseconds, not negative)");
      options.min_ms = *value;
      continue;
    }
    const auto value = cartcoll::cli::parse_int(text);
    if (arg == "--max-d" && value && *value >= 2 && *value <= 6) options.max_d = *value;
    else if (arg == "--max-r" && value && *value >= 1 && *value <= 4) options.max_r = *value;
    else exit_with(2, bad + (arg == "--max-d" ? " (2..6)" : " (1..4)"));
  }
  return options;
}

double now_us(bool wall) {
  if (wall)
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
}

// Median microseconds of one call of `work`.
double time_call(const std::function<long()>& work, const Options& options, long& sink) {
  sink += work();  // warm-up
  long batch = 1;
  for (;;) {  // batches of at least 1 ms
    const double start = now_us(options.wall);
    for (long k = 0; k < batch; ++k) sink += work();
    if (now_us(options.wall) - start >= 1000 || batch >= (1L << 24)) break;
    batch *= 2;
  }
  std::vector<double> per_call;
  double spent = 0;
  const std::size_t at_least = 5;
  while (per_call.size() < at_least || spent < options.min_ms * 1000) {
    const double start = now_us(options.wall);
    for (long k = 0; k < batch; ++k) sink += work();
    const double elapsed = now_us(options.wall) - start;
    spent += elapsed;
    per_call.push_back(elapsed / static_cast<double>(batch));
    if (per_call.size() >= 3 && elapsed > 250000) break;  // slow cases: three samples do
  }
  return cartcoll::detail::median(per_call);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cartcoll;
  const Options options = parse(argc, argv);
  std::vector<std::pair<std::string, Algorithm>> algorithms;
  for (const PlannerEntry& planner : planners())
    if (planner.serves(NeighborhoodKind::cartesian) && !planner.plans_shared_sends) algorithms.emplace_back(std::string(planner.name), Algorithm::named(planner.name));

  long sink = 0;
  std::printf("d,r,t,t_times_d,algorithm,collective,microseconds,microseconds_per_td\n");
  for (int d = 2; d <= options.max_d; ++d) {
    for (int r = 1; r <= options.max_r; ++r) {
      const Offsets offsets(d, cartcoll::neighborhoods::moore(d, r));
      const Grid grid(std::vector<int>(static_cast<std::size_t>(d), 2 * r + 1),
                      std::vector<bool>(static_cast<std::size_t>(d), true));
      const std::vector<int> coords(static_cast<std::size_t>(d), r);
      const long t = offsets.count(), td = t * d;
      auto row = [&](const std::string& algorithm, const char* collective, const std::function<long()>& work) {
        const double us = time_call(work, options, sink);
        std::printf("%d,%d,%ld,%ld,%s,%s,%.2f,%.5f\n", d, r, t, td, algorithm.c_str(), collective, us,
                    us / static_cast<double>(td));
        std::fflush(stdout);
      };
      for (const auto& [name, algorithm] : algorithms) {
        for (Collective collective : {Collective::alltoall, Collective::allgather}) {
          row(name, collective == Collective::alltoall ? "alltoall" : "allgather", [&, algorithm = algorithm] {
            return static_cast<long>(plan(algorithm, {grid, offsets, coords}, collective).volume());
          });
        }
      }
      if (options.breakdown) {
        const std::vector<int> order = detail::order_by_distinct_coordinates(offsets);
        row("tree-000-order", "allgather", [&] { return static_cast<long>(detail::build_allgather_tree(offsets, order).volume()); });
        row("best-order-search", "allgather", [&] { return static_cast<long>(detail::best_allgather_order(offsets).front()); });
      }
    }
  }
  volatile long observed = sink;  // keeps the work observable
  (void)observed;
  return 0;
}
