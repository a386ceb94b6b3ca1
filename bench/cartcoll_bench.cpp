// cartcoll-bench: times cartcoll's collectives against MPI_Neighbor_* on the same neighborhood.
// Every repetition starts after a barrier; its time is the maximum over ranks; implementations are
// interleaved repetition by repetition so that drift hits all alike; the median is reported.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cartcoll/cartcoll.h"
#include "neighborhoods.hpp"

namespace {

struct Options {
  std::string op = "alltoall";
  std::vector<int> offsets;
  int d = 3;
  std::vector<int> sizes = {1, 10, 100};
  std::vector<std::string> impls = {"cart-trivial", "cart-auto", "cart-auto-persistent", "mpi-neighbor"};
  int reps = 200, warmup = 20;
  std::string csv;
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1)
    parts.push_back(text.substr(start, end - start));
  parts.push_back(text.substr(start));
  return parts;
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: cartcoll-bench [--op alltoall|allgather] [--moore D R | --von-neumann D R | --box D N F]\n"
               "                      [--sizes 1,10,100] [--impl cart-ALGORITHM[-persistent],...,mpi-neighbor]\n"
               "                      (ALGORITHM: trivial, combining, torus, auto)\n"
               "                      [--reps N] [--warmup N] [--csv FILE]\n");
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options options;
  options.offsets = bench::moore(3, 1);
  auto number = [&](int& i) { return i + 1 < argc ? std::atoi(argv[++i]) : (usage(), 0); };
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--op" && i + 1 < argc) options.op = argv[++i];
    else if (arg == "--moore") { options.d = number(i); options.offsets = bench::moore(options.d, number(i)); }
    else if (arg == "--von-neumann") { options.d = number(i); options.offsets = bench::von_neumann(options.d, number(i)); }
    else if (arg == "--box") {
      options.d = number(i);
      const int n = number(i), first = number(i);
      options.offsets = bench::box(options.d, n, first, true);
    } else if (arg == "--sizes" && i + 1 < argc) {
      options.sizes.clear();
      for (const auto& part : split(argv[++i], ',')) options.sizes.push_back(std::atoi(part.c_str()));
    } else if (arg == "--impl" && i + 1 < argc) options.impls = split(argv[++i], ',');
    else if (arg == "--reps") options.reps = number(i);
    else if (arg == "--warmup") options.warmup = number(i);
    else if (arg == "--csv" && i + 1 < argc) options.csv = argv[++i];
    else usage();
  }
  if (options.op != "alltoall" && options.op != "allgather") usage();
  return options;
}

// One implementation bound to its buffers: a callable that performs one collective.
using Run = std::function<void()>;

struct Setup {
  std::map<std::string, MPI_Comm> carts;  // one communicator per algorithm, forced by info key
  MPI_Comm graph = MPI_COMM_NULL;
  int t = 0;
};

// "cart-combining-persistent" -> "combining"
std::string algorithm_of(const std::string& impl) {
  const bool persistent = impl.ends_with("-persistent");
  return impl.substr(5, impl.size() - 5 - (persistent ? 11 : 0));
}

MPI_Comm make_cart(const Options& options, const std::vector<int>& dims, const char* algorithm) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "cartcoll_algorithm", algorithm);
  std::vector<int> periods(dims.size(), 1);
  MPI_Comm cart = MPI_COMM_NULL;
  Cart_neighborhood_create(MPI_COMM_WORLD, options.d, dims.data(), periods.data(),
                           static_cast<int>(options.offsets.size()) / options.d, options.offsets.data(), MPI_UNWEIGHTED,
                           info, 0, &cart);
  MPI_Info_free(&info);
  return cart;
}

class Bench {
 public:
  Bench(const Options& options, const Setup& setup, int size) : options_(options), setup_(setup), size_(size) {
    const int t = setup.t, send_blocks = options.op == "alltoall" ? t : 1;
    send_.assign(static_cast<std::size_t>(send_blocks * size), 1);
    recv_.assign(static_cast<std::size_t>(t * size), 0);
  }
  ~Bench() {
    for (Cart_request& request : requests_) Cart_request_free(&request);
  }

