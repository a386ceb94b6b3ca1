// SPDX-License-Identifier: BSD-3-Clause
#include "setup_times.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "cartcoll/cartcoll.h"
#include "cartcoll/topology.hpp"
#include "measure.hpp"
#include "core/support/median.hpp"
#include "core/model/neighborhoods.hpp"
#include "report.hpp"

namespace bench {

#ifdef CARTCOLL_HAVE_MPI_NEIGHBOR_COLLECTIVES
namespace {

struct Case {
  std::string label;
  int d, r;
  std::vector<int> offsets;
};

struct SetupTimes {
  double graph_adjacent, graph, cart_create, cart_init, cart_call, mpi_call;
};

double max_over_ranks(double value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return value;
}

// Median over `reps` of the max over ranks of `timed`; `untimed` runs after each repetition.
double median_time(int reps, const std::function<void()>& timed, const std::function<void()>& untimed) {
  std::vector<double> times;
  for (int rep = 0; rep < reps; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    timed();
    times.push_back(max_over_ranks(MPI_Wtime() - start));
    untimed();
  }
  return cartcoll::detail::median(times);
}

MPI_Comm create_cart(const Case& c, const std::vector<int>& dims) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cartcoll_algorithm", "combining");
  const std::vector<int> periods(dims.size(), 1);
  MPI_Comm cart = MPI_COMM_NULL;
  Cart_neighborhood_create(MPI_COMM_WORLD, c.d, dims.data(), periods.data(),
                           static_cast<int>(c.offsets.size()) / c.d, c.offsets.data(), MPI_UNWEIGHTED, info, 0,
                           &cart);
  MPI_Info_free(&info);
  return cart;
}

SetupTimes measure_case(const Case& c, int reps) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> dims(static_cast<std::size_t>(c.d), 0);
  MPI_Dims_create(p, c.d, dims.data());
  const cartcoll::Grid grid(dims, std::vector<bool>(dims.size(), true));
  const cartcoll::Peers peers = cartcoll::peers_of(grid, cartcoll::Offsets(c.d, c.offsets), grid.coords_of(rank));
  std::vector<int> sources, targets;
  for (const auto& s : peers.sources) sources.push_back(*s);
  for (const auto& s : peers.targets) targets.push_back(*s);
  const int t = static_cast<int>(targets.size());

  SetupTimes times{};
  MPI_Comm comm = MPI_COMM_NULL;
  auto free_comm = [&comm] { MPI_Comm_free(&comm); };
  times.graph_adjacent = median_time(reps, [&] {
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, t, sources.data(), MPI_UNWEIGHTED, t, targets.data(),
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm);
  }, free_comm);
  times.graph = median_time(reps, [&] {
    const int degree = t;
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &degree, targets.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                          &comm);
  }, free_comm);
  times.cart_create = median_time(reps, [&] { comm = create_cart(c, dims); }, free_comm);

  const MPI_Comm cart = create_cart(c, dims);
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, t, sources.data(), MPI_UNWEIGHTED, t, targets.data(),
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph);
  std::vector<int> send(static_cast<std::size_t>(t), 1), recv(static_cast<std::size_t>(t), 0);
  Cart_request request = CART_REQUEST_NULL;
  auto init = [&] { Cart_alltoall_init(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, cart, MPI_INFO_NULL, &request); };
  times.cart_init = median_time(reps, [&] { init(); Cart_request_free(&request); }, [] {});

  init();
  const Run cart_call = [&request] { Cart_start(&request); Cart_wait(&request); };
  const Run mpi_call = [&] { MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, graph); };
  const int call_reps = std::max(reps, 20);
  const auto call_times = time_interleaved({cart_call, mpi_call}, call_reps, std::max(2, call_reps / 10));
  times.cart_call = summarize(call_times[0]).median;
  times.mpi_call = summarize(call_times[1]).median;
  Cart_request_free(&request);
  MPI_Comm_free(&graph);
  MPI_Comm cart_copy = cart;
  MPI_Comm_free(&cart_copy);
  return times;
}

std::string break_even(const SetupTimes& s) {
  const double gain = s.mpi_call - s.cart_call;
  if (gain <= 0) return "never";
  const double cost = s.cart_create + s.cart_init - s.graph_adjacent;
  return std::to_string(cost <= 0 ? 0L : static_cast<long>(std::ceil(cost / gain)));
}

std::vector<Case> cases_of(const Options& options) {
  std::vector<Case> cases;
  if (!options.setup_grid) return {{options.neighborhood, options.d, options.radius, options.offsets}};
  for (int d = 2; d <= 5; ++d)
    for (int r = 1; r <= 3; ++r)
      cases.push_back({"moore-" + std::to_string(d) + "-" + std::to_string(r), d, r,
                       cartcoll::neighborhoods::moore(d, r)});
  return cases;
}

void write_rows(FILE* csv, const Case& c, int t, int p, const SetupTimes& s) {
  const std::pair<const char*, double> rows[] = {
      {"dist_graph_create_adjacent", s.graph_adjacent}, {"dist_graph_create", s.graph},
      {"cart_neighborhood_create", s.cart_create},      {"cart_alltoall_init", s.cart_init},
      {"cart_call", s.cart_call},                       {"mpi_call", s.mpi_call}};
  for (const auto& [kind, seconds] : rows)
    std::fprintf(csv, "%s,%s,%d,%d,%d,%d,%.9f\n", kind, c.label.c_str(), c.d, c.r, t, p, seconds);
  std::fflush(csv);
}

}  // namespace

void run_setup_times(const Options& options) {
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int reps = options.reps_given ? options.reps : 5;
  FILE* csv = rank == 0 ? open_csv(options.csv, "kind,neighborhood,d,r,t,processes,seconds") : nullptr;
  if (rank == 0) {
    std::printf("set-up times, %d processes, median of %d repetitions of the max over ranks (us); "
                "alltoall of 1 int, combining\n", p, reps);
    std::printf("%-16s %6s %12s %12s %12s %12s %10s %10s %10s\n", "neighborhood", "t", "graph_adj", "graph",
                "cart_create", "cart_init", "cart_call", "mpi_call", "break-even");
  }
  for (const Case& c : cases_of(options)) {
    const SetupTimes s = measure_case(c, reps);
    const int t = static_cast<int>(c.offsets.size()) / c.d;
    if (rank != 0) continue;
    std::printf("%-16s %6d %12.1f %12.1f %12.1f %12.1f %10.1f %10.1f %10s\n", c.label.c_str(), t,
                s.graph_adjacent * 1e6, s.graph * 1e6, s.cart_create * 1e6, s.cart_init * 1e6, s.cart_call * 1e6,
                s.mpi_call * 1e6, break_even(s).c_str());
    std::fflush(stdout);
    if (csv) write_rows(csv, c, t, p, s);
  }
  if (csv) std::fclose(csv);
}

#else
// The set-up times compare with MPI_Dist_graph_create*, which this MPI lacks (cmake/mpi_features.cmake).
void run_setup_times(const Options&) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::fprintf(stderr, "cartcoll-bench --setup: this MPI has no usable MPI_Dist_graph_create*\n");
}
#endif

}  // namespace bench
