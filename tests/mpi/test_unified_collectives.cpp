// SPDX-License-Identifier: BSD-3-Clause
// The unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) collectives by topology
// (<cartcoll/unified_collectives.h>) against the reference model.
//
// On graph communicators the oracle is the graph reference model over the communicator's own graph
// (random: repeated and self edges, isolated processes, asymmetric degrees). On communicators
// without a topology (and Cartesian ones, which in the unified-interfaces paper carry none) the
// collectives are MPI's; their oracle is the same reference model over the complete graph in rank
// order (self edges included), which is the unified-interfaces paper's in-the-limit principle:
// there the graph semantics are MPI's. Scan and exscan are the reductions over the prefix graphs
// (sources 0..r and 0..r-1). Data depends on the sending rank, the block and the element; blocks of
// the v and w forms sit apart with gaps that must stay untouched. Every form; requests completed in
// rank-dependent orders; a predefined and a non-commutative user operation; MPI_IN_PLACE where MPI
// allows it.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../graph_cases.hpp"
#include "../support/block_buffers.hpp"
#include "../support/call_census.hpp"
#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"
#include "../support/handle_census.hpp"
#include "../support/orders_and_leaks.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/neighbor.h"
#include "core/simulation/reference.hpp"
#include "cartcoll/unified_collectives.h"
#include "cartcoll/unified_collectives.hpp"
#include "runtime/unified/dispatch.hpp"

using namespace support;
using cartcoll::Graph;
using cartcoll::reference::Blocks;
using cartcoll::reference::Bytes;

namespace {

constexpr std::chrono::seconds deadline{240};

enum class Coll {
  barrier,
  bcast,
  gather,
  gatherv,
  scatter,
  scatterv,
  allgather,
  allgatherv,
  allgatherw,
  alltoall,
  alltoallv,
  alltoallw,
  reduce,
  allreduce,
  reduce_scatter,
  reduce_scatter_block,
  scan,
  exscan
};

const char* name(Coll coll) {
  static const char* names[] = {"barrier",    "bcast",     "gather",         "gatherv",
                                "scatter",    "scatterv",  "allgather",      "allgatherv",
                                "allgatherw", "alltoall",  "alltoallv",      "alltoallw",
                                "reduce",     "allreduce", "reduce_scatter", "reduce_scatter_block",
                                "scan",       "exscan"};
  return names[static_cast<int>(coll)];
}

bool reduces(Coll c) { return c >= Coll::reduce; }
bool rooted(Coll c) {
  return c == Coll::bcast || c == Coll::gather || c == Coll::gatherv || c == Coll::scatter || c == Coll::scatterv ||
         c == Coll::reduce;
}
bool only_without_topology(Coll c) { return c >= Coll::reduce_scatter; }  // MPI_ERR_TOPOLOGY on graphs
bool in_place_allowed(Coll c) { return c != Coll::barrier && c != Coll::bcast; }
bool v_form(Coll c) {
  return c == Coll::gatherv || c == Coll::scatterv || c == Coll::allgatherv || c == Coll::alltoallv;
}
bool w_form(Coll c) { return c == Coll::allgatherw || c == Coll::alltoallw; }

// ---------------------------------------------------------------------------------------------------
// Reductions: MPI_SUM on ints, and affine maps x -> a x + b (pairs of ints) composed, which is
// associative and not commutative, as a user operation.

enum class Reduction { sum, affine };

void compose_pairs(const int* in, int* inout, int pairs) {
  for (int e = 0; e < pairs; ++e) {
    const auto a1 = static_cast<unsigned>(in[2 * e]), b1 = static_cast<unsigned>(in[2 * e + 1]);
    const auto a2 = static_cast<unsigned>(inout[2 * e]), b2 = static_cast<unsigned>(inout[2 * e + 1]);
    inout[2 * e] = static_cast<int>(a1 * a2);
    inout[2 * e + 1] = static_cast<int>(a1 * b2 + b1);
  }
}

void affine_op(void* in, void* inout, int* len, MPI_Datatype*) {
  compose_pairs(static_cast<const int*>(in), static_cast<int*>(inout), *len);
}

std::vector<int> ints_of(const Bytes& bytes) {
  std::vector<int> ints(bytes.size() / sizeof(int));
  if (!bytes.empty()) std::memcpy(ints.data(), bytes.data(), bytes.size());
  return ints;
}

Bytes bytes_of(const std::vector<int>& ints) {
  Bytes bytes(ints.size() * sizeof(int));
  if (!ints.empty()) std::memcpy(bytes.data(), ints.data(), bytes.size());
  return bytes;
}

cartcoll::reference::ReduceOp reference_op(Reduction reduction) {
  return [reduction](const Bytes& in, Bytes& inout) {
    const std::vector<int> a = ints_of(in);
    std::vector<int> b = ints_of(inout);
    if (reduction == Reduction::sum)
      for (std::size_t e = 0; e < b.size(); ++e)
        b[e] = static_cast<int>(static_cast<unsigned>(a[e]) + static_cast<unsigned>(b[e]));
    else
      compose_pairs(a.data(), b.data(), static_cast<int>(b.size() / 2));
    inout = bytes_of(b);
  };
}

// The pair datatype and the user operation of a test, freed with it.
class Operations {
 public:
  Operations() {
    MPI_Type_contiguous(2, MPI_INT, &pair_);
    MPI_Type_commit(&pair_);
    MPI_Op_create(affine_op, 0, &affine_);
  }
  ~Operations() {
    MPI_Op_free(&affine_);
    MPI_Type_free(&pair_);
  }
  Operations(const Operations&) = delete;
  Operations& operator=(const Operations&) = delete;
  MPI_Datatype type(Reduction r) const { return r == Reduction::sum ? MPI_INT : pair_; }
  int ints_per_element(Reduction r) const { return r == Reduction::sum ? 1 : 2; }
  MPI_Op op(Reduction r) const { return r == Reduction::sum ? MPI_SUM : affine_; }

