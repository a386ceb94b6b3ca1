// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Distributed graphs for the tools (cartcoll-plan, cartcoll-bench), MPI-free and without the library:
// an edge list read from a file or drawn by a generator. Every process of a benchmark draws the same
// graph from the same seed.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace cartcoll::graphs {

// Edges in order: each process's destinations in the order of its edges, each process's sources in
// the order of the edges into it (cartcoll::Graph::from_edges).
struct EdgeList {
  int size = 0;  // processes
  std::vector<std::pair<int, int>> edges;
  std::string label;        // short, for file names and CSV: "er-64-0.1"
  std::string description;  // for people
  // counts[i]: how many elements edge i carries, relative to the others (--mesh-partition: the cells
  // of the edge's source that its destination needs); empty where every edge carries the same.
  std::vector<int> counts = {};
};

// One line for people: processes, edges, min/mean/max out-degree and, where the graph has counts,
// min/mean/max count an edge.
std::string summary(const EdgeList& graph);
// counts in the order of each process's destinations and sources (cartcoll::Graph::from_edges):
// what `rank` sends on each of its out-edges and receives on each of its in-edges.
struct ProcessCounts {
  std::vector<int> out, in;
};
ProcessCounts counts_of(const EdgeList& graph, int rank);

// Erdős–Rényi: every ordered pair (P, Q), P != Q, is an edge with probability `density`.
EdgeList erdos_renyi(int size, double density, std::uint64_t seed);
// Every process sends to `degree` distinct other processes, drawn uniformly.
EdgeList random_degree(int size, int degree, std::uint64_t seed);
// Tunable common-neighbor overlap (friends for graph-combining): every process sends to `degree`
// distinct others; the processes of each group of `overlap_group` consecutive ranks share
// round(overlap x degree) of them, drawn outside the group, and draw the rest on their own.
inline constexpr int overlap_group = 8;
EdgeList overlap_graph(int size, int degree, double overlap, std::uint64_t seed);
// Mirsadeghi et al.'s (Exploiting Common Neighborhoods) Moore neighborhood (every process within
// Chebyshev distance `radius`, itself excluded) or, if !moore, the von Neumann one (Manhattan
// distance), on a torus of `size` processes in `dims` dimensions as balanced as MPI_Dims_create
// makes them, given as a plain graph; offsets that wrap onto the same process on a short dimension
// make repeated edges (or self edges), as MPI would see them.
EdgeList stencil_graph(int size, int dims, int radius, bool moore);
// The halo graph of a domain decomposition: a box of n^dims cells cut into `parts` boxes by recursive
// coordinate bisection, each cut along the longest extent of a box, at the place that splits its
// cells in proportion to the parts each side gets (floor(parts / 2) on the low side), moved by a
// seeded amount of up to mesh_jitter of the extent. Parts are numbered in the tree's order, low side
// first. An edge A -> B, for every two parts sharing a face, an edge or a vertex (cells at Chebyshev
// distance 1; the box does not wrap), carries the count of A's cells adjacent to a cell of B. Throws
// std::invalid_argument where a cut cannot leave each side at least as many cells as parts.
inline constexpr double mesh_jitter = 0.1;
inline constexpr int mesh_max_dims = 6;
EdgeList mesh_partition(int parts, int dims, int n, std::uint64_t seed);
// The parts mesh_partition cuts, by number: part k has the cells [lo[d], hi[d]) in each dimension d.
struct MeshPart {
  std::vector<int> lo, hi;
};
std::vector<MeshPart> mesh_parts(int parts, int dims, int n, std::uint64_t seed);
// OSU-style: one "source destination" pair per line (blanks or a comma between them); blank lines
// and lines starting with # are skipped. `size` is the largest rank named plus one unless given.
std::optional<EdgeList> read_edge_file(const std::string& path, std::optional<int> size, std::string& error);

// The graph options of the tools (see usage()). If args[i] is one, consumes it and its values,
// advancing i to the last value, stores the graph and returns true; a bad value sets `error` (and
// returns true). Returns false, touching nothing, for any other argument.
bool parse_graph(std::span<const std::string> args, std::size_t& i, EdgeList& out, std::string& error);
const char* usage();

}  // namespace cartcoll::graphs
