// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The figures cartcoll-plan prints, computed without MPI: plan every algorithm for one process (the
// middle one) of a periodic torus on which no offset wraps, and read Schedule::messages(), volume()
// and communication_phases(). Shared by the tool and its unit test.
#include <optional>
#include <string>
#include <vector>

#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/model/halo_layout.hpp"
#include "core/simulation/replay.hpp"
#include "cartcoll/topology.hpp"
#include "util/graphs.hpp"

namespace cartcoll::plan_tool {

// One schedule's figures of merit, per call of one process.
struct Figures {
  int messages = 0;  // point-to-point sends (Schedule::messages())
  int phases = 0;    // phases with at least one message (Schedule::communication_phases())
  int volume = 0;    // blocks sent, forwarding included (Schedule::volume())
  int off_node = 0;  // on a graph with --node-size: the sends to processes on other nodes
  std::vector<int> messages_per_phase = {};  // on a graph: sends in each of the schedule's phases
};

// An algorithm's figures for both collectives; `error` set (figures empty) where its planner threw.
struct AlgorithmFigures {
  std::string name;  // the planner's registered name
  std::optional<Figures> alltoall;
  std::optional<Figures> allgather;
  std::string error;
};

struct PlanFigures {
  int d = 0;
  int t = 0;                   // offsets, the zero vector included where it is in the list
  std::vector<int> grid;       // the torus planned on (2 * max |coordinate| + 1 per dimension)
  std::vector<int> coords;     // the process planned for (the middle one)
  // Every registered planner, in registry order.
  std::vector<AlgorithmFigures> algorithms;
  // Allgather tree volume (blocks sent) with Träff and Hunold's (Cartesian Collective
  // Communication) dimension order (increasing number of distinct coordinates) and with the best
  // order (every order for d <= 6), which the combining plan uses.
  int tree_volume_distinct_order = 0;
  int tree_volume_best_order = 0;
  std::vector<int> distinct_order;
  std::vector<int> order_best;
  // (T - C) / (V - T): T = trivial alltoall messages (its volume for V - T), C and V the combining
  // alltoall messages and volume (Träff and Hunold, section 3.1); equals (t - C) / (V - t) when the
  // zero vector is absent. Empty where V <= T: combining then never sends more blocks, so there is
  // no cut-off.
  std::optional<double> cutoff_ratio;

  const AlgorithmFigures* find(const std::string& name) const;
};

// Throws Error(Errc::arg) for an empty neighborhood and Error(Errc::dims) for a torus too large.
PlanFigures compute_figures(const Offsets& offsets);

std::string to_json(const PlanFigures& figures);
std::string to_table(const PlanFigures& figures);

// The command line: exactly one neighborhood or graph source, --json optional.
struct Request {
  int d = 0;
  std::vector<int> flat;  // offsets, d coordinates each
  std::optional<graphs::EdgeList> graph;  // set for a graph source (then d and flat are empty)
  std::optional<HaloLayout> halo;         // --halo D WIDTH N (then d and flat are empty)
  bool json = false;
  bool help = false;     // --help: print usage() and nothing else
  bool version = false;  // --version
  CombiningParameters combining;  // --threshold, --steps, --candidates, --matching-rounds (graphs)
  int routing_dims = 0;           // --routing-dims (graphs; 0: default_routing_dims)
  bool verify = false;            // --verify (graphs)
  std::optional<MessageTiming> replay;  // --replay O L (graphs; microseconds on the command line)
  std::string description;  // e.g. "box d=3 n=3 first=-1 without zero"
};
// Returns nullopt and sets `error` for bad arguments (args exclude the program name): one line naming
// the argument, without the tool's name.
std::optional<Request> parse_command_line(const std::vector<std::string>& args, std::string& error);
const char* usage();

}  // namespace cartcoll::plan_tool