 private:
  MPI_Datatype pair_ = MPI_DATATYPE_NULL;
  MPI_Op affine_ = MPI_OP_NULL;
};

// ---------------------------------------------------------------------------------------------------
// Communicators and what the collectives mean on them.

enum class Made { cc_graph, mpi_graph, symmetric_graph, old_graph, no_topology, cartesian };

const char* name(Made made) {
  static const char* names[] = {"CcDistGraph",    "MpiDistGraph", "SymmetricGraph",
                                "MpiGraphCreate", "NoTopology",   "Cartesian"};
  return names[static_cast<int>(made)];
}

Graph complete_graph(int p) {
  Graph graph(p);
  for (int r = 0; r < p; ++r)
    for (int q = 0; q < p; ++q) {
      graph.sources(r).push_back(q);
      graph.destinations(r).push_back(q);
    }
  return graph;
}

// Rank r reduces over ranks 0..r (inclusive) or 0..r-1: scan and exscan.
Graph prefix_graph(int p, bool inclusive) {
  std::vector<std::pair<int, int>> edges;
  for (int r = 0; r < p; ++r)
    for (int q = 0; q < r + (inclusive ? 1 : 0); ++q) edges.emplace_back(q, r);
  return Graph::from_edges(p, edges);
}

// Every pair of edges both ways and a self edge on every process, so that MPI_IN_PLACE works for
// every collective (in-degree = out-degree, sources and destinations in the same order).
Graph symmetric_graph(unsigned seed) {
  const int p = world_size();
  std::mt19937 rng(seed);
  std::vector<std::pair<int, int>> edges;
  for (int r = 0; r < p; ++r) edges.emplace_back(r, r);
  for (int e = 0; e < 2 * p; ++e) {
    const int a = std::uniform_int_distribution<int>(0, p - 1)(rng),
              b = std::uniform_int_distribution<int>(0, p - 1)(rng);
    edges.emplace_back(a, b);
    edges.emplace_back(b, a);
  }
  std::shuffle(edges.begin(), edges.end(), rng);
  std::vector<std::pair<int, int>> both_ways;
  for (const auto& [a, b] : edges)
    if (a <= b) {
      both_ways.emplace_back(a, b);
      both_ways.emplace_back(b, a);
    }
  return Graph::from_edges(p, both_ways);
}

struct Subject {
  MPI_Comm comm = MPI_COMM_NULL;
  Graph meaning;  // the graph whose reference model is the oracle
  bool neighborhoods = false;
};

Subject make(Made made, unsigned seed) {
  const int rank = world_rank(), p = world_size();
  Subject setup;
  Graph graph;
  switch (made) {
    case Made::cc_graph:
    case Made::mpi_graph:
    case Made::symmetric_graph: {
      std::mt19937 rng(seed);
      graph = made == Made::symmetric_graph ? symmetric_graph(seed) : cartcoll::test::random_graph(rng, {p, 5, false});
      const std::vector<int>& in = graph.sources(rank);
      const std::vector<int>& out = graph.destinations(rank);
      const auto create = made == Made::mpi_graph ? MPI_Dist_graph_create_adjacent : CC_Dist_graph_create_adjacent;
      EXPECT_EQ(create(MPI_COMM_WORLD, static_cast<int>(in.size()), in.data(), MPI_UNWEIGHTED,
                       static_cast<int>(out.size()), out.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &setup.comm),
                MPI_SUCCESS);
      setup.meaning = gather_topology(setup.comm);
      setup.neighborhoods = true;
      break;
    }
    case Made::old_graph: {  // MPI_Graph_create: each process's neighbors are its sources and destinations
      graph = symmetric_graph(seed);
      std::vector<int> index, edges;
      for (int r = 0; r < p; ++r) {
        edges.insert(edges.end(), graph.destinations(r).begin(), graph.destinations(r).end());
        index.push_back(static_cast<int>(edges.size()));
      }
      EXPECT_EQ(MPI_Graph_create(MPI_COMM_WORLD, p, index.data(), edges.data(), 0, &setup.comm), MPI_SUCCESS);
      setup.meaning = gather_topology(setup.comm);
      setup.neighborhoods = true;
      break;
    }
    case Made::no_topology:
      MPI_Comm_dup(MPI_COMM_WORLD, &setup.comm);
      setup.meaning = complete_graph(p);
      break;
    case Made::cartesian: {
      const int periods[] = {1};
      MPI_Cart_create(MPI_COMM_WORLD, 1, &p, periods, 0, &setup.comm);
      setup.meaning = complete_graph(p);
      break;
    }
  }
  MPI_Comm_set_errhandler(setup.comm, MPI_ERRORS_RETURN);
  return setup;
}

// ---------------------------------------------------------------------------------------------------
// One call: its buffers on this process, its arguments, and what the reference model says.

int value(int rank, int block, int element, int generation) {
  return 1 + rank * 10007 + block * 101 + element * 7 + generation * 1000003;
}
int sentinel(std::size_t position) { return -1 - static_cast<int>(position); }

// Blocks of ints in one buffer: back to back for the regular forms, with a gap of one int after each
// block for the v and w forms.
struct BlockList {
  std::vector<int> sizes, displs;  // in ints
  std::vector<int> buffer;
  BlockList() = default;
  BlockList(std::vector<int> block_sizes, bool gaps) : sizes(std::move(block_sizes)) {
    int at = 0;
    for (int size : sizes) {
      displs.push_back(at);
      at += size + (gaps ? 1 : 0);
    }
    buffer.resize(static_cast<std::size_t>(at) + 1);
  }
  int* data() { return buffer.data(); }
  Bytes block(std::size_t i) const {
    const auto from = buffer.begin() + displs[i];
    return bytes_of(std::vector<int>(from, from + sizes[i]));
  }
  void fill(std::size_t i, const std::vector<int>& ints) {
    std::copy(ints.begin(), ints.end(), buffer.begin() + displs[i]);
  }
  void reset() {
    for (std::size_t k = 0; k < buffer.size(); ++k) buffer[k] = sentinel(k);
  }
};

class Case {
 public:
  Case(Coll coll, const Subject& setup, int root, bool in_place, Reduction reduction, const Operations& ops)
      : coll_(coll),
        setup_(setup),
        graph_(setup.meaning),
        root_(root),
        in_place_(in_place),
        reduction_(reduction),
        ops_(ops),
        rank_(world_rank()) {
    send_ = BlockList(send_sizes(rank_), v_form(coll) || w_form(coll));
    // Scatterv's receive blocks (one per edge from the root) share its one recvcount: back to back.
    recv_ = BlockList(recv_sizes(rank_), (v_form(coll) || w_form(coll)) && coll != Coll::scatterv);
    for (std::size_t i = 0; i < send_.sizes.size(); ++i) {
      send_counts_.push_back(send_.sizes[i] / unit());
      send_displs_.push_back(send_.displs[i] / unit());
      send_bytes_.push_back(static_cast<MPI_Aint>(send_.displs[i]) * static_cast<MPI_Aint>(sizeof(int)));
      send_types_.push_back(MPI_INT);
    }
    for (std::size_t i = 0; i < recv_.sizes.size(); ++i) {
      recv_counts_.push_back(recv_.sizes[i] / unit());
      recv_displs_.push_back(recv_.displs[i] / unit());
      recv_bytes_.push_back(static_cast<MPI_Aint>(recv_.displs[i]) * static_cast<MPI_Aint>(sizeof(int)));
      recv_types_.push_back(MPI_INT);
    }
    if (coll == Coll::reduce_scatter)
      for (int q = 0; q < graph_.size(); ++q) reduce_scatter_counts_.push_back(recv_sizes(q)[0] / unit());
  }

  // Send blocks for `generation`; the receive buffer reset, with what MPI_IN_PLACE expects there.
  void prepare(int generation) {
    generation_ = generation;
    send_.reset();
    recv_.reset();
    for (std::size_t j = 0; j < send_.sizes.size(); ++j)
      send_.fill(j, content(rank_, static_cast<int>(j), send_.sizes[j]));
    if (coll_ == Coll::bcast && at_root()) recv_.fill(0, content(rank_, 0, count()));  // the one buffer
    if (in_place_) place_own_blocks();
    before_ = recv_.buffer;
  }

  // The call through the C API, in one of its three forms.
  int call(Form form, MPI_Request* request);
  // The same arguments for the C++ API.
  cartcoll::unified::Call as_call();

  // "" if the receive buffer (and the send buffer, never written) hold what they must.
  std::string mismatch() const {
    if (!in_place_)
      for (std::size_t j = 0; j < send_.sizes.size(); ++j)
        if (ints_of(send_.block(j)) != content(rank_, static_cast<int>(j), send_.sizes[j]))
          return describe() + ": the send buffer changed";
    if (coll_ == Coll::barrier || nothing_said()) return "";
    BlockList want = recv_;
    want.buffer = before_;
    const Blocks expected = expected_blocks();
    for (std::size_t i = 0; i < want.sizes.size(); ++i)
      want.fill(i, ints_of(expected[static_cast<std::size_t>(rank_)][i]));
    for (std::size_t k = 0; k < want.buffer.size(); ++k)
      if (recv_.buffer[k] != want.buffer[k])
        return describe() + ": receive int " + std::to_string(k) + " is " + std::to_string(recv_.buffer[k]) +
               ", expected " + std::to_string(want.buffer[k]);
    return "";
  }

  std::string describe() const {
    return std::string(name(coll_)) + (in_place_ ? " in place" : "") +
           (reduces(coll_) ? (reduction_ == Reduction::sum ? ", sum" : ", affine") : "") +
           (rooted(coll_) ? ", root " + std::to_string(root_) : "") + ", rank " + std::to_string(rank_) + " of " +
           std::to_string(world_size());
  }

 private:
  int unit() const { return reduces(coll_) ? ops_.ints_per_element(reduction_) : 1; }
  int count() const { return 3 * unit(); }  // ints of a regular block
  bool at_root() const { return rank_ == root_; }
  const std::vector<int>& sources(int q) const { return graph_.sources(q); }
  const std::vector<int>& destinations(int q) const { return graph_.destinations(q); }
  int p() const { return graph_.size(); }

  std::vector<int> content(int q, int block, int ints) const {
    std::vector<int> values;
    for (int e = 0; e < ints; ++e) values.push_back(value(q, block, e, generation_));
    return values;
  }

  // Ints on an edge: fixed for the regular forms; for the v and w forms per sender (gather,
  // allgather), per receiver (scatter) or per edge, symmetric in its ends (alltoall, so that
  // MPI_IN_PLACE's send block j, the old receive block j, has the size the peer expects).
  int sender_ints(int q) const { return v_form(coll_) || w_form(coll_) ? 2 + (q * 5 + 1) % 3 : count(); }
  int edge_ints(int a, int b, int k) const {
    return v_form(coll_) || w_form(coll_) ? (a * 7 + b * 7 + k * 3) % 4 : count();
  }
  static std::vector<int> occurrences(const std::vector<int>& list) {
    std::vector<int> k;
    for (std::size_t i = 0; i < list.size(); ++i)
      k.push_back(static_cast<int>(std::count(list.begin(), list.begin() + static_cast<long>(i), list[i])));
    return k;
  }
  int edges_from(int from, int to) const {
    return static_cast<int>(std::count(sources(to).begin(), sources(to).end(), from));
  }

