// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Each implementation, bound to a workload: a callable that performs one collective call.
#include <mpi.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cartcoll/cartcoll.h"
#include "core/model/schedule.hpp"
#include "options.hpp"
#include "workload.hpp"

namespace bench {

using Run = std::function<void()>;

// The communicators every block size shares. On a Cartesian neighborhood: one Cart_neighborhood_create
// communicator per algorithm and MPI's graph of the same neighborhood; on a graph: one
// CC_Dist_graph_create_adjacent communicator per algorithm serving graphs and MPI's own. Under --halo,
// only the requested ones, and for the cc- implementations one CC_Dist_graph_create_adjacent
// communicator per Cartesian algorithm, made on an MPI_Cart_create communicator (a stencil code's
// graph, which the library detects as Cartesian).
class Communicators {
 public:
  explicit Communicators(const Options& options);
  ~Communicators();
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;

  // The communicator of `algorithm` for the cc- (graph_face) or cart- implementations: MPI_COMM_NULL if
  // there is none.
  MPI_Comm library(const std::string& algorithm, bool graph_face) const;
  MPI_Comm graph() const { return graph_; }
  MPI_Comm mpi_cart() const { return mpi_cart_; }
  MPI_Comm world() const { return world_; }
  int sources() const { return static_cast<int>(source_ranks_.size()); }
  int destinations() const { return static_cast<int>(destination_ranks_.size()); }
  // Block i comes from source_ranks()[i] and goes to destination_ranks()[i] (graph_ has them in this order).
  const std::vector<int>& source_ranks() const { return source_ranks_; }
  const std::vector<int>& destination_ranks() const { return destination_ranks_; }
  // What `ideal` sends: the combining schedule on a Cartesian neighborhood, the trivial one on a graph.
  const cartcoll::Schedule& ideal_schedule(bool gather) const { return gather ? gather_plan_ : alltoall_plan_; }

 private:
  // One per algorithm, forced by the cartcoll_algorithm info key: Cart_neighborhood_create's, and
  // CC_Dist_graph_create_adjacent's.
  std::map<std::string, MPI_Comm> cart_library_, cc_library_;
  MPI_Comm graph_ = MPI_COMM_NULL, mpi_cart_ = MPI_COMM_NULL, world_ = MPI_COMM_NULL;
  std::vector<int> source_ranks_, destination_ranks_;

  void make_stencil_graphs(const Options& options, const std::vector<int>& dims, const std::vector<int>& sources,
                           const std::vector<int>& targets);
  cartcoll::Schedule alltoall_plan_, gather_plan_;
};

// MPI_Neighbor_* or CC_Neighbor_*: the same signatures, so one set of run makers serves both.
struct NeighborCalls;

// Makes the runs for one workload and owns their requests and buffers.
class Implementations {
 public:
  Implementations(const Communicators& comms, Workload& work) : comms_(comms), work_(work) {}
  ~Implementations();
  Implementations(const Implementations&) = delete;
  Implementations& operator=(const Implementations&) = delete;

  // The run of `impl`, or nullopt with `why` set where it does not apply here.
  std::optional<Run> make(const std::string& impl, std::string& why);

 private:
  Run cart_blocking(MPI_Comm cart);
  Run cart_persistent(MPI_Comm cart);
  Run neighbor_blocking(const NeighborCalls& calls, MPI_Comm comm);
  Run neighbor_nonblocking(const NeighborCalls& calls, MPI_Comm comm);
  std::optional<Run> neighbor_persistent(const NeighborCalls& calls, MPI_Comm comm, std::string& why);
  Run ideal();
  Run direct();

  const Communicators& comms_;
  Workload& work_;
  std::vector<std::unique_ptr<Cart_request>> cart_requests_;
  std::vector<std::pair<const NeighborCalls*, std::unique_ptr<MPI_Request>>> requests_;
  std::vector<std::unique_ptr<std::vector<char>>> ideal_buffers_;
};

// Whether the implementation's sends go through MPI's internal transport, invisible to PMPI.
inline bool is_mpi_collective(const std::string& impl) { return impl.starts_with("mpi-"); }

}  // namespace bench
