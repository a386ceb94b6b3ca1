// SPDX-License-Identifier: BSD-3-Clause
#include "graphs.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>

#include "cartcoll/topology.hpp"
#include "cli.hpp"
#include "seeded_draws.hpp"

namespace cartcoll::graphs {

namespace {

constexpr int max_processes = 1 << 20;
constexpr long long max_edges = 1LL << 26;

// `count` distinct values of `pool`, uniformly: the first `count` places of a partial Fisher-Yates.
std::vector<int> sample(std::mt19937_64& rng, std::vector<int> pool, std::size_t count) {
  for (std::size_t k = 0; k < count; ++k) std::swap(pool[k], pool[k + below(rng, pool.size() - k)]);
  pool.resize(count);
  return pool;
}

std::string fixed(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

EdgeList erdos_renyi(int size, double density, std::uint64_t seed) {
  EdgeList graph{size, {}, "er-" + std::to_string(size) + "-" + fixed(density),
                 "Erdős–Rényi p=" + std::to_string(size) + " density=" + fixed(density)};
  std::mt19937_64 rng(seed);
  for (int from = 0; from < size; ++from)
    for (int to = 0; to < size; ++to)
      if (to != from && unit(rng) < density) graph.edges.emplace_back(from, to);
  return graph;
}

EdgeList random_degree(int size, int degree, std::uint64_t seed) {
  EdgeList graph{size, {}, "deg-" + std::to_string(size) + "-" + std::to_string(degree),
                 "random p=" + std::to_string(size) + " out-degree=" + std::to_string(degree)};
  std::mt19937_64 rng(seed);
  std::vector<int> others(static_cast<std::size_t>(std::max(size - 1, 0)));
  for (int from = 0; from < size; ++from) {
    std::iota(others.begin(), others.end(), 0);
    for (int& rank : others) rank += rank >= from ? 1 : 0;  // every rank but `from`
    for (int to : sample(rng, others, static_cast<std::size_t>(degree))) graph.edges.emplace_back(from, to);
  }
  return graph;
}

EdgeList overlap_graph(int size, int degree, double overlap, std::uint64_t seed) {
  EdgeList graph{size, {}, "overlap-" + std::to_string(size) + "-" + std::to_string(degree) + "-" + fixed(overlap),
                 "random p=" + std::to_string(size) + " out-degree=" + std::to_string(degree) + ", groups of " +
                     std::to_string(overlap_group) + " sharing " + fixed(overlap) + " of it"};
  std::mt19937_64 rng(seed);
  const auto shared_count = static_cast<std::size_t>(std::lround(overlap * degree));
  for (int first = 0; first < size; first += overlap_group) {
    const int end = std::min(size, first + overlap_group);
    std::vector<int> outside;  // the shared out-neighbors are drawn outside the group: no self edges
    for (int rank = 0; rank < size; ++rank)
      if (rank < first || rank >= end) outside.push_back(rank);
    const std::vector<int> shared = sample(rng, outside, std::min(shared_count, outside.size()));
    for (int from = first; from < end; ++from) {
      std::vector<int> rest;  // every rank but `from` and the shared ones
      for (int rank = 0; rank < size; ++rank)
        if (rank != from && std::find(shared.begin(), shared.end(), rank) == shared.end()) rest.push_back(rank);
      for (int to : shared) graph.edges.emplace_back(from, to);
      for (int to : sample(rng, rest, static_cast<std::size_t>(degree) - shared.size())) graph.edges.emplace_back(from, to);
    }
  }
  return graph;
}

namespace {

// Every offset in [-radius, radius]^dims but zero, within the distance the neighborhood allows.
std::vector<std::vector<int>> stencil_offsets(int dims, int radius, bool moore) {
  std::vector<std::vector<int>> offsets;
  std::vector<int> offset(static_cast<std::size_t>(dims), -radius);
  for (;;) {
    int manhattan = 0;
    for (int o : offset) manhattan += std::abs(o);
    if (manhattan > 0 && (moore || manhattan <= radius)) offsets.push_back(offset);
    std::size_t d = 0;
    while (d < offset.size() && offset[d] == radius) offset[d++] = -radius;
    if (d == offset.size()) return offsets;
    ++offset[d];
  }
}

}  // namespace

EdgeList stencil_graph(int size, int dims, int radius, bool moore) {
  const std::string kind = moore ? "moore" : "vonneumann";
  EdgeList graph{size, {}, kind + "-" + std::to_string(size) + "-" + std::to_string(dims) + "-" + std::to_string(radius),
                 (moore ? "Moore" : "von Neumann") + std::string(" neighborhood as a graph, p=") + std::to_string(size) +
                     " D=" + std::to_string(dims) + " R=" + std::to_string(radius)};
  const std::vector<int> extents = balanced_extents(size, dims);
  const auto offsets = stencil_offsets(dims, radius, moore);
  for (int from = 0; from < size; ++from) {
    std::vector<int> coords(extents.size());
    for (std::size_t d = extents.size(), rest = static_cast<std::size_t>(from); d-- > 0; rest /= static_cast<std::size_t>(extents[d]))
      coords[d] = static_cast<int>(rest % static_cast<std::size_t>(extents[d]));
    for (const auto& offset : offsets) {
      int to = 0;
      for (std::size_t d = 0; d < extents.size(); ++d)
        to = to * extents[d] + ((coords[d] + offset[d]) % extents[d] + extents[d]) % extents[d];
      graph.edges.emplace_back(from, to);
    }
  }
  return graph;
}

namespace {

// "min/mean/max" of `values` (not empty).
std::string spread(const std::vector<long long>& values) {
  const auto [least, most] = std::minmax_element(values.begin(), values.end());
  const double mean = static_cast<double>(std::accumulate(values.begin(), values.end(), 0LL)) /
                      static_cast<double>(values.size());
  std::ostringstream out;
  out.precision(1);
  out << *least << "/" << std::fixed << mean << "/" << *most;
  return out.str();
}

}  // namespace

std::string summary(const EdgeList& graph) {
  std::vector<long long> degrees(static_cast<std::size_t>(std::max(graph.size, 1)));
  for (const auto& edge : graph.edges) ++degrees[static_cast<std::size_t>(edge.first)];
  std::string line = std::to_string(graph.size) + " processes, " + std::to_string(graph.edges.size()) +
                     " edges, out-degree min/mean/max " + spread(degrees);
  if (!graph.counts.empty())
    line += ", count an edge min/mean/max " + spread(std::vector<long long>(graph.counts.begin(), graph.counts.end()));
  return line;
}

ProcessCounts counts_of(const EdgeList& graph, int rank) {
  ProcessCounts counts;
  for (std::size_t i = 0; i < graph.counts.size(); ++i) {
    if (graph.edges[i].first == rank) counts.out.push_back(graph.counts[i]);
    if (graph.edges[i].second == rank) counts.in.push_back(graph.counts[i]);
  }
  return counts;
}

std::optional<EdgeList> read_edge_file(const std::string& path, std::optional<int> size, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read " + path;
    return std::nullopt;
  }
  EdgeList graph{0, {}, "file", "edges of " + path};
  int largest = -1, number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream words(line);
    std::string first, second, extra;
    if (!(words >> first) || first.front() == '#') continue;
    const auto from = cli::parse_int(first);
    const auto to = words >> second ? cli::parse_int(second) : std::nullopt;
    if (!from || !to || words >> extra || *from < 0 || *to < 0) {
      error = path + ":" + std::to_string(number) + ": expected two ranks";
      return std::nullopt;
    }
    graph.edges.emplace_back(*from, *to);
    largest = std::max({largest, *from, *to});
  }
  graph.size = size.value_or(largest + 1);
  if (largest >= graph.size) error = path + " names rank " + std::to_string(largest) + " of " + std::to_string(graph.size);
  else if (graph.size < 1) error = path + " has no edges; give the number of processes";
  if (!error.empty()) return std::nullopt;
  return graph;
}

namespace {

// --mesh-partition P D N SEED, given its four words (nullopt where the command line ended).
void parse_mesh_partition(std::span<const std::optional<std::string>, 4> words, EdgeList& out, std::string& error) {
  std::array<int, 4> values{};
  for (std::size_t k = 0; k < words.size(); ++k) values[k] = words[k] ? cli::parse_int(*words[k]).value_or(-1) : -1;
  const auto [parts, dims, n, seed] = values;
  const double cells = std::pow(static_cast<double>(n), dims);
  if (parts < 1 || parts > max_processes || dims < 1 || dims > mesh_max_dims || n < 1 || seed < 0 || cells < parts ||
      cells > INT_MAX) {
    error = "--mesh-partition takes P D N SEED: 1 <= D <= " + std::to_string(mesh_max_dims) + ", P <= N^D < 2^31";
    return;
  }
  try {
    EdgeList graph = mesh_partition(parts, dims, n, static_cast<std::uint64_t>(seed));
    if (static_cast<long long>(graph.edges.size()) > max_edges) error = "--mesh-partition gives more than 2^26 edges";
    else out = std::move(graph);
  } catch (const std::invalid_argument& e) {
    error = std::string("--mesh-partition: ") + e.what();
  }
}

}  // namespace

bool parse_graph(std::span<const std::string> args, std::size_t& i, EdgeList& out, std::string& error) {
  const std::string& option = args[i];
  if (option != "--graph-file" && option != "--erdos-renyi" && option != "--random-degree" &&
      option != "--overlap-graph" && option != "--moore-graph" && option != "--von-neumann-graph" &&
      option != "--mesh-partition")
    return false;
  auto next = [&]() -> std::optional<std::string> {
    if (i + 1 >= args.size()) return std::nullopt;
    return args[++i];
  };
  const auto first = next();
  const auto second = next();
  if (option == "--graph-file") {
    const auto size = second ? cli::parse_int(*second) : std::nullopt;
    if (!first || !size || *size < 0 || *size > max_processes) {
      error = "--graph-file takes FILE P (P = 0: the largest rank named plus one)";
      return true;
    }
    if (auto read = read_edge_file(*first, *size == 0 ? std::nullopt : size, error)) out = std::move(*read);
    return true;
  }
  const auto third = next();
  if (option == "--overlap-graph") {
    const auto fourth = next();
    auto whole = [](const std::optional<std::string>& word) { return word ? cli::parse_int(*word).value_or(-1) : -1; };
    const int size = whole(first), degree = whole(second), seed = whole(fourth);
    const double overlap = third ? cli::parse_double(*third).value_or(-1.0) : -1.0;
    if (size <= overlap_group || size > max_processes || degree < 0 || degree > size - overlap_group || overlap < 0 ||
        overlap > 1 || seed < 0 || static_cast<long long>(degree) * size > max_edges)
      error = "--overlap-graph takes P K OVERLAP SEED: P > " + std::to_string(overlap_group) + ", 0 <= K <= P - " +
              std::to_string(overlap_group) + ", 0 <= OVERLAP <= 1, at most 2^26 edges";
    else
      out = overlap_graph(size, degree, overlap, static_cast<std::uint64_t>(seed));
    return true;
  }
  if (option == "--mesh-partition") {
    const std::array<std::optional<std::string>, 4> words = {first, second, third, next()};
    parse_mesh_partition(words, out, error);
    return true;
  }
  if (option == "--moore-graph" || option == "--von-neumann-graph") {
    auto value = [](const std::optional<std::string>& word) { return word ? cli::parse_int(*word).value_or(0) : 0; };
    const int size = value(first), dims = value(second), radius = value(third);
    if (size < 1 || size > max_processes || dims < 1 || dims > 6 || radius < 1 ||
        std::pow(2.0 * radius + 1, dims) * size > static_cast<double>(max_edges))
      error = option + " takes P D R: 1 <= D <= 6, R >= 1, at most 2^26 edges";
    else
      out = stencil_graph(size, dims, radius, option == "--moore-graph");
    return true;
  }
  std::optional<int> size, seed;
  if (first) size = cli::parse_int(*first);
  if (third) seed = cli::parse_int(*third);
  if (!size || *size < 1 || *size > max_processes || !seed || *seed < 0) {
    error = option + " takes P " + (option == "--erdos-renyi" ? "DENSITY" : "DEGREE") + " SEED, 1 <= P <= " +
            std::to_string(max_processes);
    return true;
  }
  if (option == "--erdos-renyi") {
    const auto density = second ? cli::parse_double(*second) : std::nullopt;
    if (!density || *density < 0 || *density > 1 || *density * *size * *size > static_cast<double>(max_edges))
      error = "DENSITY must be in [0, 1] and give at most 2^26 edges";
    else
      out = erdos_renyi(*size, *density, static_cast<std::uint64_t>(*seed));
  } else {
    const auto degree = second ? cli::parse_int(*second) : std::nullopt;
    if (!degree || *degree < 0 || *degree >= *size || static_cast<long long>(*degree) * *size > max_edges)
      error = "DEGREE must be in 0 .. P-1 and give at most 2^26 edges";
    else
      out = random_degree(*size, *degree, static_cast<std::uint64_t>(*seed));
  }
  return true;
}

const char* usage() {
  return "  --graph-file FILE P      OSU-style edge list, one 'source destination' per line; P processes\n"
         "                           (0: the largest rank named plus one)\n"
         "  --erdos-renyi P DENSITY SEED  every ordered pair an edge with probability DENSITY\n"
         "  --random-degree P K SEED  every process sends to K distinct others, drawn uniformly\n"
         "  --overlap-graph P K OVERLAP SEED  K distinct out-neighbors each; each group of 8 consecutive\n"
         "                           processes shares round(OVERLAP x K) of them (drawn outside the group)\n"
         "  --moore-graph P D R      the Moore neighborhood (Chebyshev distance <= R) on a D-dimensional torus\n"
         "  --von-neumann-graph P D R  the von Neumann one (Manhattan distance <= R), as plain graphs\n"
         "  --mesh-partition P D N SEED  the halo graph of N^D cells cut into P parts by recursive coordinate\n"
         "                           bisection, each cut moved by up to 10% of the part's extent: an edge\n"
         "                           between parts sharing a face, an edge or a vertex, counted in shared cells\n";
}

}  // namespace cartcoll::graphs