  std::vector<int> send_sizes(int q) const;
  std::vector<int> recv_sizes(int q) const;
  void place_own_blocks();
  Blocks expected_blocks() const;
  bool nothing_said() const;
  Blocks all_send_blocks() const;

  Coll coll_;
  const Subject& setup_;
  const Graph& graph_;
  int root_;
  bool in_place_;
  Reduction reduction_;
  const Operations& ops_;
  int rank_;
  int generation_ = 0;
  BlockList send_, recv_;
  std::vector<int> before_;
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::vector<MPI_Aint> send_bytes_, recv_bytes_;
  std::vector<MPI_Datatype> send_types_, recv_types_;
  std::vector<int> reduce_scatter_counts_;  // every process's, in elements
};

std::vector<int> Case::send_sizes(int q) const {
  switch (coll_) {
    case Coll::barrier:
      return {};
    case Coll::bcast:
      return {count()};  // the buffer: the root's send block, everyone's receive block
    case Coll::gather:
    case Coll::gatherv:
    case Coll::allgather:
    case Coll::allgatherv:
    case Coll::allgatherw:
      return {sender_ints(q)};
    case Coll::scatter:
    case Coll::scatterv: {
      if (q != root_) return {};
      std::vector<int> sizes;
      for (int to : destinations(q)) sizes.push_back(sender_ints(to));
      return sizes;
    }
    case Coll::alltoall:
    case Coll::alltoallv:
    case Coll::alltoallw: {
      std::vector<int> sizes;
      const std::vector<int> k = occurrences(destinations(q));
      for (std::size_t j = 0; j < destinations(q).size(); ++j) sizes.push_back(edge_ints(q, destinations(q)[j], k[j]));
      return sizes;
    }
    case Coll::reduce:
    case Coll::allreduce:
    case Coll::scan:
    case Coll::exscan:
      return {count()};
    case Coll::reduce_scatter_block:
      return std::vector<int>(static_cast<std::size_t>(p()), count());
    case Coll::reduce_scatter: {
      std::vector<int> sizes;
      for (int i = 0; i < p(); ++i) sizes.push_back(unit() * (1 + i % 3));
      return sizes;
    }
  }
  return {};
}

std::vector<int> Case::recv_sizes(int q) const {
  switch (coll_) {
    case Coll::barrier:
      return {};
    case Coll::bcast:
      return {count()};
    case Coll::gather:
    case Coll::gatherv: {
      std::vector<int> sizes;
      if (q == root_)
        for (int from : sources(q)) sizes.push_back(sender_ints(from));
      else
        sizes.push_back(count());  // not significant: stays as it is
      return sizes;
    }
    case Coll::scatter:
    case Coll::scatterv:
      return std::vector<int>(static_cast<std::size_t>(edges_from(root_, q)), sender_ints(q));
    case Coll::allgather:
    case Coll::allgatherv:
    case Coll::allgatherw: {
      std::vector<int> sizes;
      for (int from : sources(q)) sizes.push_back(sender_ints(from));
      return sizes;
    }
    case Coll::alltoall:
    case Coll::alltoallv:
    case Coll::alltoallw: {
      std::vector<int> sizes;
      const std::vector<int> k = occurrences(sources(q));
      for (std::size_t i = 0; i < sources(q).size(); ++i) sizes.push_back(edge_ints(sources(q)[i], q, k[i]));
      return sizes;
    }
    case Coll::reduce:
    case Coll::allreduce:
    case Coll::scan:
    case Coll::exscan:
    case Coll::reduce_scatter_block:
      return {count()};
    case Coll::reduce_scatter:
      return {unit() * (1 + q % 3)};
  }
  return {};
}

// MPI_IN_PLACE: a process's own data is in its receive buffer already, where MPI says.
void Case::place_own_blocks() {
  const std::vector<int> own = content(rank_, 0, send_.sizes.empty() ? 0 : send_.sizes[0]);
  switch (coll_) {
    case Coll::gather:
    case Coll::gatherv:  // the root's self-edge blocks (MPI: block `root`)
    case Coll::allgather:
    case Coll::allgatherv:
    case Coll::allgatherw:  // the first self edge's block
      for (std::size_t i = 0; i < sources(rank_).size(); ++i)
        if (sources(rank_)[i] == rank_ && (rank_ == root_ || !rooted(coll_))) {
          recv_.fill(i, own);
          if (!rooted(coll_)) break;
        }
      break;
    case Coll::alltoall:
    case Coll::alltoallv:
    case Coll::alltoallw:  // send block j is receive block j
      for (std::size_t j = 0; j < recv_.sizes.size(); ++j)
        recv_.fill(j, content(rank_, static_cast<int>(j), recv_.sizes[j]));
      break;
    case Coll::reduce:
    case Coll::allreduce:
    case Coll::reduce_scatter_block:
    case Coll::reduce_scatter:
    case Coll::scan:
    case Coll::exscan:
      if (coll_ != Coll::reduce || at_root()) recv_.fill(0, own);
      break;
    default:
      break;
  }
}

// Every process's send blocks, as that process sizes and fills them (MPI_IN_PLACE: its receive
// blocks before the call, which hold the same).
Blocks Case::all_send_blocks() const {
  Blocks send(static_cast<std::size_t>(p()));
  for (int q = 0; q < p(); ++q) {
    const std::vector<int> sizes = send_sizes(q);
    for (std::size_t j = 0; j < sizes.size(); ++j)
      send[static_cast<std::size_t>(q)].push_back(bytes_of(content(q, static_cast<int>(j), sizes[j])));
  }
  return send;
}

std::vector<Bytes> first_blocks(const Blocks& blocks) {
  std::vector<Bytes> firsts;
  for (const auto& list : blocks) firsts.push_back(list.empty() ? Bytes() : list.front());
  return firsts;
}

// Where MPI says nothing about the receive buffer: a non-root's in MPI's rooted collectives,
// exscan's at rank 0, the root's with MPI_IN_PLACE in scatter.
bool Case::nothing_said() const {
  const bool scatters = coll_ == Coll::scatter || coll_ == Coll::scatterv;
  const bool gathers_to_root = coll_ == Coll::gather || coll_ == Coll::gatherv || coll_ == Coll::reduce;
  return (coll_ == Coll::exscan && rank_ == 0) || (in_place_ && at_root() && scatters) ||
         (!setup_.neighborhoods && !at_root() && gathers_to_root);
}

// The reference model's receive blocks of every process (only this process's are filled in).
Blocks Case::expected_blocks() const {
  namespace ref = cartcoll::reference;
  const Blocks send = all_send_blocks();
  const std::size_t me = static_cast<std::size_t>(rank_);
  // Receive blocks of every process as they are before the call (only this process's contents matter).
  Blocks recv(static_cast<std::size_t>(p()));
  for (int q = 0; q < p(); ++q)
    for (int size : recv_sizes(q))
      recv[static_cast<std::size_t>(q)].push_back(Bytes(static_cast<std::size_t>(size) * sizeof(int)));
  for (std::size_t i = 0; i < recv_.sizes.size(); ++i) recv[me][i] = recv_.block(i);
  Blocks result = recv;
  const ref::ReduceOp op = reference_op(reduction_);
  switch (coll_) {
    case Coll::barrier:
      break;
    case Coll::bcast: {  // the root's buffer holds its send block; this process's its receive block
      std::vector<Bytes> buffers = first_blocks(recv);
      buffers[static_cast<std::size_t>(root_)] = send[static_cast<std::size_t>(root_)][0];
      result[me] = {ref::bcast(graph_, root_, buffers)[me]};
      break;
    }
    case Coll::gather:
    case Coll::gatherv:
      if (at_root()) result = ref::gather(graph_, root_, first_blocks(send), recv);
      break;
    case Coll::scatter:
    case Coll::scatterv:
      result = ref::scatter(graph_, root_, send, recv);
      break;
    case Coll::allgather:
    case Coll::allgatherv:
    case Coll::allgatherw:
      result = ref::exchange(graph_, cartcoll::Collective::allgather, send, recv);
      break;
    case Coll::alltoall:
    case Coll::alltoallv:
    case Coll::alltoallw:
      result = ref::exchange(graph_, cartcoll::Collective::alltoall, send, recv);
      break;
    case Coll::reduce:
      if (at_root()) result[me] = {ref::reduce(graph_, root_, first_blocks(send), first_blocks(recv), op)[me]};
      break;
    case Coll::allreduce:
      result[me] = {ref::allreduce(graph_, first_blocks(send), first_blocks(recv), op)[me]};
      break;
    case Coll::scan:
    case Coll::exscan:
      result[me] = {
          ref::allreduce(prefix_graph(p(), coll_ == Coll::scan), first_blocks(send), first_blocks(recv), op)[me]};
      break;
    case Coll::reduce_scatter:
    case Coll::reduce_scatter_block: {  // block r of every process reduced to r
      std::vector<Bytes> mine;
      for (int q = 0; q < p(); ++q) mine.push_back(send[static_cast<std::size_t>(q)][me]);
      result[me] = {ref::reduce(complete_graph(p()), rank_, mine, first_blocks(recv), op)[me]};
      break;
    }
  }
  return result;
}

int Case::call(Form form, MPI_Request* request) {
  const MPI_Comm comm = setup_.comm;
  void* in_place = MPI_IN_PLACE;
  const void* sbuf = in_place_ && !(coll_ == Coll::scatter || coll_ == Coll::scatterv) && (!rooted(coll_) || at_root())
                         ? in_place
                         : send_.data();
  void* rbuf = in_place_ && (coll_ == Coll::scatter || coll_ == Coll::scatterv) && at_root() ? in_place : recv_.data();
  const MPI_Datatype type = reduces(coll_) ? ops_.type(reduction_) : MPI_INT;
  const MPI_Op op = ops_.op(reduction_);
  const int c = count() / unit();
  const int sc = send_counts_.empty() ? 0 : send_counts_[0];
  const int *scs = send_counts_.data(), *sds = send_displs_.data(), *rcs = recv_counts_.data(),
            *rds = recv_displs_.data();
  const MPI_Aint *sbd = send_bytes_.data(), *rbd = recv_bytes_.data();
  const MPI_Datatype *sts = send_types_.data(), *rts = recv_types_.data();
  MPI_Info info = MPI_INFO_NULL;
  // One switch per form; the three lists name the same collectives in the same order.
#define CARTCOLL_FORMS(name, iname, ...)                                       \
  switch (form) {                                                              \
    case Form::blocking:                                                       \
      return CC_##name(__VA_ARGS__ __VA_OPT__(, ) comm);                       \
    case Form::nonblocking:                                                    \
      return CC_##iname(__VA_ARGS__ __VA_OPT__(, ) comm, request);             \
    case Form::persistent:                                                     \
      return CC_##name##_init(__VA_ARGS__ __VA_OPT__(, ) comm, info, request); \
  }                                                                            \
  break
  switch (coll_) {
    case Coll::barrier:
      CARTCOLL_FORMS(Barrier, Ibarrier);
    case Coll::bcast:
      CARTCOLL_FORMS(Bcast, Ibcast, rbuf, c, type, root_);
    case Coll::gather:
      CARTCOLL_FORMS(Gather, Igather, sbuf, sc, MPI_INT, rbuf, c, MPI_INT, root_);
    case Coll::gatherv:
      CARTCOLL_FORMS(Gatherv, Igatherv, sbuf, sc, MPI_INT, rbuf, rcs, rds, MPI_INT, root_);
    case Coll::scatter:
      CARTCOLL_FORMS(Scatter, Iscatter, sbuf, c, MPI_INT, rbuf, c, MPI_INT, root_);
    case Coll::scatterv:
      CARTCOLL_FORMS(Scatterv, Iscatterv, sbuf, scs, sds, MPI_INT, rbuf, sender_ints(rank_), MPI_INT, root_);
    case Coll::allgather:
      CARTCOLL_FORMS(Allgather, Iallgather, sbuf, sc, MPI_INT, rbuf, c, MPI_INT);
    case Coll::allgatherv:
      CARTCOLL_FORMS(Allgatherv, Iallgatherv, sbuf, sc, MPI_INT, rbuf, rcs, rds, MPI_INT);
    case Coll::allgatherw:
      CARTCOLL_FORMS(Allgatherw, Iallgatherw, sbuf, sc, MPI_INT, rbuf, rcs, rbd, rts);
    case Coll::alltoall:
      CARTCOLL_FORMS(Alltoall, Ialltoall, sbuf, c, MPI_INT, rbuf, c, MPI_INT);
    case Coll::alltoallv:
      CARTCOLL_FORMS(Alltoallv, Ialltoallv, sbuf, scs, sds, MPI_INT, rbuf, rcs, rds, MPI_INT);
    case Coll::alltoallw:
      CARTCOLL_FORMS(Alltoallw, Ialltoallw, sbuf, scs, sbd, sts, rbuf, rcs, rbd, rts);
    case Coll::reduce:
      CARTCOLL_FORMS(Reduce, Ireduce, sbuf, rbuf, c, type, op, root_);
    case Coll::allreduce:
      CARTCOLL_FORMS(Allreduce, Iallreduce, sbuf, rbuf, c, type, op);
    case Coll::reduce_scatter:
      CARTCOLL_FORMS(Reduce_scatter, Ireduce_scatter, sbuf, rbuf, reduce_scatter_counts_.data(), type, op);
    case Coll::reduce_scatter_block:
      CARTCOLL_FORMS(Reduce_scatter_block, Ireduce_scatter_block, sbuf, rbuf, c, type, op);
    case Coll::scan:
      CARTCOLL_FORMS(Scan, Iscan, sbuf, rbuf, c, type, op);
    case Coll::exscan:
      CARTCOLL_FORMS(Exscan, Iexscan, sbuf, rbuf, c, type, op);
  }
#undef CARTCOLL_FORMS
  return MPI_ERR_OTHER;
}

cartcoll::unified::Call Case::as_call() {
  namespace u = cartcoll::unified;
  const bool scatters = coll_ == Coll::scatter || coll_ == Coll::scatterv;
  const void* sbuf = in_place_ && !scatters && (!rooted(coll_) || at_root()) ? MPI_IN_PLACE : send_.data();
  void* rbuf = in_place_ && scatters && at_root() ? MPI_IN_PLACE : recv_.data();
  const MPI_Datatype type = reduces(coll_) ? ops_.type(reduction_) : MPI_INT;
  const MPI_Op op = ops_.op(reduction_);
  const int c = count() / unit();
  const int sc = send_counts_.empty() ? 0 : send_counts_[0];
  const std::span<const int> scs = send_counts_, sds = send_displs_, rcs = recv_counts_, rds = recv_displs_;
  const std::span<const MPI_Aint> sbd = send_bytes_, rbd = recv_bytes_;
  const std::span<const MPI_Datatype> sts = send_types_, rts = recv_types_;
  switch (coll_) {
    case Coll::barrier:
      return u::Barrier{};
    case Coll::bcast:
      return u::Bcast{rbuf, c, type, root_};
    case Coll::gather:
      return u::Gather{sbuf, sc, MPI_INT, rbuf, c, MPI_INT, root_};
    case Coll::gatherv:
      return u::Gatherv{sbuf, sc, MPI_INT, rbuf, rcs, rds, MPI_INT, root_};
    case Coll::scatter:
      return u::Scatter{sbuf, c, MPI_INT, rbuf, c, MPI_INT, root_};
    case Coll::scatterv:
      return u::Scatterv{sbuf, scs, sds, MPI_INT, rbuf, sender_ints(rank_), MPI_INT, root_};
    case Coll::allgather:
      return u::Allgather{sbuf, sc, MPI_INT, rbuf, c, MPI_INT};
    case Coll::allgatherv:
      return u::Allgatherv{sbuf, sc, MPI_INT, rbuf, rcs, rds, MPI_INT};
    case Coll::allgatherw:
      return u::Allgatherw{sbuf, sc, MPI_INT, rbuf, rcs, rbd, rts};
    case Coll::alltoall:
      return u::Alltoall{sbuf, c, MPI_INT, rbuf, c, MPI_INT};
    case Coll::alltoallv:
      return u::Alltoallv{sbuf, scs, sds, MPI_INT, rbuf, rcs, rds, MPI_INT};
    case Coll::alltoallw:
      return u::Alltoallw{sbuf, scs, sbd, sts, rbuf, rcs, rbd, rts};
    case Coll::reduce:
      return u::Reduce{sbuf, rbuf, c, type, op, root_};
    case Coll::allreduce:
      return u::Allreduce{sbuf, rbuf, c, type, op};
    case Coll::reduce_scatter:
      return u::ReduceScatter{sbuf, rbuf, reduce_scatter_counts_, type, op};
    case Coll::reduce_scatter_block:
      return u::ReduceScatterBlock{sbuf, rbuf, c, type, op};
    case Coll::scan:
      return u::Scan{sbuf, rbuf, c, type, op};
    case Coll::exscan:
      return u::Exscan{sbuf, rbuf, c, type, op};
  }
  return u::Barrier{};
}

// ---------------------------------------------------------------------------------------------------
// The sweep: every collective, with and without MPI_IN_PLACE, both operations, in every form, through
// the C API and the C++ API.

struct Variation {
  Coll coll;
  bool in_place;
  Reduction reduction;
};

const Coll all_colls[] = {Coll::barrier,    Coll::bcast,     Coll::gather,         Coll::gatherv,
                          Coll::scatter,    Coll::scatterv,  Coll::allgather,      Coll::allgatherv,
                          Coll::allgatherw, Coll::alltoall,  Coll::alltoallv,      Coll::alltoallw,
                          Coll::reduce,     Coll::allreduce, Coll::reduce_scatter, Coll::reduce_scatter_block,
                          Coll::scan,       Coll::exscan};

// MPI_IN_PLACE for the neighborhood families needs a self edge (allgather) or in-degree = out-degree
// (alltoall) on every process: the symmetric graph and MPI's complete one have them.
std::vector<Variation> variations(Made made, bool neighborhoods) {
  std::vector<Variation> list;
  for (Coll coll : all_colls) {
    if (neighborhoods && only_without_topology(coll)) continue;
    for (bool in_place : {false, true}) {
      if (in_place && (!in_place_allowed(coll) || coll == Coll::reduce_scatter || coll == Coll::reduce_scatter_block))
        continue;
      const bool family = coll >= Coll::allgather && coll <= Coll::alltoallw;
      if (in_place && family && (made == Made::cc_graph || made == Made::mpi_graph)) continue;
      for (Reduction reduction : {Reduction::sum, Reduction::affine}) {
        if (reduction == Reduction::affine && !reduces(coll)) continue;
        list.push_back({coll, in_place, reduction});
      }
    }
  }
  return list;
}

// Completes the requests in a rank-dependent order: CC_Wait one by one, CC_Waitall of a shuffled
// array, or CC_Test loops, by rank.
void complete_in_rank_order(std::vector<MPI_Request>& requests, unsigned salt) {
  const std::vector<int> order = rank_order(static_cast<int>(requests.size()), salt);
  std::vector<MPI_Request> shuffled;
  for (int i : order) shuffled.push_back(requests[static_cast<std::size_t>(i)]);
  switch ((static_cast<unsigned>(world_rank()) + salt) % 3) {
    case 0:
      for (MPI_Request& request : shuffled) ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
      break;
    case 1:
      ASSERT_EQ(CC_Waitall(static_cast<int>(shuffled.size()), shuffled.data(), MPI_STATUSES_IGNORE), MPI_SUCCESS);
      break;
    default:
      for (MPI_Request& request : shuffled) {
        int done = 0;
        while (!done) ASSERT_EQ(CC_Test(&request, &done, MPI_STATUS_IGNORE), MPI_SUCCESS);
      }
  }
  for (std::size_t k = 0; k < order.size(); ++k) requests[static_cast<std::size_t>(order[k])] = shuffled[k];
}

enum class Api { c, cpp };

class Sweep {
 public:
  Sweep(Made made, unsigned seed) : made_(made), seed_(seed), setup_(make(made, seed)) {
    int salt = 0;
    for (const Variation& v : variations(made, setup_.neighborhoods)) {
      const int root = (salt++ * 5 + static_cast<int>(seed)) % world_size();
      cases_.push_back(std::make_unique<Case>(v.coll, setup_, root, v.in_place, v.reduction, ops_));
    }
  }
  ~Sweep() { MPI_Comm_free(&setup_.comm); }
  Sweep(const Sweep&) = delete;
  Sweep& operator=(const Sweep&) = delete;

