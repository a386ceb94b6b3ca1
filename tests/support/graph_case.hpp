// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// One neighborhood collective on a communicator with any process topology, as a test case: the
// graph is every process's neighbor lists as the topology has them (gather_topology), block sizes
// may differ per edge, contents depend on the sending rank, the block and the element, and the
// expected receive buffer is the graph reference model's. The call goes through the CC_ C API, or
// through MPI's names (Api).
#include <mpi.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "block_buffers.hpp"
#include "core/model/graph.hpp"
#include "api_table.hpp"

namespace support {

// The five neighborhood collectives of MPI.
inline const Op neighbor_ops[] = {Op::allgather, Op::allgatherv, Op::alltoall, Op::alltoallv, Op::alltoallw};

// Every process's sources and destinations, as MPI's topology functions give them for comm (no_process
// for MPI_PROC_NULL), gathered to every process. Collective.
cartcoll::Graph gather_topology(MPI_Comm comm);
// The same for a communicator made by Cart_neighborhood_create, whose neighborhood is its offsets
// (Cart_neighbor_get), not the MPI Cartesian topology it also carries.
cartcoll::Graph gather_cart_neighborhood(MPI_Comm cartcomm);

// How block sizes vary: per edge (MPI's freedom), per block index only (Träff and Hunold's
// (Cartesian Collective Communication) contract, which communicators made by
// Cart_neighborhood_create hold their users to), or not at all (the assertion
// cartcoll_assert_uniform_blocks: one signature for every block of every call). per_edge_long is
// per_edge with blocks of thousands of ints (up to 24 kB): forwarded messages longer than the slot
// their receiver posts for them, which send the rest as a tail (src/runtime/exec/sized_messages.hpp).
enum class Sizes { per_edge, per_index, uniform, per_edge_long };

// Which receive block a send block lands in. By the k-th-occurrence rule on the lists (distributed
// graphs, MPI_Graph_create, Cart_neighborhood_create's offsets), or as on an MPI_Cart_create
// communicator (MPI 4.1 section 8.6, Example 8.10): send block s (to neighbor s) lands in block s ^ 1,
// also where a periodic dimension of 1 or 2 processes lists one process twice. The oracle for the
// latter is the graph reference model on the Cartesian neighborhood with offsets in MPI's order
// (-e0, +e0, -e1, ...: destinations R + N[j], sources R - N[j], the lists with each pair of sources
// swapped), whose receive block j is the user's block j ^ 1.
// (A communicator made by Cart_neighborhood_create carries an MPI Cartesian topology too, but its
// neighborhood is its offsets: kth_occurrence on gather_cart_neighborhood's lists.)
enum class Pairing { kth_occurrence, cartesian };

// Bad input (alltoall, alltoallv, alltoallw): one send block of one process sized apart from its
// receive block, `extra_ints` more ints than its receiver expects (fewer where negative; a multiple of
// the send type's ints). A larger block leaves its receive block as MPI leaves a truncated receive
// (undefined: mismatch() skips its ints); a smaller one fills the first ints of its receive block
// and leaves the rest as it was.
struct Missized {
  int sender = -1;  // none
  std::size_t block = 0;
  int extra_ints = 0;
};

class GraphCase : public CaseBuffers {
 public:
  // graph: the lists as gather_topology gives them.
  GraphCase(Op op, Variant variant, Sizes sizes, const TestTypes& types, const cartcoll::Graph& graph, int rank,
            unsigned seed, Pairing pairing = Pairing::kth_occurrence, Missized missized = {});

  // Fills the send buffer for `generation`, resets the receive buffer and works out what it must hold.
  void prepare(int generation);
  // Calls CC_Neighbor_* (blocking), CC_Ineighbor_* or CC_Neighbor_*_init (persistent), or the
  // the functions of the same forms in `api`.
  int call(Form form, MPI_Comm comm, MPI_Request* request, const Api& api = cc_api);
  std::string describe() const;
  // Empty if the receive buffer holds what it must (all of it but a truncated block: Missized) and
  // the send buffer is untouched, else what differs.
  std::string mismatch() const;
  // The ints send block `block` of `rank` carries where its receiver agrees (before Missized).
  int ints_sent(int rank, std::size_t block) const;
  // The process that receives the mis-sized block and which of its receive blocks that is (user
  // order); {no_process, 0} without one.
  std::pair<int, std::size_t> missized_receive() const;

 private:
  int ints_on_edge(int from, int to, int occurrence, int index) const;
  // The oracle graph's receive block for the user's block i, and the other way round.
  std::size_t oracle_block(std::size_t i) const;
  std::vector<std::byte> expected_receive() const;

  Variant variant_;
  Sizes sizes_;
  Pairing pairing_;
  cartcoll::Graph oracle_;  // graph, its sources in pairs swapped for Pairing::cartesian
  unsigned seed_;
  Missized missized_;
};

}  // namespace support