  Run make(const std::string& impl) {
    const bool gather = options_.op == "allgather";
    int* s = send_.data();
    int* r = recv_.data();
    const int m = size_;
    if (impl == "mpi-neighbor") {
      MPI_Comm graph = setup_.graph;
      if (gather) return [=] { MPI_Neighbor_allgather(s, m, MPI_INT, r, m, MPI_INT, graph); };
      return [=] { MPI_Neighbor_alltoall(s, m, MPI_INT, r, m, MPI_INT, graph); };
    }
    const bool persistent = impl.ends_with("-persistent");
    MPI_Comm cart = setup_.carts.at(algorithm_of(impl));
    if (!persistent) {
      if (gather) return [=] { Cart_allgather(s, m, MPI_INT, r, m, MPI_INT, cart); };
      return [=] { Cart_alltoall(s, m, MPI_INT, r, m, MPI_INT, cart); };
    }
    Cart_request& request = requests_.emplace_back(CART_REQUEST_NULL);
    if (gather) Cart_allgather_init(s, m, MPI_INT, r, m, MPI_INT, cart, MPI_INFO_NULL, &request);
    else Cart_alltoall_init(s, m, MPI_INT, r, m, MPI_INT, cart, MPI_INFO_NULL, &request);
    Cart_request* handle = &request;
    return [=] {
      Cart_start(handle);
      Cart_wait(handle);
    };
  }

 private:
  const Options& options_;
  const Setup& setup_;
  int size_;
  std::vector<int> send_, recv_;
  std::vector<Cart_request> requests_;  // reserved up front: handles are captured by address
 public:
  void reserve(std::size_t count) { requests_.reserve(count); }
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Times all implementations at one block size, interleaved; returns per implementation the
// per-repetition maxima over ranks.
std::vector<std::vector<double>> measure(const Options& options, const std::vector<Run>& runs) {
  std::vector<std::vector<double>> times(runs.size());
  for (int rep = -options.warmup; rep < options.reps; ++rep) {
    for (std::size_t k = 0; k < runs.size(); ++k) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      runs[k]();
      double elapsed = MPI_Wtime() - start;
      MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (rep >= 0) times[k].push_back(elapsed);
    }
  }
  return times;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const Options options = parse(argc, argv);
  int p = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> dims(static_cast<std::size_t>(options.d), 0);
  MPI_Dims_create(p, options.d, dims.data());
  Setup setup;
  setup.t = static_cast<int>(options.offsets.size()) / options.d;
 for (const auto& impl : options.impls)
    if (impl.starts_with("cart-") && !setup.carts.count(algorithm_of(impl)))
      setup.carts[algorithm_of(impl)] = make_cart(options, dims, algorithm_of(impl).c_str());
  if (setup.carts.empty()) setup.carts["trivial"] = make_cart(options, dims, "trivial");
  std::vector<int> sources(static_cast<std::size_t>(setup.t)), targets(sources.size());
  Cart_neighbor_get(setup.carts.begin()->second, setup.t, sources.data(), MPI_UNWEIGHTED, setup.t, targets.data(), MPI_UNWEIGHTED);
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, setup.t, sources.data(), MPI_UNWEIGHTED, setup.t, targets.data(),
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &setup.graph);

  FILE* csv = nullptr;
  if (rank == 0 && !options.csv.empty()) {
    csv = std::fopen(options.csv.c_str(), "w");
    if (csv) std::fprintf(csv, "impl,op,d,t,processes,block_ints,median_s,min_s,max_s,ratio_to_mpi_neighbor\n");
  }
  if (rank == 0)
    std::printf("%s, %d-D neighborhood of %d offsets, %d processes, median of %d repetitions (us)\n",
                options.op.c_str(), options.d, setup.t, p, options.reps);
  if (rank == 0) std::printf("%-26s %10s %12s %12s %12s %8s\n", "implementation", "ints/block", "median", "min", "max",
                             "vs MPI");
  for (int size : options.sizes) {
    Bench bench(options, setup, size);
    bench.reserve(options.impls.size());
    std::vector<Run> runs;
    for (const auto& impl : options.impls) runs.push_back(bench.make(impl));
    const auto times = measure(options, runs);
    double baseline = 0;
    for (std::size_t k = 0; k < runs.size(); ++k)
      if (options.impls[k] == "mpi-neighbor") baseline = median(times[k]);
    for (std::size_t k = 0; k < runs.size() && rank == 0; ++k) {
      const double med = median(times[k]), low = *std::min_element(times[k].begin(), times[k].end()),
                   high = *std::max_element(times[k].begin(), times[k].end());
      const double ratio = baseline > 0 ? med / baseline : 0;
      std::printf("%-26s %10d %12.1f %12.1f %12.1f %8.2f\n", options.impls[k].c_str(), size, med * 1e6, low * 1e6,
                  high * 1e6, ratio);
      if (csv)
        std::fprintf(csv, "%s,%s,%d,%d,%d,%d,%.9f,%.9f,%.9f,%.4f\n", options.impls[k].c_str(), options.op.c_str(),
                     options.d, setup.t, p, size, med, low, high, ratio);
    }
  }
  if (csv) std::fclose(csv);
  MPI_Comm_free(&setup.graph);
  for (auto& [name, cart] : setup.carts) MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