  void blocking(Api api) {
    for (auto& one : cases_) {
      one->prepare(0);
      if (api == Api::c)
        ASSERT_EQ(one->call(Form::blocking, nullptr), MPI_SUCCESS) << one->describe();
      else
        cartcoll::unified::run(setup_.comm, one->as_call());
      EXPECT_EQ(one->mismatch(), "") << "blocking";
    }
  }

  // All started, in the same order everywhere, then completed in a rank-dependent order.
  void nonblocking(Api api) {
    std::vector<MPI_Request> requests(cases_.size(), MPI_REQUEST_NULL);
    std::vector<cartcoll::Request> cpp(cases_.size());
    for (auto& one : cases_) one->prepare(1);
    census::reset_calls();
    for (std::size_t i = 0; i < cases_.size(); ++i) {
      if (api == Api::c)
        ASSERT_EQ(cases_[i]->call(Form::nonblocking, &requests[i]), MPI_SUCCESS) << cases_[i]->describe();
      else
        cpp[i] = cartcoll::unified::start(setup_.comm, cases_[i]->as_call());
    }
    if (setup_.neighborhoods) {  // on a graph the starts neither wait nor agree (MPI_Comm_idup aside)
      const census::Calls calls = census::calls();
      EXPECT_EQ(calls.blocking, 0) << "a nonblocking start waited";
      EXPECT_LE(calls.collectives, 1) << "a nonblocking start ran a collective";
    }
    if (api == Api::c) {
      complete_in_rank_order(requests, seed_);
      for (MPI_Request request : requests) EXPECT_EQ(request, MPI_REQUEST_NULL);
    } else {
      for (int i : rank_order(static_cast<int>(cpp.size()), seed_)) cpp[static_cast<std::size_t>(i)].wait();
    }
    for (auto& one : cases_) EXPECT_EQ(one->mismatch(), "") << "nonblocking";
  }

