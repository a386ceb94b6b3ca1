// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// cartcoll's C++ API for MPI 4.1's neighborhood collectives on any communicator with a process
// topology (the C functions CC_Neighbor_* of <cartcoll/neighbor.h> are a thin layer over it).
#include <mpi.h>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "cartcoll/cartcoll.hpp"
#include "cartcoll/export.h"

namespace cartcoll {

// A view of a communicator whose topology defines the neighborhood: one made by
// CC_Dist_graph_create(_adjacent), MPI_Dist_graph_create(_adjacent), MPI_Graph_create or
// MPI_Cart_create (MPI's neighbor order -e0, +e0, -e1, ..., MPI_PROC_NULL off a mesh), or by
// Cart_neighborhood_create (its offsets are the neighborhood, under Träff and Hunold's (Cartesian
// Collective Communication) block-size contract: docs/semantics.md rule 11). The collectives have
// MPI 4.1's meaning, repeated edges included: the k-th occurrence of Q among P's destinations is
// matched with the k-th occurrence of P among Q's sources. The first collective on a communicator
// MPI made attaches the library's state to it.
class CARTCOLL_API NeighborComm {
 public:
  explicit NeighborComm(MPI_Comm comm);  // Error(Errc::comm) for MPI_COMM_NULL

  MPI_Comm mpi() const noexcept { return comm_; }
  // Local: Error(Errc::topology) for a communicator without a process topology.
  Degrees degrees() const;
  std::vector<int> sources() const;       // in receive-block order; MPI_PROC_NULL where missing
  std::vector<int> destinations() const;  // in send-block order

  void exchange(const Layout& layout) const;
  // An alltoall or allgather: a call repeated with equal arguments skips building its layout.
  void exchange(const RegularArguments& arguments) const;
  // Any collective: a call repeated with an equal print skips building its layout.
  void exchange(const ArgumentPrint& print, const std::function<Layout()>& make_layout) const;
  Request iexchange(const Layout& layout) const;  // never blocks, never communicates before it returns
  // Any collective: a call repeated with an equal print reuses the last one's lowered messages.
  Request iexchange(const ArgumentPrint& print, const std::function<Layout()>& make_layout) const;
  // Collective: a bad argument on any process makes every process throw the same error.
  Request exchange_init(const std::function<Layout()>& make_layout, const RequestOptions& options = {}) const;
  // What a blocking call with this layout runs (collective where `auto` measures).
  Algorithm choose_algorithm(const Layout& layout) const;

 private:
  // The library's state: found at construction, or attached by the first collective.
  detail::CommState& state(bool may_block) const;

  MPI_Comm comm_;
  mutable std::shared_ptr<detail::CommState> state_;
};

struct GraphOptions {
  std::optional<std::vector<int>> source_weights, destination_weights;  // nullopt: MPI_UNWEIGHTED
  bool reorder = false;
  MPI_Info info = MPI_INFO_NULL;  // cartcoll_algorithm
};

// CC_Dist_graph_create_adjacent: collective; an ordinary MPI distributed-graph communicator carrying
// the library's state. Every process must list its neighbors consistently (P names Q as a destination
// as often as Q names P as a source): checked, Error(Errc::topology) on every process otherwise.
CARTCOLL_API Communicator create_graph_adjacent(MPI_Comm comm, std::span<const int> sources,
                                                std::span<const int> destinations, const GraphOptions& options = {});

struct EdgeListOptions {
  std::optional<std::vector<int>> weights;  // one per edge; nullopt: MPI_UNWEIGHTED
  bool reorder = false;
  MPI_Info info = MPI_INFO_NULL;  // cartcoll_algorithm
};

// CC_Dist_graph_create: collective; this process names the edges sources[k] -> destinations (the next
// degrees[k] of them). The edges go to the processes they connect; each process's neighbors are
// ordered by the rank that named the edge, then by its place in that rank's arrays.
CARTCOLL_API Communicator create_graph(MPI_Comm comm, std::span<const int> sources, std::span<const int> degrees,
                                       std::span<const int> destinations, const EdgeListOptions& options = {});

}  // namespace cartcoll
