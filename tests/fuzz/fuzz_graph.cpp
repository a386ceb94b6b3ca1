// SPDX-License-Identifier: BSD-3-Clause
// The graph half of the planner fuzzer: a distributed graph with repeated and self edges, processes
// without edges, absent neighbors and sources in any order; every graph planner's schedules, with the
// set-ups run for all processes through the simulated transport (graph-combining with the drawn
// phase budget, node-combining within the drawn nodes, graph-routing on the drawn grid), and what
// the MPI layer plans under `auto`: the direct exchange beside a combining pattern, and each process
// combining only the sides it has blocks on. Drawn too: blocks sized per edge (a v or w call), where
// every planner that carries sizes runs with sizes that travel, alltoall also under `auto`'s size gate.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/model/graph.hpp"
#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/algorithms/graph_routing/graph_routing.hpp"
#include "core/planning/plan.hpp"
#include "fuzz_cases.hpp"

namespace cartcoll::fuzz {

namespace {

struct GraphCase {
  Graph graph;
  Collective collective = Collective::alltoall;
  std::size_t block_size = 0;
  CombiningParameters combining;  // node_size: node-combining's nodes (graph-combining runs with 0)
  int routing_dims = 1;
  bool per_edge = false;                // blocks sized per edge: sizes travel
  std::optional<long long> gate;        // under per_edge, alltoall: `auto`'s size gate
};

Graph decode_graph(Reader& in) {
  const int p = 1 + in.next(16);
  std::vector<std::pair<int, int>> edges;
  const int e = in.next(97);
  for (int k = 0; k < e; ++k) {
    const int a = in.next(256), b = in.next(256);
    edges.push_back(a >= 224 && !edges.empty() ? edges.back() : std::pair{a % p, b % p});
  }
  Graph graph = Graph::from_edges(p, edges);
  for (int r = 0; r < p; ++r) {
    std::vector<int>& sources = graph.sources(r);
    const int n = static_cast<int>(sources.size());
    std::rotate(sources.begin(), sources.begin() + in.next(n + 1) % std::max(n, 1), sources.end());
  }
  const int absent = in.next(4);
  for (int k = 0; k < absent; ++k) {
    const int r = in.next(p);
    std::vector<int>& list = in.next(2) == 0 ? graph.sources(r) : graph.destinations(r);
    list.insert(list.begin() + in.next(static_cast<int>(list.size()) + 1), no_process);
  }
  return graph;
}

GraphCase decode(Reader& in) {
  GraphCase c;
  c.graph = decode_graph(in);
  c.collective = in.next(2) == 0 ? Collective::alltoall : Collective::allgather;
  c.block_size = static_cast<std::size_t>(in.next(5));
  c.combining.threshold = 2 + in.next(3);
  c.combining.phases = 2 + in.next(3);
  c.combining.steps = in.next(17);
  c.combining.candidates = 1 + in.next(8);
  c.combining.matching_rounds = 1 + in.next(6);
  c.combining.node_size = in.next(c.graph.size() + 1);
  c.routing_dims = 1 + in.next(3);
  c.per_edge = in.next(2) == 1;
  if (const int gate = in.next(9); c.per_edge && c.collective == Collective::alltoall && gate < 8) c.gate = gate - 1;
  return c;
}

// Under per_edge, the size of the k-th edge from `from` to `to` (allgather: of `from`'s one block).
std::size_t edge_size(const GraphCase& c, int from, int to, int k) {
  if (!c.per_edge) return c.block_size;
  const int key = c.collective == Collective::allgather ? from : (from * 131 + to) * 31 + k;
  return static_cast<std::size_t>((key * 2654435761u) >> 7) % 7u;
}

// For each entry of `ranks`, how often the same rank came before it.
std::vector<int> occurrences(const std::vector<int>& ranks) {
  std::map<int, int> seen;
  std::vector<int> k;
  for (int rank : ranks) k.push_back(seen[rank]++);
  return k;
}

void list(std::ostringstream& out, const std::vector<int>& ranks) {
  out << "[";
  for (std::size_t i = 0; i < ranks.size(); ++i) out << (i ? " " : "") << ranks[i];
  out << "]";
}

std::string describe(const GraphCase& c) {
  std::ostringstream out;
  out << "graph of " << c.graph.size() << " (rank: sources -> destinations, -1 absent)";
  for (int r = 0; r < c.graph.size(); ++r) {
    out << (r ? "; " : " ") << r << ": ";
    list(out, c.graph.sources(r));
    out << " -> ";
    list(out, c.graph.destinations(r));
  }
  const CombiningParameters& k = c.combining;
  out << ", " << (c.collective == Collective::alltoall ? "alltoall" : "allgather") << ", block size " << c.block_size
      << ", threshold " << k.threshold << ", phases " << k.phases << ", steps " << k.steps << ", candidates "
      << k.candidates << ", matching rounds " << k.matching_rounds << ", node size " << k.node_size
      << ", routing dimensions " << c.routing_dims << (c.per_edge ? ", sizes per edge" : "");
  if (c.gate) out << ", size gate " << *c.gate;
  return out.str();
}

// What a process of the MPI layer sees: its lists, and the set-ups' results where they ran.
struct SetUps {
  std::vector<CombiningPattern> anywhere;  // graph-combining's: friends anywhere
  std::vector<CombiningPattern> in_nodes;  // node-combining's: friends within a node
  std::vector<RoutingPattern> routes;
};

// The schedules of `planner` for every process, each with the pattern `pattern_of(rank)` (null:
// none) and the routing set-up's result where the planner needs it.
template <typename PatternOf>
std::vector<Schedule> plan_all(const GraphCase& c, const SetUps& setups, const PlannerEntry& planner, PatternOf pattern_of) {
  std::vector<Schedule> schedules;
  for (int r = 0; r < c.graph.size(); ++r) {
    GraphView view = c.graph.view(r);
    view.setup = pattern_of(r);
    if (planner.setup == &detail::routing_setup) view.setup = &setups.routes[static_cast<std::size_t>(r)];
    schedules.push_back(plan(Algorithm::named(planner.name), view, c.collective));
  }
  return schedules;
}

// auto on a graph where a combining set-up ran, with blocks small enough to combine: a process
// combines the sides it has blocks on (per_call.cpp), the direct exchange (with the pattern's
// phase budget) where it has neither.
std::vector<Schedule> plan_auto(const GraphCase& c, const PlannerEntry& combining,
                                const std::vector<CombiningPattern>& patterns) {
  std::vector<Schedule> schedules;
  for (int r = 0; r < c.graph.size(); ++r) {
    GraphView view = c.graph.view(r);
    const bool sends = c.collective == Collective::allgather || !view.destinations.empty();
    const CombinedSides sides{sends, !view.sources.empty()};
    const CombiningPattern restricted = restricted_to(patterns[static_cast<std::size_t>(r)], sides);
    view.setup = sides.sends || sides.receives ? &restricted : &patterns[static_cast<std::size_t>(r)];
    const std::string_view name = sides.sends || sides.receives ? combining.name : std::string_view("trivial");
    schedules.push_back(plan(Algorithm::named(name), view, c.collective));
  }
  return schedules;
}

}  // namespace

void fuzz_graph(std::span<const std::uint8_t> input, Reader& in, bool print) {
  const GraphCase c = decode(in);
  const Decoded decoded{input, describe(c)};
  if (print) std::fprintf(stderr, "case: %s\n", decoded.description.c_str());
  const int p = c.graph.size();

  reference::Blocks send(static_cast<std::size_t>(p)), recv(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    const std::vector<int>& out = c.graph.destinations(r);
    const std::vector<int> out_k = occurrences(out), in_k = occurrences(c.graph.sources(r));
    const std::size_t blocks = c.collective == Collective::allgather ? 1 : out.size();
    for (std::size_t j = 0; j < blocks; ++j)
      send[static_cast<std::size_t>(r)].push_back(
          fill(0x5E4Du, r, static_cast<int>(j), c.collective == Collective::allgather ? edge_size(c, r, r, 0) : edge_size(c, r, out[j], out_k[j])));
    for (std::size_t i = 0; i < c.graph.sources(r).size(); ++i) {
      const int from = c.graph.sources(r)[i];
      const std::size_t size = from == no_process ? c.block_size : edge_size(c, from, r, in_k[i]);
      recv[static_cast<std::size_t>(r)].push_back(fill(0xA5E7u, r, static_cast<int>(i), size));
    }
  }
  const reference::Blocks want = reference::exchange(c.graph, c.collective, send, recv);

  SetUps setups;
  CombiningParameters anywhere = c.combining;
  anywhere.node_size = 0;
  try {
    setups.anywhere = simulate_combining_setup(c.graph, anywhere).patterns;
    setups.in_nodes = simulate_combining_setup(c.graph, c.combining).patterns;
    setups.routes = simulate_routing_setup(c.graph, c.routing_dims).patterns;
  } catch (const std::exception& error) {
    fail(decoded, "set-up", std::string("exception: ") + error.what());
  }
  for (const PlannerEntry& entry : planners()) {
    if (!entry.serves(NeighborhoodKind::graph) || !entry.serves(c.collective)) continue;
    const std::string name(entry.name);
    const std::vector<CombiningPattern>& patterns = entry.needs_nodes ? setups.in_nodes : setups.anywhere;
    const auto pattern_of = [&](int r) -> const CombiningPattern* {
      return entry.setup == &detail::combining_setup ? &patterns[static_cast<std::size_t>(r)] : nullptr;
    };
    if (c.per_edge) {  // a v or w call: only what carries sizes forwards, and then with sizes that travel
      if (!entry.graph_sizes_travel && entry.setup != nullptr) continue;
      prove(decoded, name + " with sizes that travel", c.collective, send, recv, want, [&] {
        std::vector<Schedule> schedules = plan_all(c, setups, entry, pattern_of);
        for (Schedule& schedule : schedules) {
          schedule.sizes_travel = true;
          schedule.forward_up_to = c.gate;
        }
        return schedules;
      });
      continue;
    }
    prove(decoded, name, c.collective, send, recv, want, [&] { return plan_all(c, setups, entry, pattern_of); });
    if (entry.setup != &detail::combining_setup) continue;
    // Beside this planner's set-up: the direct exchange in its last phase, and auto's mix.
    prove(decoded, "trivial with " + name + "'s pattern", c.collective, send, recv, want, [&] {
      return plan_all(c, setups, Algorithm::named("trivial").planner(),
                      [&](int r) { return &patterns[static_cast<std::size_t>(r)]; });
    });
    prove(decoded, "auto with " + name, c.collective, send, recv, want,
          [&] { return plan_auto(c, entry, patterns); });
  }
}

}  // namespace cartcoll::fuzz