  // Made once, started twice with new data, completed in rank-dependent orders, freed. `native`:
  // MPI's persistent collectives where the call goes to MPI (else made of the nonblocking ones).
  void persistent(Api api, bool native = true) {
    std::vector<MPI_Request> requests(cases_.size(), MPI_REQUEST_NULL);
    std::vector<cartcoll::Request> cpp(cases_.size());
    for (std::size_t i = 0; i < cases_.size(); ++i) {
      cases_[i]->prepare(2);
      if (api == Api::c)
        ASSERT_EQ(cases_[i]->call(Form::persistent, &requests[i]), MPI_SUCCESS) << cases_[i]->describe();
      else
        cpp[i] = native ? cartcoll::unified::init(setup_.comm, cases_[i]->as_call())
                        : std::move(cartcoll::detail::init_call(
                                        setup_.comm, [&] { return cases_[i]->as_call(); }, MPI_INFO_NULL, false)
                                        .library);
    }
    for (int generation = 3; generation <= 4; ++generation) {
      for (auto& one : cases_) one->prepare(generation);
      if (api == Api::c) {
        ASSERT_EQ(CC_Startall(static_cast<int>(requests.size()), requests.data()), MPI_SUCCESS);
        complete_in_rank_order(requests, seed_ + static_cast<unsigned>(generation));
        for (MPI_Request request : requests) EXPECT_NE(request, MPI_REQUEST_NULL) << "a persistent request stays";
      } else {
        for (auto& request : cpp) request.start();
        for (int i : rank_order(static_cast<int>(cpp.size()), seed_ + static_cast<unsigned>(generation)))
          cpp[static_cast<std::size_t>(i)].wait();
      }
      for (auto& one : cases_) EXPECT_EQ(one->mismatch(), "") << "persistent, generation " << generation;
    }
    if (api == Api::c)
      for (MPI_Request& request : requests) ASSERT_EQ(CC_Request_free(&request), MPI_SUCCESS);
  }

