// SPDX-License-Identifier: BSD-3-Clause
// --mesh-partition: the halo graph of a box of cells cut into parts by recursive coordinate
// bisection with jitter, shaped like the neighborhoods of mesh codes' domain decompositions.
#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "graphs.hpp"
#include "seeded_draws.hpp"

namespace cartcoll::graphs {

namespace {

// Cells [lo, hi) in every dimension; the dimensions past the mesh's have the one cell [0, 1).
struct Box {
  std::array<int, mesh_max_dims> lo{}, hi{};
};

long long cells(const Box& box) {
  long long count = 1;
  for (std::size_t d = 0; d < box.lo.size(); ++d) count *= box.hi[d] - box.lo[d];
  return count;
}

// The cells `a` and `b` share.
long long common_cells(const Box& a, const Box& b) {
  long long count = 1;
  for (std::size_t d = 0; d < a.lo.size(); ++d) count *= std::max(0, std::min(a.hi[d], b.hi[d]) - std::max(a.lo[d], b.lo[d]));
  return count;
}

// `box` and the cells at Chebyshev distance 1 from it.
Box grown(Box box) {
  for (std::size_t d = 0; d < box.lo.size(); ++d) --box.lo[d], ++box.hi[d];
  return box;
}

// The bisection tree: a leaf is a part, an inner node's two children split its box.
struct Node {
  Box box;
  int part = -1;                      // leaves
  std::size_t low = 0, high = 0;      // inner nodes: the children
};

// Where to cut `box`, of `parts` parts: the dimension of its longest extent (the first of equals) and
// the coordinate where the high side starts.
std::pair<std::size_t, int> cut_of(const Box& box, int parts, std::mt19937_64& rng) {
  std::size_t dim = 0;
  for (std::size_t d = 1; d < box.lo.size(); ++d)
    if (box.hi[d] - box.lo[d] > box.hi[dim] - box.lo[dim]) dim = d;
  const long long length = box.hi[dim] - box.lo[dim], across = cells(box) / length;
  const int low_parts = parts / 2, high_parts = parts - low_parts;
  const double proportional = static_cast<double>(length) * low_parts / parts;
  const double jitter = (2 * unit(rng) - 1) * mesh_jitter * static_cast<double>(length);
  // Each side keeps at least as many cells as parts.
  const long long first = (low_parts + across - 1) / across, last = length - (high_parts + across - 1) / across;
  if (first > last)
    throw std::invalid_argument("a box of " + std::to_string(cells(box)) + " cells cannot be cut into " +
                                std::to_string(parts) + " parts: give the mesh more cells per part");
  const long long at = std::clamp(std::llround(proportional + jitter), first, last);
  return {dim, box.lo[dim] + static_cast<int>(at)};
}

// Cuts nodes[index], of `parts` parts, down to single parts, numbering them from `next_part` on.
void bisect(std::vector<Node>& nodes, std::size_t index, int parts, std::mt19937_64& rng, int& next_part) {
  if (parts == 1) {
    nodes[index].part = next_part++;
    return;
  }
  const auto [dim, at] = cut_of(nodes[index].box, parts, rng);
  Node low{nodes[index].box}, high{nodes[index].box};
  low.box.hi[dim] = at;
  high.box.lo[dim] = at;
  nodes[index].low = nodes.size();
  nodes.push_back(low);
  nodes[index].high = nodes.size();
  nodes.push_back(high);
  bisect(nodes, nodes[index].low, parts / 2, rng, next_part);
  bisect(nodes, nodes[index].high, parts - parts / 2, rng, next_part);
}

// Appends the parts under nodes[index] whose boxes meet `region`.
void parts_meeting(const std::vector<Node>& nodes, std::size_t index, const Box& region, std::vector<int>& found) {
  const Node& node = nodes[index];
  if (common_cells(node.box, region) == 0) return;
  if (node.part >= 0) {
    found.push_back(node.part);
    return;
  }
  parts_meeting(nodes, node.low, region, found);
  parts_meeting(nodes, node.high, region, found);
}

// The bisection tree of the box of n^dims cells: nodes[0] is the root.
std::vector<Node> bisection_tree(int parts, int dims, int n, std::uint64_t seed) {
  std::vector<Node> nodes(1);
  for (std::size_t d = 0; d < nodes[0].box.hi.size(); ++d) nodes[0].box.hi[d] = d < static_cast<std::size_t>(dims) ? n : 1;
  std::mt19937_64 rng(seed);
  int next_part = 0;
  bisect(nodes, 0, parts, rng, next_part);
  return nodes;
}

std::vector<Box> boxes_of(const std::vector<Node>& nodes, int parts) {
  std::vector<Box> boxes(static_cast<std::size_t>(parts));
  for (const Node& node : nodes)
    if (node.part >= 0) boxes[static_cast<std::size_t>(node.part)] = node.box;
  return boxes;
}

}  // namespace

EdgeList mesh_partition(int parts, int dims, int n, std::uint64_t seed) {
  const std::string shape = std::to_string(parts) + "-" + std::to_string(dims) + "-" + std::to_string(n);
  EdgeList graph{parts, {}, "mesh-" + shape + "-" + std::to_string(seed),
                 "mesh partition: " + std::to_string(n) + "^" + std::to_string(dims) + " cells in " +
                     std::to_string(parts) + " parts (recursive coordinate bisection, seed " + std::to_string(seed) + ")"};
  const std::vector<Node> nodes = bisection_tree(parts, dims, n, seed);
  const std::vector<Box> boxes = boxes_of(nodes, parts);
  std::vector<int> neighbors;
  for (int from = 0; from < parts; ++from) {
    const Box& own = boxes[static_cast<std::size_t>(from)];
    neighbors.clear();
    parts_meeting(nodes, 0, grown(own), neighbors);
    std::sort(neighbors.begin(), neighbors.end());
    for (int to : neighbors)
      if (to != from) {
        graph.edges.emplace_back(from, to);
        graph.counts.push_back(static_cast<int>(common_cells(own, grown(boxes[static_cast<std::size_t>(to)]))));
      }
  }
  return graph;
}

std::vector<MeshPart> mesh_parts(int parts, int dims, int n, std::uint64_t seed) {
  std::vector<MeshPart> result;
  for (const Box& box : boxes_of(bisection_tree(parts, dims, n, seed), parts)) {
    const auto d = static_cast<std::ptrdiff_t>(dims);
    result.push_back({{box.lo.begin(), box.lo.begin() + d}, {box.hi.begin(), box.hi.begin() + d}});
  }
  return result;
}

}  // namespace cartcoll::graphs
