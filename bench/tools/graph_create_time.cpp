// SPDX-License-Identifier: BSD-3-Clause
// Creation time of a CC_ graph communicator per algorithm on Erdős–Rényi(p, DENSITY, 1) (median of 11
// creations, the slowest process each; rank 0 prints; bench/results/graph-routing-tcp-2cores).
// Built by hand from the repository root:
//   mpicxx -O2 -std=c++20 -Iinclude -Isrc THIS_FILE build/bench-openmpi/libcartcoll_util.a \
//     -Lbuild/bench-openmpi -lcartcoll -Wl,-rpath,$PWD/build/bench-openmpi -o create_time
//   mpirun [--mca btl tcp,self] -n 27 ./create_time 0.5 trivial graph-combining graph-routing auto
#include <mpi.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
#include "cartcoll/neighbor.h"
#include "util/graphs.hpp"
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size; MPI_Comm_rank(MPI_COMM_WORLD, &rank); MPI_Comm_size(MPI_COMM_WORLD, &size);
  const double density = atof(argv[1]);
  auto edges = cartcoll::graphs::erdos_renyi(size, density, 1);
  std::vector<int> in, out;
  for (auto [s, d] : edges.edges) { if (s == rank) out.push_back(d); if (d == rank) in.push_back(s); }
  for (int a = 2; a < argc; ++a) {
    std::string name = argv[a];
    MPI_Info info; MPI_Info_create(&info);
    if (name != "auto") MPI_Info_set(info, "cartcoll_algorithm", name.c_str());
    if (name == "graph-routing" || name == "auto") MPI_Info_set(info, "cartcoll_assert_uniform_blocks", "true");
    std::vector<double> t;
    for (int r = 0; r < 11; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      MPI_Comm c;
      CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, in.size(), in.data(), MPI_UNWEIGHTED, out.size(), out.data(), MPI_UNWEIGHTED, info, 0, &c);
      double dt = MPI_Wtime() - t0, mx;
      MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      t.push_back(mx);
      MPI_Comm_free(&c);
    }
    std::sort(t.begin(), t.end());
    if (rank == 0) printf("%s: median %.1f ms (min %.1f, max %.1f)\n", name.c_str(), t[5] * 1e3, t[0] * 1e3, t[10] * 1e3);
    MPI_Info_free(&info);
  }
  MPI_Finalize();
}