 private:
  Made made_;
  unsigned seed_;
  Operations ops_;
  Subject setup_;
  std::vector<std::unique_ptr<Case>> cases_;
};

class EveryCommunicator : public testing::TestWithParam<Made> {};

TEST_P(EveryCommunicator, EveryCollectiveAndFormMatchesTheReferenceModel) {
  const Watchdog watchdog(name(GetParam()), deadline);
  for (unsigned seed = 1; seed <= 2; ++seed) {
    {
      Sweep sweep(GetParam(), seed);
      // Nonblocking calls first, once: on a communicator MPI made, the first call attaches the
      // library's state, and a nonblocking one must do that without blocking (MPI_Comm_idup).
      if (seed == 2) sweep.nonblocking(Api::c);
      sweep.blocking(Api::c);
      sweep.nonblocking(Api::c);
      sweep.persistent(Api::c);
    }
    expect_no_leaks();
  }
}

TEST_P(EveryCommunicator, TheCppApiToo) {
  const Watchdog watchdog(name(GetParam()), deadline);
  {
    Sweep sweep(GetParam(), 3);
    sweep.blocking(Api::cpp);
    sweep.nonblocking(Api::cpp);
    sweep.persistent(Api::cpp);
  }
  expect_no_leaks();
}

INSTANTIATE_TEST_SUITE_P(Made, EveryCommunicator,
                         testing::Values(Made::cc_graph, Made::mpi_graph, Made::symmetric_graph, Made::old_graph,
                                         Made::no_topology, Made::cartesian),
                         [](const auto& test_info) { return std::string(name(test_info.param)); });

// Where the MPI has no persistent collectives, a persistent request is made of the nonblocking
// call, started anew at each start: the same results.
TEST(Forwarding, PersistentRequestsMadeOfNonblockingCalls) {
  const Watchdog watchdog("PersistentRequestsMadeOfNonblockingCalls", deadline);
  {
    Sweep sweep(Made::no_topology, 4);
    sweep.persistent(Api::cpp, false);
  }
  expect_no_leaks();
}

// ---------------------------------------------------------------------------------------------------
// CC_Barrier on a graph returns once all in-neighbors have entered it: a process that enters late
// holds up exactly those with an edge from it. Decided by order, not by time: the last rank enters
// only after every other process has started its nonblocking barrier, tested it, learned that all
// the others started theirs, and tested it again; those with an edge from the last rank must still
// be waiting then. The blocking barrier, on the same schedule, must complete everywhere.
TEST(Barrier, WaitsForEveryInNeighbor) {
  const Watchdog watchdog("WaitsForEveryInNeighbor", deadline);
  const int p = world_size(), rank = world_rank(), late = p - 1, ready_tag = 41;
  Subject setup = make(Made::cc_graph, 8);
  ASSERT_EQ(CC_Barrier(setup.comm), MPI_SUCCESS);
  const std::vector<int>& sources = setup.meaning.sources(rank);
  const bool waits = std::find(sources.begin(), sources.end(), late) != sources.end() && rank != late;
  MPI_Comm others = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank == late ? MPI_UNDEFINED : 0, rank, &others);
  MPI_Request request = MPI_REQUEST_NULL;
  if (rank != late) {
    ASSERT_EQ(CC_Ibarrier(setup.comm, &request), MPI_SUCCESS);
    int done = 0;
    for (int round = 0; round < 2; ++round) {
      for (int k = 0; k < 100 && !done; ++k) ASSERT_EQ(CC_Test(&request, &done, MPI_STATUS_IGNORE), MPI_SUCCESS);
      if (round == 0) MPI_Barrier(others);
    }
    if (waits) EXPECT_FALSE(done) << "rank " << rank << " did not wait for rank " << late;
    const int ready = rank;
    MPI_Send(&ready, 1, MPI_INT, late, ready_tag, MPI_COMM_WORLD);
    MPI_Comm_free(&others);
  } else {
    for (int q = 0; q < p - 1; ++q) {
      int ready = -1;
      MPI_Recv(&ready, 1, MPI_INT, MPI_ANY_SOURCE, ready_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    ASSERT_EQ(CC_Ibarrier(setup.comm, &request), MPI_SUCCESS);
  }
  ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  MPI_Comm_free(&setup.comm);
}

// ---------------------------------------------------------------------------------------------------
// Bad input: a clear MPI error class on every process that can detect it (every process, for *_init
// on a graph), never a hang; the communicator stays usable.

class Errors : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    // A ring with a self edge on every process: sources {previous, self}, destinations {next, self}.
    const int p = world_size(), rank = world_rank();
    const int sources[] = {(rank + p - 1) % p, rank}, destinations[] = {(rank + 1) % p, rank};
    EXPECT_EQ(CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2, destinations, MPI_UNWEIGHTED,
                                            MPI_INFO_NULL, 0, &ring_),
              MPI_SUCCESS);
    MPI_Comm_set_errhandler(ring_, MPI_ERRORS_RETURN);
  }
  void TearDown() override {
    MPI_Comm_free(&ring_);
    expect_no_leaks();
  }
  // The same class on every process (as every process sees it).
  static void everywhere(int code, int expected_class) {
    EXPECT_EQ(error_class(code), expected_class);
    int classes[2] = {error_class(code), -error_class(code)};
    MPI_Allreduce(MPI_IN_PLACE, classes, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(classes[0], -classes[1]) << "processes saw different error classes";
  }
  // The three forms of one call, each expected to fail with `expected_class` everywhere; the
  // nonblocking and persistent ones leave MPI_REQUEST_NULL.
  template <typename Call>
  void every_form(int expected_class, Call&& call) {
    everywhere(call(Form::blocking, nullptr), expected_class);
    for (Form form : {Form::nonblocking, Form::persistent}) {
      MPI_Request request = MPI_REQUEST_NULL;
      everywhere(call(form, &request), expected_class);
      EXPECT_EQ(request, MPI_REQUEST_NULL) << name(form);
    }
  }
  // After errors, full calls on the ring still deliver what the reference model says, with ints that
  // depend on sender, block and element: a CC_Bcast of 2 ints from rank 0 and a CC_Allreduce (sum)
  // of 2 ints over each process's sources.
  void expect_ring_still_exact(int generation) {
    const Graph ring = gather_topology(ring_);
    const int p = world_size(), rank = world_rank();
    std::vector<Bytes> buffers(static_cast<std::size_t>(p)), zeros(buffers.size(), bytes_of({0, 0}));
    for (int q = 0; q < p; ++q)
      buffers[static_cast<std::size_t>(q)] = bytes_of({test_value(generation, q, 0, 0), test_value(generation, q, 0, 1)});
    const std::vector<int> mine = ints_of(buffers[static_cast<std::size_t>(rank)]);
    std::copy(mine.begin(), mine.end(), send_);
    ASSERT_EQ(CC_Bcast(send_, 2, MPI_INT, 0, ring_), MPI_SUCCESS);
    EXPECT_EQ(std::vector<int>(send_, send_ + 2), ints_of(cartcoll::reference::bcast(ring, 0, buffers)[static_cast<std::size_t>(rank)]));
    std::copy(mine.begin(), mine.end(), send_);
    ASSERT_EQ(CC_Allreduce(send_, recv_, 2, MPI_INT, MPI_SUM, ring_), MPI_SUCCESS);
    const auto sums = cartcoll::reference::allreduce(ring, buffers, zeros, reference_op(Reduction::sum));
    EXPECT_EQ(std::vector<int>(recv_, recv_ + 2), ints_of(sums[static_cast<std::size_t>(rank)]));
  }
  MPI_Comm ring_ = MPI_COMM_NULL;
  int send_[8] = {1, 2, 3, 4, 5, 6, 7, 8}, recv_[8] = {};
};

#define CARTCOLL_EVERY_FORM(name, iname, ...)                         \
  [&](Form form, MPI_Request* request) {                              \
    switch (form) {                                                   \
      case Form::blocking:                                            \
        return CC_##name(__VA_ARGS__);                                \
      case Form::nonblocking:                                         \
        return CC_##iname(__VA_ARGS__, request);                      \
      case Form::persistent:                                          \
        return CC_##name##_init(__VA_ARGS__, MPI_INFO_NULL, request); \
    }                                                                 \
    return MPI_ERR_OTHER;                                             \
  }

