// SPDX-License-Identifier: BSD-3-Clause
// cartcoll-bench: times cartcoll's collectives against MPI_Neighbor_* on the same neighborhood, and
// (--setup) the set-up costs. See --help for the options, measure.hpp for the methodology.
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "implementations.hpp"
#include "measure.hpp"
#include "options.hpp"
#include "report.hpp"
#include "setup_times.hpp"
#include "util/cli.hpp"
#include "workload.hpp"

namespace {

using namespace bench;

constexpr const char* csv_header =
    "impl,op,neighborhood,d,t,processes,block_elements,element_bytes,size_rule,median_s,min_s,max_s,"
    "ratio_to_mpi_neighbor,messages_per_call,bytes_per_call,mpi_library,mpi_version,transport,pinning,"
    "reps_kept,reps_total";

// t: the offsets of a Cartesian neighborhood; on a graph, the edges per process (rounded).
struct Context {
  const Options& options;
  int t, p, rank;
  std::string library, version;
  FILE* csv;
};

struct Result {
  std::string impl;
  Summary time;
  Traffic traffic;
};

// Rows of PMPI-invisible MPI collectives get the direct pattern's count: one message per neighbor.
Traffic traffic_of(const std::string& impl, const Run& run, const Workload& work) {
  Traffic traffic = count_traffic(run);
  if (is_mpi_collective(impl) && traffic.messages == 0) traffic = {work.destinations, work.direct_bytes()};
  return traffic;
}

void print_row(const Context& c, const Result& r, int m, double ratio) {
  std::printf("%-34s %8d %11.1f %11.1f %11.1f %7.2f %6lld %10lld %5d/%d\n", r.impl.c_str(), m, r.time.median * 1e6,
              r.time.min * 1e6, r.time.max * 1e6, ratio, r.traffic.messages, r.traffic.bytes, r.time.kept,
              r.time.total);
  if (!c.csv) return;
  const Options& o = c.options;
  std::fprintf(c.csv, "%s,%s,%s,%d,%d,%d,%d,%d,%s,%.9f,%.9f,%.9f,%.4f,%lld,%lld,%s,%s,%s,%s,%d,%d\n",
               r.impl.c_str(), o.op.c_str(), csv_escape(o.neighborhood).c_str(), o.d, c.t, c.p, m,
               [&] { int b = 0; MPI_Type_size(o.type, &b); return b; }(), rule_name(o.rule).c_str(),
               r.time.median, r.time.min, r.time.max, ratio, r.traffic.messages, r.traffic.bytes,
               csv_escape(c.library).c_str(), c.version.c_str(), csv_escape(o.transport).c_str(),
               csv_escape(o.pinning).c_str(), r.time.kept, r.time.total);
}

// --halo: every implementation exchanges the halo once, reset to -1 before, and every process compares
// its whole array with the values of the global positions. Returns the number that failed.
int check_halos(const Context& c, const std::vector<std::string>& names, const std::vector<Run>& runs,
                Workload& work) {
  int failed = 0;
  std::string passed;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    work.halo->fill(work.halo_cells);
    runs[k]();
    const long long wrong = work.halo->mismatches(work.halo_cells);
    long long total = 0;
    MPI_Allreduce(&wrong, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (total == 0) {
      passed += " " + names[k];
      continue;
    }
    ++failed;
    if (c.rank == 0) std::printf("# halo check FAILED: %s left %lld cells wrong\n", names[k].c_str(), total);
  }
  if (c.rank == 0 && !passed.empty()) std::printf("# halo check, every cell as expected:%s\n", passed.c_str());
  return failed;
}

// All implementations at one block size, interleaved. Returns false where a halo check failed.
bool run_size(const Context& c, const Communicators& comms, int m, bool first) {
  Workload work(c.options, comms.sources(), comms.destinations(), m);
  Implementations implementations(comms, work);
  std::vector<std::string> names;
  std::vector<Run> runs;
  for (const std::string& impl : c.options.impls) {
    std::string why;
    if (auto run = implementations.make(impl, why)) {
      names.push_back(impl);
      runs.push_back(*run);
    } else if (first && c.rank == 0) {
      std::printf("# skipped %s: %s\n", impl.c_str(), why.c_str());
    }
  }
  const bool checked = !work.halo || check_halos(c, names, runs, work) == 0;
  const auto times = time_interleaved(runs, c.options.reps, c.options.warmup, c.options.batch);
  // Counted after the timing, so one-time work (cart-auto's measuring) stays out of the count.
  std::vector<Result> results;
  double baseline = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    results.push_back({names[k], summarize(times[k]), traffic_of(names[k], runs[k], work)});
    if (names[k] == "mpi-neighbor") baseline = results[k].time.median;
  }
  if (c.rank != 0) return checked;
  for (const Result& r : results) print_row(c, r, m, baseline > 0 ? r.time.median / baseline : 0);
  std::fflush(stdout);
  if (c.csv) std::fflush(c.csv);
  return checked;
}

