// SPDX-License-Identifier: BSD-3-Clause
#include "graph_create.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/exec/mpi_handles.hpp"
#include "cartcoll/error.hpp"
#include "attach.hpp"
#include "cartesian_detection.hpp"
#include "runtime/selection/policy.hpp"
#include "create.hpp"
#include "collective.hpp"
#include "settings.hpp"
#include "sparse_exchange.hpp"
#include "state.hpp"

namespace cartcoll::detail {

namespace {

// An MPI communicator handle freed on destruction (the temporary ones of creation).
class OwnedComm {
 public:
  explicit OwnedComm(MPI_Comm parent) { check(MPI_Comm_dup(parent, &comm_), "MPI_Comm_dup"); }
  ~OwnedComm() { MPI_Comm_free(&comm_); }
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  MPI_Comm get() const noexcept { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

int size_of(MPI_Comm comm) {
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  return size;
}

// Every process of an intercommunicator sees one, so this error needs no agreement (which could not
// run there: the library's agreements are intracommunicator collectives).
void require_intracommunicator(MPI_Comm comm) {
  int inter = 0;
  check(MPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
  if (inter) throw Error(Errc::comm, "a distributed graph needs an intracommunicator");
}

void require_ranks(const std::vector<int>& ranks, int size, const char* what) {
  for (int rank : ranks)
    if (rank < 0 || rank >= size)
      throw Error(Errc::rank, std::string(what) + " names rank " + std::to_string(rank) + " of a communicator of " +
                                  std::to_string(size));
}

// One process's arguments and settings, read without communicating: an error is kept for the agreement.
template <typename Spec>
struct Arguments {
  std::optional<Spec> spec;
  std::optional<Error> error;
  Settings settings;
  std::optional<int> node_size;  // node_size_setting
  int rank = 0;
};

template <typename Spec, typename Parse, typename Check>
Arguments<Spec> read_arguments(MPI_Comm comm, MPI_Info info, const Parse& parse, const Check& check_spec) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  require_intracommunicator(comm);
  Arguments<Spec> arguments;
  try {
    const int size = size_of(comm);
    check(MPI_Comm_rank(comm, &arguments.rank), "MPI_Comm_rank");
    read_all_settings(arguments.settings, arguments.node_size, info, arguments.rank == 0);
    arguments.spec = parse();
    check_spec(*arguments.spec, size);
  } catch (const Error& error) {
    arguments.error = error;
    arguments.settings = Settings{};
    arguments.node_size.reset();
  }
  return arguments;
}

// Everyone learns whether anyone failed locally (and throws if so), agrees on the settings and
// whether the graph is weighted, and has rank 0's profiles: one allreduce.
template <typename Spec>
void agree_on_arguments(MPI_Comm comm, Arguments<Spec>& arguments, bool weighted) {
  const Error mismatch(Errc::arg, "processes passed different algorithms, CARTCOLL_MAX_TAG, CARTCOLL_PROFILE, weighted "
                                  "and unweighted graphs, set-up parameters, node sizes or the uniform-blocks assertion");
  Agreement agreement;
  const ProfileSlots profiles = put_settings(agreement, comm, arguments.settings, arguments.node_size, mismatch);
  agreement.must_match(weighted ? 1 : 0, mismatch);
  agreement.run(comm, arguments.error);
  take_profiles(comm, agreement, profiles, arguments.settings);
}

// Every process tells each of its destinations how often it names it; each process compares what it
// was told with its sources. The verdict is agreed, so every process fails alike.
void check_consistency(MPI_Comm comm, int rank, const GraphSpec& spec) {
  std::map<int, int> told, named;
  for (int to : spec.destinations) ++told[to];
  for (int from : spec.sources) ++named[from];
  std::vector<Parcel> outgoing;
  for (const auto& [to, count] : told) outgoing.push_back({to, {count}});
  const OwnedComm scratch(comm);
  std::string problem;
  std::map<int, int> heard;
  for (const Parcel& parcel : sparse_exchange(scratch.get(), 0, outgoing)) heard[parcel.peer] = parcel.values.at(0);
  if (heard != named) {
    for (const auto& [from, count] : named)
      if (heard[from] != count)
        problem = "rank " + std::to_string(rank) + " lists " + std::to_string(from) + " as a source " +
                  std::to_string(count) + " times, and is named by it " + std::to_string(heard[from]) + " times";
    if (problem.empty()) problem = "rank " + std::to_string(rank) + " is named by a process it does not list as a source";
  }
  int inconsistent = problem.empty() ? 0 : 1;
  allreduce_max(comm, std::span<int>(&inconsistent, 1));
  if (!problem.empty()) throw Error(Errc::topology, "the graph is not consistent: " + problem);
  if (inconsistent) throw Error(Errc::topology, "the graph is not consistent (seen by another process)");
}

// The communicator and this process's neighbors in its ranks. MPI makes it and the neighbors are read
// back from it (reorder may have renumbered them). SimGrid's SMPI has no distributed graphs
// (cmake/mpi_features.cmake): there it is a duplicate of `comm` that carries only the library's
// state, with the neighbors as given (reorder is a hint MPI allows to ignore).
struct MadeGraph {
  MPI_Comm comm = MPI_COMM_NULL;
  GraphNeighborhood neighbors;
  Weights weights;
};

#ifndef CARTCOLL_MPI_IS_SMPI
const int* weights_or_unweighted(const std::optional<std::vector<int>>& weights) {
  if (!weights) return MPI_UNWEIGHTED;
  return weights->empty() ? MPI_WEIGHTS_EMPTY : weights->data();
}

MadeGraph new_graph_comm(MPI_Comm comm, const GraphSpec& spec, MPI_Info info, bool reorder) {
  MadeGraph made;
  check(MPI_Dist_graph_create_adjacent(comm, static_cast<int>(spec.sources.size()), spec.sources.data(),
                                       weights_or_unweighted(spec.source_weights),
                                       static_cast<int>(spec.destinations.size()), spec.destinations.data(),
                                       weights_or_unweighted(spec.destination_weights), info, reorder ? 1 : 0, &made.comm),
        "MPI_Dist_graph_create_adjacent");
  try {
    int in = 0, out = 0, weighted = 0;
    check(MPI_Dist_graph_neighbors_count(made.comm, &in, &out, &weighted), "MPI_Dist_graph_neighbors_count");
    made.neighbors = {0, std::vector<int>(static_cast<std::size_t>(in)), std::vector<int>(static_cast<std::size_t>(out))};
    Weights& weights = made.weights;
    if (spec.source_weights) weights = {std::vector<int>(static_cast<std::size_t>(in)), std::vector<int>(static_cast<std::size_t>(out))};
    check(MPI_Dist_graph_neighbors(made.comm, in, made.neighbors.sources.data(),
                                   weights.sources ? weights.sources->data() : MPI_UNWEIGHTED, out,
                                   made.neighbors.destinations.data(),
                                   weights.destinations ? weights.destinations->data() : MPI_UNWEIGHTED),
          "MPI_Dist_graph_neighbors");
  } catch (...) {
    MPI_Comm_free(&made.comm);
    throw;
  }
  return made;
}
#else
MadeGraph new_graph_comm(MPI_Comm comm, const GraphSpec& spec, MPI_Info, bool) {
  MadeGraph made{MPI_COMM_NULL, {0, spec.sources, spec.destinations}, {spec.source_weights, spec.destination_weights}};
  check(MPI_Comm_dup(comm, &made.comm), "MPI_Comm_dup");
  return made;
}
#endif

// A forced planner that needs nodes keeps its set-up's forwarding within a node.
void set_graph_node_size(MPI_Comm graph, std::optional<int> configured, Settings& settings) {
  settings.graph_node_size = forces_nodes(settings.algorithm) ? node_size_for(graph, configured, true) : 0;
}

// Runs as a Cartesian neighborhood where the graph is one (cartesian_detection.hpp).
MPI_Comm make_graph(MPI_Comm comm, const GraphSpec& spec, MPI_Info info, bool reorder, Settings settings,
                    std::optional<int> node_size) {
  MadeGraph made = new_graph_comm(comm, spec, info, reorder);
  try {
    set_graph_node_size(made.comm, node_size, settings);
    int rank = 0;
    check(MPI_Comm_rank(made.comm, &rank), "MPI_Comm_rank");
    check(MPI_Comm_size(made.comm, &made.neighbors.size), "MPI_Comm_size");
    Neighborhood neighborhood = at_creation(comm, made.comm, rank, std::move(made.neighbors), settings);
    attach_state(made.comm, std::make_shared<CommState>(std::move(neighborhood), std::move(made.weights), rank,
                                                        Origin::graph_create, settings,
                                                        std::make_shared<LibraryComm>(made.comm)));
  } catch (...) {
    MPI_Comm_free(&made.comm);
    throw;
  }
  return made.comm;
}

}  // namespace

MPI_Comm create_graph_adjacent(MPI_Comm comm, const std::function<GraphSpec()>& parse, MPI_Info info, bool reorder) {
  auto arguments = read_arguments<GraphSpec>(comm, info, parse, [](const GraphSpec& spec, int size) {
    require_ranks(spec.sources, size, "sources");
    require_ranks(spec.destinations, size, "destinations");
  });
  agree_on_arguments(comm, arguments, arguments.spec && arguments.spec->source_weights);
  const GraphSpec& spec = *arguments.spec;  // present: any process's error threw everywhere
  check_consistency(comm, arguments.rank, spec);
  return make_graph(comm, spec, info, reorder, arguments.settings, arguments.node_size);
}

namespace {

// Which end of an edge a quintuple describes to the process that receives it.
constexpr int outgoing_end = 0, incoming_end = 1;

// Parcels of (kind, other end, weight, naming rank, position) quintuples, one parcel per process.
std::vector<Parcel> parcels_of(const EdgeSpec& spec, int rank) {
  std::map<int, std::vector<int>> by_peer;
  std::size_t at = 0;
  for (std::size_t k = 0; k < spec.sources.size(); ++k) {
    const int from = spec.sources[k];
    for (int e = 0; e < spec.degrees[k]; ++e, ++at) {
      const int to = spec.destinations[at], weight = spec.weights ? (*spec.weights)[at] : 1;
      const int position = static_cast<int>(at);
      by_peer[from].insert(by_peer[from].end(), {outgoing_end, to, weight, rank, position});
      by_peer[to].insert(by_peer[to].end(), {incoming_end, from, weight, rank, position});
    }
  }
  std::vector<Parcel> parcels;
  for (auto& [peer, values] : by_peer) parcels.push_back({peer, std::move(values)});
  return parcels;
}

void check_edge_spec(const EdgeSpec& spec, int size) {
  require_ranks(spec.sources, size, "sources");
  require_ranks(spec.destinations, size, "destinations");
  long long total = 0;
  for (int degree : spec.degrees) {
    if (degree < 0) throw Error(Errc::arg, "a negative degree");
    total += degree;
  }
  if (total != static_cast<long long>(spec.destinations.size()))
    throw Error(Errc::arg, "the degrees do not add up to the destinations given");
}

GraphSpec adjacent_of(const std::vector<Parcel>& received, bool weighted) {
  std::vector<std::pair<std::pair<int, int>, std::pair<int, int>>> out, in;  // ((naming rank, position), (end, weight))
  for (const Parcel& parcel : received)
    for (std::size_t v = 0; v + 5 <= parcel.values.size(); v += 5) {
      const int* q = &parcel.values[v];
      (q[0] == outgoing_end ? out : in).push_back({{q[3], q[4]}, {q[1], q[2]}});
    }
  std::sort(out.begin(), out.end());
  std::sort(in.begin(), in.end());
  GraphSpec spec;
  if (weighted) {
    spec.source_weights.emplace();
    spec.destination_weights.emplace();
  }
  for (const auto& [key, end] : out) {
    spec.destinations.push_back(end.first);
    if (weighted) spec.destination_weights->push_back(end.second);
  }
  for (const auto& [key, end] : in) {
    spec.sources.push_back(end.first);
    if (weighted) spec.source_weights->push_back(end.second);
  }
  return spec;
}

}  // namespace

MPI_Comm create_graph(MPI_Comm comm, const std::function<EdgeSpec()>& parse, MPI_Info info, bool reorder) {
  auto arguments = read_arguments<EdgeSpec>(comm, info, parse, check_edge_spec);
  const bool weighted = arguments.spec && arguments.spec->weights;
  agree_on_arguments(comm, arguments, weighted);
  const EdgeSpec& spec = *arguments.spec;  // present: any process's error threw everywhere
  std::vector<Parcel> received;
  {
    const OwnedComm scratch(comm);
    received = sparse_exchange(scratch.get(), 0, parcels_of(spec, arguments.rank));
  }
  return make_graph(comm, adjacent_of(received, weighted), info, reorder, arguments.settings, arguments.node_size);
}

namespace {

// For a communicator MPI made: the settings (environment, else `info`) agreed on `graph`, with
// node-combining's node size, in one allreduce with at_creation's first step; then what the graph
// runs on (at_creation's other steps, the set-ups over `library` where given).
Neighborhood agreed_at_creation(MPI_Comm parent, MPI_Comm graph, MPI_Info info, GraphNeighborhood neighbors,
                                Settings& settings, LibraryComm* library) {
  std::optional<int> node_size;
  const std::optional<Error> error = read_settings_to_agree(graph, info, settings, node_size);
  int rank = 0;
  check(MPI_Comm_rank(graph, &rank), "MPI_Comm_rank");
  CreationSteps steps(parent, graph, rank, neighbors, settings);
  Agreement agreement;
  const ProfileSlots profiles = put_settings(agreement, graph, settings, node_size, settings_mismatch());
  steps.put(agreement);
  agreement.run(graph, error);
  take_profiles(graph, agreement, profiles, settings);
  set_graph_node_size(graph, node_size, settings);
  return steps.finish(graph, agreement, std::move(neighbors), settings, library);
}

}  // namespace

void attach_at_mpi_creation(MPI_Comm parent, MPI_Comm graph, MPI_Info info) {
  Weights weights;
  Neighborhood read = neighborhood_of_topology(graph, weights);
  if (read.graph() == nullptr) throw Error(Errc::intern, "a distributed graph without a graph neighborhood");
  int rank = 0;
  check(MPI_Comm_rank(graph, &rank), "MPI_Comm_rank");
  // Made before the agreement, so that a set-up can send over it rather than over a duplicate of its
  // own. Blocking: Open MPI 4.1.4 can hang where an MPI_Comm_idup of the graph is still in progress
  // while the program makes its next communicator.
  const auto library = std::make_shared<LibraryComm>(graph);
  Settings settings;
  Neighborhood neighborhood = agreed_at_creation(parent, graph, info, *read.graph(), settings, library.get());
  // Attached whatever was decided, so that the first collective does not decide again.
  attach_state(graph, std::make_shared<CommState>(std::move(neighborhood), std::move(weights), rank,
                                                  Origin::mpi_topology, settings, library));
}

Neighborhood neighborhood_at_first_call(MPI_Comm comm, MPI_Comm library_comm, GraphNeighborhood neighbors,
                                        Settings& settings) {
  MPI_Info handle = MPI_INFO_NULL;
  check(MPI_Comm_get_info(comm, &handle), "MPI_Comm_get_info");
  const Info info(handle);
  return agreed_at_creation(library_comm, library_comm, info.get(), std::move(neighbors), settings, nullptr);
}

}  // namespace cartcoll::detail