TEST_F(Errors, ScanAndReduceScatterHaveNoMeaningOnGraphs) {
  int counts[2] = {1, 1};
  every_form(MPI_ERR_TOPOLOGY, CARTCOLL_EVERY_FORM(Scan, Iscan, send_, recv_, 1, MPI_INT, MPI_SUM, ring_));
  every_form(MPI_ERR_TOPOLOGY, CARTCOLL_EVERY_FORM(Exscan, Iexscan, send_, recv_, 1, MPI_INT, MPI_SUM, ring_));
  every_form(MPI_ERR_TOPOLOGY,
             CARTCOLL_EVERY_FORM(Reduce_scatter, Ireduce_scatter, send_, recv_, counts, MPI_INT, MPI_SUM, ring_));
  every_form(MPI_ERR_TOPOLOGY, CARTCOLL_EVERY_FORM(Reduce_scatter_block, Ireduce_scatter_block, send_, recv_, 1,
                                                   MPI_INT, MPI_SUM, ring_));
}

TEST_F(Errors, InvalidRootsAndOperations) {
  const int p = world_size();
  for (int root : {-1, p, MPI_ROOT}) {
    every_form(MPI_ERR_ROOT, CARTCOLL_EVERY_FORM(Bcast, Ibcast, send_, 1, MPI_INT, root, ring_));
    every_form(MPI_ERR_ROOT, CARTCOLL_EVERY_FORM(Gather, Igather, send_, 1, MPI_INT, recv_, 1, MPI_INT, root, ring_));
    every_form(MPI_ERR_ROOT, CARTCOLL_EVERY_FORM(Scatter, Iscatter, send_, 1, MPI_INT, recv_, 1, MPI_INT, root, ring_));
    every_form(MPI_ERR_ROOT, CARTCOLL_EVERY_FORM(Reduce, Ireduce, send_, recv_, 1, MPI_INT, MPI_SUM, root, ring_));
  }
  every_form(MPI_ERR_OP, CARTCOLL_EVERY_FORM(Allreduce, Iallreduce, send_, recv_, 1, MPI_INT, MPI_OP_NULL, ring_));
  every_form(MPI_ERR_OP, CARTCOLL_EVERY_FORM(Reduce, Ireduce, send_, recv_, 1, MPI_INT, MPI_OP_NULL, 0, ring_));
  // Where the call goes to MPI, MPI reports it (on the communicator's handler, once).
  MPI_Comm plain = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &plain);
  MPI_Comm_set_errhandler(plain, MPI_ERRORS_RETURN);
  everywhere(CC_Bcast(send_, 1, MPI_INT, p, plain), MPI_ERR_ROOT);
  MPI_Comm_free(&plain);
}

TEST_F(Errors, NullBuffersBadCountsAndTypes) {
  every_form(MPI_ERR_BUFFER, CARTCOLL_EVERY_FORM(Bcast, Ibcast, nullptr, 1, MPI_INT, 0, ring_));
  every_form(MPI_ERR_BUFFER, CARTCOLL_EVERY_FORM(Allreduce, Iallreduce, nullptr, recv_, 1, MPI_INT, MPI_SUM, ring_));
  every_form(MPI_ERR_BUFFER,
             CARTCOLL_EVERY_FORM(Reduce, Ireduce, send_, nullptr, 1, MPI_INT, MPI_SUM, world_rank(), ring_));
  every_form(MPI_ERR_COUNT, CARTCOLL_EVERY_FORM(Bcast, Ibcast, send_, -1, MPI_INT, 0, ring_));
  every_form(MPI_ERR_TYPE,
             CARTCOLL_EVERY_FORM(Allreduce, Iallreduce, send_, recv_, 1, MPI_DATATYPE_NULL, MPI_SUM, ring_));
  // (Every process names itself the root here, so that every process is one and detects it.)
  every_form(MPI_ERR_ARG, CARTCOLL_EVERY_FORM(Gatherv, Igatherv, send_, 1, MPI_INT, recv_, nullptr, nullptr, MPI_INT,
                                              world_rank(), ring_));
  // MPI_IN_PLACE where MPI does not allow it, or where the graph gives it no meaning.
  every_form(MPI_ERR_BUFFER, CARTCOLL_EVERY_FORM(Bcast, Ibcast, MPI_IN_PLACE, 1, MPI_INT, 0, ring_));
  const int p = world_size();
  if (p > 1)  // the root's own block is not a non-root's to pass in place
    every_form(MPI_ERR_BUFFER, CARTCOLL_EVERY_FORM(Gather, Igather, MPI_IN_PLACE, 1, MPI_INT, recv_, 1, MPI_INT,
                                                   (world_rank() + 1) % p, ring_));
  // The root's self edge, its two ends sized differently by the root itself: the root reports it. (On
  // a graph of self edges only, so that no message is left unreceived: MPICH may hand a freed
  // communicator's context to a new one, stale messages included.)
  MPI_Comm selves = MPI_COMM_NULL;
  const int self = world_rank();
  ASSERT_EQ(CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &self, MPI_UNWEIGHTED, 1, &self, MPI_UNWEIGHTED,
                                          MPI_INFO_NULL, 0, &selves),
            MPI_SUCCESS);
  MPI_Comm_set_errhandler(selves, MPI_ERRORS_RETURN);
  EXPECT_EQ(error_class(CC_Gather(send_, 2, MPI_INT, recv_, 1, MPI_INT, 0, selves)),
            world_rank() == 0 ? MPI_ERR_COUNT : MPI_SUCCESS);
  MPI_Comm_free(&selves);
  // Nothing hangs, and the communicator still works.
  expect_ring_still_exact(1);
  EXPECT_EQ(error_class(CC_Ibarrier(ring_, nullptr)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(CC_Barrier(MPI_COMM_NULL)), MPI_ERR_COMM);
}

// *_init on a graph agrees: a bad argument on one process, different roots or block sizes, or
// MPI_IN_PLACE on some processes only, fail every process alike.
TEST_F(Errors, PersistentInitsAgreeOnEveryProcess) {
  const int p = world_size(), rank = world_rank();
  const bool last = rank == p - 1;
  MPI_Request request = MPI_REQUEST_NULL;
  everywhere(CC_Bcast_init(last ? nullptr : send_, 1, MPI_INT, 0, ring_, MPI_INFO_NULL, &request), MPI_ERR_BUFFER);
  everywhere(CC_Allreduce_init(send_, recv_, last ? -1 : 1, MPI_INT, MPI_SUM, ring_, MPI_INFO_NULL, &request),
             MPI_ERR_COUNT);
  everywhere(CC_Bcast_init(send_, 1, MPI_INT, 0, ring_, MPI_INFO_NULL, last ? nullptr : &request), MPI_ERR_REQUEST);
  if (p > 1) {
    everywhere(CC_Bcast_init(send_, 1, MPI_INT, last ? 1 : 0, ring_, MPI_INFO_NULL, &request), MPI_ERR_ROOT);
    everywhere(CC_Reduce_init(send_, recv_, 1, MPI_INT, MPI_SUM, last ? 1 : 0, ring_, MPI_INFO_NULL, &request),
               MPI_ERR_ROOT);
    everywhere(CC_Bcast_init(send_, last ? 2 : 1, MPI_INT, 0, ring_, MPI_INFO_NULL, &request), MPI_ERR_COUNT);
    everywhere(CC_Allreduce_init(send_, recv_, last ? 2 : 1, MPI_INT, MPI_SUM, ring_, MPI_INFO_NULL, &request),
               MPI_ERR_COUNT);
    everywhere(CC_Gather_init(send_, last ? 2 : 1, MPI_INT, recv_, 1, MPI_INT, 0, ring_, MPI_INFO_NULL, &request),
               MPI_ERR_COUNT);
    everywhere(
        CC_Allgather_init(last ? MPI_IN_PLACE : send_, 1, MPI_INT, recv_, 1, MPI_INT, ring_, MPI_INFO_NULL, &request),
        MPI_ERR_BUFFER);
  }
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  // A good one still works: rank 0's ints reach the processes with an edge from it.
  const Graph ring = gather_topology(ring_);
  std::vector<Bytes> buffers(static_cast<std::size_t>(p));
  for (int q = 0; q < p; ++q) buffers[static_cast<std::size_t>(q)] = bytes_of({test_value(2, q, 0, 0), test_value(2, q, 0, 1)});
  ASSERT_EQ(CC_Bcast_init(send_, 2, MPI_INT, 0, ring_, MPI_INFO_NULL, &request), MPI_SUCCESS);
  const std::vector<int> mine = ints_of(buffers[static_cast<std::size_t>(rank)]);
  std::copy(mine.begin(), mine.end(), send_);
  ASSERT_EQ(CC_Start(&request), MPI_SUCCESS);
  ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(std::vector<int>(send_, send_ + 2), ints_of(cartcoll::reference::bcast(ring, 0, buffers)[static_cast<std::size_t>(rank)]));
  ASSERT_EQ(CC_Request_free(&request), MPI_SUCCESS);
  expect_ring_still_exact(3);
}

