// What dimension-ordered routing over a virtual grid of the ranks would send on a cartcoll-bench graph
// (docs/graph-combining.md, "Not built"). A model, not a planner: built by hand from the repository root,
//   g++ -O2 -std=c++20 -Isrc bench/results/model-2026-11-26-grid-routing/grid_routing_model.cpp build/dev/libcartcoll_util.a -o model
//   ./model P DENSITY SEED DIMS...   (the Erdős–Rényi graph of cartcoll-bench --erdos-renyi P DENSITY SEED)
// A block travels from its origin to its destination correcting one grid coordinate per phase; a
// process sends one message per peer and phase; allgather sends an origin's block once per peer.
// Time: per process and phase, its messages x o after its inputs arrived, plus L (o = 0.5 us, L = 1 us).
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <vector>
#include "util/graphs.hpp"
using namespace cartcoll::graphs;
int main(int argc, char** argv) {
  int p = atoi(argv[1]); double delta = atof(argv[2]); int seed = atoi(argv[3]);
  std::vector<int> dims; for (int i = 4; i < argc; ++i) dims.push_back(atoi(argv[i]));
  EdgeList g = erdos_renyi(p, delta, seed);
  int D = dims.size();
  auto coords = [&](int r) { std::vector<int> c(D); for (int j = D - 1; j >= 0; --j) { c[j] = r % dims[j]; r /= dims[j]; } return c; };
  auto rank = [&](const std::vector<int>& c) { int r = 0; for (int j = 0; j < D; ++j) r = r * dims[j] + c[j]; return r; };
  for (int gather = 0; gather < 2; ++gather) {
    // items (origin, dest) held by each process
    std::vector<std::vector<std::pair<int,int>>> held(p);
    std::vector<int> direct(p, 0);
    for (auto [s, d] : g.edges) { held[s].push_back({s, d}); direct[s]++; }
    double o = 0.5, L = 1.0;
    std::vector<double> ready(p, 0.0);
    double summax = 0; int totmax = 0; std::vector<int> tot(p, 0); long long vol = 0;
    for (int j = 0; j < D; ++j) {
      std::vector<std::vector<std::pair<int,int>>> next(p);
      std::vector<std::map<int, std::set<std::pair<int,int>>>> out(p);  // peer -> blocks
      std::vector<int> nsend(p, 0);
      for (int x = 0; x < p; ++x) {
        auto cx = coords(x);
        for (auto [o_, d] : held[x]) {
          auto c = cx; c[j] = coords(d)[j]; int y = rank(c);
          if (y == x) next[x].push_back({o_, d});
          else { next[y].push_back({o_, d}); out[x][y].insert(gather ? std::make_pair(o_, -1) : std::make_pair(o_, d)); }
        }
        nsend[x] = out[x].size(); tot[x] += nsend[x];
        for (auto& [y, b] : out[x]) vol += b.size();
      }
      int mx = *std::max_element(nsend.begin(), nsend.end()); summax += mx * o + L;
      std::vector<double> nr(p);
      for (int x = 0; x < p; ++x) nr[x] = ready[x] + nsend[x] * o;
      for (int x = 0; x < p; ++x) for (auto& [y, b] : out[x]) nr[y] = std::max(nr[y], ready[x] + nsend[x] * o + L);
      ready = nr; held = next;
      printf("  phase %d: most messages sent by a process %d\n", j, mx);
    }
    totmax = *std::max_element(tot.begin(), tot.end());
    int dmax = *std::max_element(direct.begin(), direct.end());
    double crit = *std::max_element(ready.begin(), ready.end());
    printf("%s dims", gather ? "allgather" : "alltoall "); for (int x : dims) printf(" %d", x);
    printf(": busiest total %d msgs (direct %d: %.1f us); sum of phase maxima %.1f us; LogP critical path %.1f us (%.2fx); volume %lld blocks (direct %zu)\n",
           totmax, dmax, dmax * 0.5 + 1, summax, crit, crit / (dmax * 0.5 + 1), vol, g.edges.size());
  }
}