// Returns false where a halo check failed.
bool run_collectives(const Options& options) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Communicators comms(options);
  const int t = options.graph ? static_cast<int>((options.graph->edges.size() + static_cast<std::size_t>(p) / 2) /
                                                 static_cast<std::size_t>(p))
                              : static_cast<int>(options.offsets.size()) / options.d;
  const Context c{options, t, p, rank, mpi_library(), mpi_version(),
                  rank == 0 ? open_csv(options.csv, csv_header) : nullptr};
  if (rank == 0) {
    std::printf("%s, %s (%d-D, %d %s), %d processes, %s elements, size rule %s; %d repetitions after %d "
                "warm-up; %s\n", options.op.c_str(), options.neighborhood.c_str(), options.d, c.t,
                options.graph ? "edges per process" : "offsets", p,
                options.type_name.c_str(), rule_name(options.rule).c_str(), options.reps, options.warmup,
                c.library.c_str());
    if (options.graph && !options.graph->counts.empty())
      std::printf("# %s; %s\n", cartcoll::graphs::summary(*options.graph).c_str(),
                  uniform_blocks(options) ? "every block m elements" : "an edge's block count x m elements");
    std::printf("%-34s %8s %11s %11s %11s %7s %6s %10s %7s\n", "implementation", "m", "median us", "min us",
                "max us", "vs MPI", "msgs", "bytes", "kept");
  }
  bool first = true, checked = true;
  for (int m : options.sizes) {
    checked = run_size(c, comms, m, first) && checked;
    first = false;
  }
  if (c.csv) std::fclose(c.csv);
  return checked;
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = cartcoll::cli;
  constexpr const char* tool = "cartcoll-bench";
  // Read before MPI_Init: --help, --version and a bad argument need no MPI run, and are printed once.
  const Parsed parsed = parse_options(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.error.empty() || parsed.help || parsed.version) {
    if (cli::first_launched_process()) {
      if (!parsed.error.empty()) std::fprintf(stderr, "%s\n", cli::bad_argument_line(tool, parsed.error).c_str());
      else if (parsed.help) std::fputs(usage().c_str(), stdout);
      else std::printf("%s\n", cli::version_line(tool).c_str());
    }
    return parsed.error.empty() ? 0 : 2;
  }
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Every process finds the same mismatch, so all return without waiting for one another.
  if (const std::string mismatch = check_against_world(parsed.options); !mismatch.empty()) {
    if (rank == 0) std::fprintf(stderr, "%s\n", cli::bad_argument_line(tool, mismatch).c_str());
    MPI_Finalize();
    return 2;
  }
  bool checked = true;
  if (parsed.options.setup) run_setup_times(parsed.options);
  else checked = run_collectives(parsed.options);
  MPI_Finalize();
  return checked ? 0 : 1;
}