// Messages longer than their receive blocks: the receivers report MPI_ERR_TRUNCATE; nothing hangs.
TEST_F(Errors, MismatchedCountsInABlockingCallAreReportedWhereTheyArrive) {
  const int p = world_size(), rank = world_rank();
  if (p < 2) GTEST_SKIP() << "needs a neighbor";
  const int code = CC_Bcast(send_, rank == 0 ? 4 : 2, MPI_INT, 0, ring_);
  EXPECT_EQ(error_class(code), rank == 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
  MPI_Barrier(MPI_COMM_WORLD);
  expect_ring_still_exact(4);
}

// ---------------------------------------------------------------------------------------------------
// Without a topology, MPI's semantics: on an inter-communicator (the bipartite graph of the two
// groups), and CC_Alltoallw / CC_Allgatherw with MPI_Aint displacements that do not fit MPI_Alltoallw's
// ints (absolute addresses from MPI_BOTTOM).

// Processes of even and odd world rank, joined by an inter-communicator. `remote` gets the world
// ranks of the other group, in its rank order.
MPI_Comm even_odd_intercomm(std::vector<int>& remote) {
  const int p = world_size(), rank = world_rank();
  MPI_Comm local = MPI_COMM_NULL, inter = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 17, &inter);
  MPI_Comm_free(&local);
  for (int q = 1 - rank % 2; q < p; q += 2) remote.push_back(q);
  return inter;
}

TEST(Forwarding, InterCommunicatorsKeepMpisMeaning) {
  if (world_size() < 2) GTEST_SKIP() << "needs two groups";
  const Watchdog watchdog("InterCommunicatorsKeepMpisMeaning", deadline);
  const int p = world_size(), rank = world_rank();
  std::vector<int> remote;
  MPI_Comm inter = even_odd_intercomm(remote);
  Graph bipartite(p);  // in world ranks: every process receives from the other group, in its rank order
  for (int q = 0; q < p; ++q)
    for (int r = 1 - q % 2; r < p; r += 2) {
      bipartite.sources(q).push_back(r);
      bipartite.destinations(q).push_back(r);
    }
  Blocks send(static_cast<std::size_t>(p)), recv(send.size());
  for (int q = 0; q < p; ++q) {
    send[static_cast<std::size_t>(q)] = {bytes_of({value(q, 0, 0, 5), value(q, 0, 1, 5)})};
    for (std::size_t i = 0; i < bipartite.sources(q).size(); ++i)
      recv[static_cast<std::size_t>(q)].push_back(Bytes(2 * sizeof(int)));
  }
  const Blocks expected = cartcoll::reference::exchange(bipartite, cartcoll::Collective::allgather, send, recv);
  const std::vector<int> mine = ints_of(send[static_cast<std::size_t>(rank)][0]);
  const std::size_t n = remote.size();
  std::vector<int> got(2 * n + 1, -1), counts(n, 2);
  std::vector<MPI_Aint> displs;
  std::vector<MPI_Datatype> types(n, MPI_INT);
  for (std::size_t i = 0; i < n; ++i) displs.push_back(static_cast<MPI_Aint>(2 * i * sizeof(int)));
  ASSERT_EQ(CC_Allgatherw(mine.data(), 2, MPI_INT, got.data(), counts.data(), displs.data(), types.data(), inter),
            MPI_SUCCESS);
  for (std::size_t i = 0; i < n; ++i)
    EXPECT_EQ(std::vector<int>(got.begin() + static_cast<long>(2 * i), got.begin() + static_cast<long>(2 * i + 2)),
              ints_of(expected[static_cast<std::size_t>(rank)][i]));
  EXPECT_EQ(got.back(), -1);
  // Broadcast from rank 0 of the even group to the odd one (MPI_ROOT, MPI_PROC_NULL).
  int local_rank = 0;
  MPI_Comm_rank(inter, &local_rank);
  int data = rank == 0 ? 4242 : -1;
  const int root = rank % 2 == 1 ? 0 : local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
  MPI_Request request = MPI_REQUEST_NULL;
  ASSERT_EQ(CC_Ibcast(&data, 1, MPI_INT, root, inter, &request), MPI_SUCCESS);
  ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(data, rank == 0 || rank % 2 == 1 ? 4242 : -1);
  MPI_Comm_free(&inter);
  expect_no_leaks();
}

// Every process's block is at an absolute address (buffers MPI_BOTTOM): MPI_Alltoallw's int
// displacements cannot hold them, so each block travels as a datatype placed at its address; all
// three forms, those datatypes freed with the call or the request.
TEST(Forwarding, AbsoluteDisplacementsBeyondInt) {
  const Watchdog watchdog("AbsoluteDisplacementsBeyondInt", deadline);
  const int p = world_size(), rank = world_rank();
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const Graph complete = complete_graph(p);
  for (Form form : all_forms) {
    for (const bool gathers : {false, true}) {
      std::vector<std::vector<int>> sends(static_cast<std::size_t>(p)), recvs(sends.size());
      std::vector<int> counts(sends.size(), 2);
      std::vector<MPI_Aint> sdispls, rdispls;
      std::vector<MPI_Datatype> types(sends.size(), MPI_INT);
      Blocks send(sends.size()), recv(sends.size());
      for (int q = 0; q < p; ++q) {
        const auto at = static_cast<std::size_t>(q);
        sends[at] = {value(rank, gathers ? 0 : q, 0, 6), value(rank, gathers ? 0 : q, 1, 6)};
        recvs[at] = {-1, -1};
        sdispls.push_back(0);
        rdispls.push_back(0);
        MPI_Get_address(sends[at].data(), &sdispls.back());
        MPI_Get_address(recvs[at].data(), &rdispls.back());
        for (int j = 0; j < (gathers ? 1 : p); ++j)
          send[at].push_back(bytes_of({value(q, j, 0, 6), value(q, j, 1, 6)}));
        for (int i = 0; i < p; ++i) recv[at].push_back(Bytes(2 * sizeof(int)));
      }
      const Blocks expected = cartcoll::reference::exchange(
          complete, gathers ? cartcoll::Collective::allgather : cartcoll::Collective::alltoall, send, recv);
      MPI_Request request = MPI_REQUEST_NULL;
      MPI_Request* out = form == Form::blocking ? nullptr : &request;
      const int* own = sends[0].data();  // allgatherw's one send block
      const int code =
          gathers
              ? (form == Form::blocking
                     ? CC_Allgatherw(own, 2, MPI_INT, MPI_BOTTOM, counts.data(), rdispls.data(), types.data(), comm)
                 : form == Form::nonblocking
                     ? CC_Iallgatherw(own, 2, MPI_INT, MPI_BOTTOM, counts.data(), rdispls.data(), types.data(), comm,
                                      out)
                     : CC_Allgatherw_init(own, 2, MPI_INT, MPI_BOTTOM, counts.data(), rdispls.data(), types.data(),
                                          comm, MPI_INFO_NULL, out))
              : (form == Form::blocking ? CC_Alltoallw(MPI_BOTTOM, counts.data(), sdispls.data(), types.data(),
                                                       MPI_BOTTOM, counts.data(), rdispls.data(), types.data(), comm)
                 : form == Form::nonblocking
                     ? CC_Ialltoallw(MPI_BOTTOM, counts.data(), sdispls.data(), types.data(), MPI_BOTTOM, counts.data(),
                                     rdispls.data(), types.data(), comm, out)
                     : CC_Alltoallw_init(MPI_BOTTOM, counts.data(), sdispls.data(), types.data(), MPI_BOTTOM,
                                         counts.data(), rdispls.data(), types.data(), comm, MPI_INFO_NULL, out));
      ASSERT_EQ(code, MPI_SUCCESS) << name(form);
      if (form == Form::persistent) ASSERT_EQ(CC_Start(&request), MPI_SUCCESS);
      if (form != Form::blocking) ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
      if (form == Form::persistent) ASSERT_EQ(CC_Request_free(&request), MPI_SUCCESS);
      for (int i = 0; i < p; ++i)
        EXPECT_EQ(recvs[static_cast<std::size_t>(i)],
                  ints_of(expected[static_cast<std::size_t>(rank)][static_cast<std::size_t>(i)]))
            << name(form) << (gathers ? " allgatherw" : " alltoallw") << ", block " << i;
    }
  }
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

}  // namespace
