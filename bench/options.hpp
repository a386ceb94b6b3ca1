// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Command line of cartcoll-bench.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "util/graphs.hpp"

namespace bench {

// Block sizes: one for all; m^(d - non-zero coordinates) (Träff and Hunold's Cartesian Collective
// Communication); m^(d - ||C||_1), at least 1 (the isomorphic-collectives paper by Träff,
// Carpen-Amarie, Hunold and Rougier).
// halo: the faces, edges and corners of an m^d block of doubles (--halo).
enum class SizeRule { uniform, nonzero_coordinates, l1_norm, halo };

struct Options {
  std::string op = "alltoall";  // alltoall(v,w), allgather(v,w)
  int d = 3;
  std::vector<int> offsets;      // flat, t * d
  std::string neighborhood;      // short label, e.g. moore-3-1 (or the graph's)
  std::optional<cartcoll::graphs::EdgeList> graph;  // set: a distributed graph instead of offsets (d = 0)
  int radius = 1;                // R of a Moore (or von Neumann, octant) neighborhood, 0 for others
  std::vector<int> sizes = {1, 10, 100};
  std::string type_name = "int";
  MPI_Datatype type = MPI_INT;
  SizeRule rule = SizeRule::uniform;
  std::vector<std::string> impls;
  int reps = 200, warmup = 20, batch = 5;
  bool reps_given = false;
  std::string csv;
  std::string transport = "default";
  std::string pinning = "none";
  bool setup = false, setup_grid = false;
  int node_size = 0;  // --node-size: cartcoll_node_size on Cartesian communicators (0: not set)
  int halo_width = 0; // --halo D WIDTH N: the halo's width (0: no halo workload)
};

// The command line, read before MPI_Init: `error` (one line naming the argument, without the tool's
// name) set for a bad one. Default implementations: all of those that apply to the kind of neighborhood.
struct Parsed {
  Options options;
  bool help = false, version = false;
  std::string error;
};
Parsed parse_options(const std::vector<std::string>& args);
// Whether every block of the workload has one size: false only for alltoallv/w on a graph with per-edge
// counts (--mesh-partition), whose blocks have count x m elements.
bool uniform_blocks(const Options& options);
// What only MPI can tell (after MPI_Init): empty, or why the options do not fit MPI_COMM_WORLD.
std::string check_against_world(const Options& options);
std::string usage();

std::string rule_name(SizeRule rule);
const std::vector<std::string>& cartesian_implementations();
const std::vector<std::string>& graph_implementations();
const std::vector<std::string>& halo_implementations();

}  // namespace bench
