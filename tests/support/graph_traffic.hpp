// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Distributed graphs made through the CC_ API, the messages their calls send (counted by the PMPI
// census), and the checks graph-combining's and graph-routing's tests share.
#include <mpi.h>

#include <span>
#include <string>

#include "cart_fixture.hpp"
#include "core/model/graph.hpp"
#include "graph_case.hpp"
#include "traffic_census.hpp"

namespace support {

// graph-combining with threshold Θ (2: a few processes have friends even on sparse graphs), two
// steps (or more), at most two phases (Mirsadeghi et al.'s (Exploiting Common Neighborhoods)
// combining) or more (cumulative combining).
class CombiningInfo : public AlgorithmInfo {
 public:
  explicit CombiningInfo(const std::string& threshold = "2", const std::string& steps = "2",
                         const std::string& phases = "2", const std::string& algorithm = "graph-combining")
      : AlgorithmInfo(algorithm) {
    set("cartcoll_combining_threshold", threshold);
    set("cartcoll_combining_steps", steps);
    set("cartcoll_combining_phases", phases);
  }
};

// graph-routing (or `auto`, algorithm "") with the assertion on a grid of `dims` dimensions ("":
// not given).
class RoutingInfo : public AlgorithmInfo {
 public:
  explicit RoutingInfo(const std::string& dims = "2", const std::string& algorithm = "graph-routing",
                       const std::string& uniform = "true")
      : AlgorithmInfo(algorithm) {
    set("cartcoll_assert_uniform_blocks", uniform);
    if (!dims.empty()) set("cartcoll_routing_dims", dims);
  }
};

// CC_Dist_graph_create_adjacent over MPI_COMM_WORLD with this process's lists of `graph`; the result
// code in *code where given, else expected to be MPI_SUCCESS.
MPI_Comm create_adjacent(const cartcoll::Graph& graph, MPI_Info info, int* code = nullptr);

// Every process sends to every other (friends share p - 2 out-neighbors), plus shared_graph(seed)'s
// repeated, self and extra edges.
cartcoll::Graph dense_graph(unsigned seed);

// One message per edge to another process, over all processes: what the direct exchange sends.
long long direct_messages(const cartcoll::Graph& graph);

// The five operations in their three forms on `comm` (blocking, nonblocking, persistent), sized as
// `sizes` says, blocks paired as `pairing` says, in each of `variants`, against the graph reference
// model.
void every_operation_and_form(MPI_Comm comm, unsigned seed, Sizes sizes = Sizes::per_edge,
                              Pairing pairing = Pairing::kth_occurrence,
                              std::span<const Variant> variants = all_variants);

// The messages processes send during `call`, by the PMPI census: all of them, and the most one
// process sends (collective).
struct Sent {
  long long total = 0, most = 0;
};
template <typename Call>
Sent sent_by_processes(const Call& call) {
  census::reset_traffic();
  call();
  const long long mine = census::traffic().messages;
  Sent sent;
  MPI_Allreduce(&mine, &sent.total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &sent.most, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return sent;
}

template <typename Call>
long long messages_everywhere(const Call& call) {
  return sent_by_processes(call).total;
}

// CC_Neighbor_alltoall, then CC_Neighbor_allgather, of one int a block on `comm` (whose graph is
// `graph`), each result checked; the census of both added up (`most`: the busiest process's
// messages in each call, summed).
Sent regular_calls(const cartcoll::Graph& graph, MPI_Comm comm);

// One blocking call of `op` on `comm` (whose graph is `graph`) with blocks sized as `sizes` says
// whose ints depend on sender, block and element (GraphCase), checked against the graph reference
// model; returns the messages all processes sent for it (collective).
long long checked_messages(MPI_Comm comm, const cartcoll::Graph& graph, Op op, unsigned seed, Sizes sizes = Sizes::uniform);

// A cost-model file for CARTCOLL_PROFILE (latency per phase, per message, per byte; rank 0 reads
// it): by default one in which a message costs 100 times a phase, so that saving messages pays
// whatever the phase: `auto`'s verdict is then plain to see. Collective.
class Profile {
 public:
  explicit Profile(const std::string& figures = "1e-6 1e-4 1e-9");
  ~Profile();
  Profile(const Profile&) = delete;
  Profile& operator=(const Profile&) = delete;

 private:
  std::string path_;
};

}  // namespace support
