// SPDX-License-Identifier: BSD-3-Clause
#include "graph_case.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "cartcoll/cartcoll.h"
#include "cartcoll/neighbor.h"
#include "core/simulation/reference.hpp"

namespace support {

namespace {

int absent_as_no_process(int rank) { return rank == MPI_PROC_NULL ? cartcoll::no_process : rank; }

// This process's lists, as MPI's own query functions give them.
void local_topology(MPI_Comm comm, std::vector<int>& sources, std::vector<int>& destinations) {
  int kind = MPI_UNDEFINED, rank = 0;
  MPI_Topo_test(comm, &kind);
  MPI_Comm_rank(comm, &rank);
  if (kind == MPI_DIST_GRAPH) {
    int in = 0, out = 0, weighted = 0;
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    sources.resize(static_cast<std::size_t>(in));
    destinations.resize(static_cast<std::size_t>(out));
    MPI_Dist_graph_neighbors(comm, in, sources.data(), MPI_UNWEIGHTED, out, destinations.data(), MPI_UNWEIGHTED);
  } else if (kind == MPI_GRAPH) {
    int count = 0;
    MPI_Graph_neighbors_count(comm, rank, &count);
    sources.resize(static_cast<std::size_t>(count));
    MPI_Graph_neighbors(comm, rank, count, sources.data());
    destinations = sources;
  } else if (kind == MPI_CART) {  // MPI 4.1 section 8.6: -1 then +1 neighbor of each dimension
    int d = 0;
    MPI_Cartdim_get(comm, &d);
    for (int k = 0; k < d; ++k) {
      int below = MPI_PROC_NULL, above = MPI_PROC_NULL;
      MPI_Cart_shift(comm, k, 1, &below, &above);
      sources.insert(sources.end(), {below, above});
    }
    destinations = sources;
  }
}

cartcoll::Graph gather(MPI_Comm comm, std::vector<int> sources, std::vector<int> destinations) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  cartcoll::Graph graph(size);
  for (auto* list : {&sources, &destinations}) {
    for (int& rank : *list) rank = absent_as_no_process(rank);
    std::vector<int> counts(static_cast<std::size_t>(size)), displs(counts.size());
    const int mine = static_cast<int>(list->size());
    MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
    std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
    std::vector<int> all(static_cast<std::size_t>(displs.back() + counts.back()));
    MPI_Allgatherv(list->data(), mine, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT, comm);
    for (int r = 0; r < size; ++r) {
      const auto from = all.begin() + displs[static_cast<std::size_t>(r)];
      std::vector<int> ranks(from, from + counts[static_cast<std::size_t>(r)]);
      (list == &sources ? graph.sources(r) : graph.destinations(r)) = std::move(ranks);
    }
  }
  return graph;
}

// The k in "the k-th occurrence" of each entry of a list.
std::vector<int> occurrences(const std::vector<int>& neighbors) {
  std::map<int, int> seen;
  std::vector<int> k;
  for (int neighbor : neighbors) k.push_back(seen[neighbor]++);
  return k;
}

}  // namespace

cartcoll::Graph gather_topology(MPI_Comm comm) {
  std::vector<int> sources, destinations;
  local_topology(comm, sources, destinations);
  return gather(comm, std::move(sources), std::move(destinations));
}

cartcoll::Graph gather_cart_neighborhood(MPI_Comm cartcomm) {
  int t = 0;
  Cart_neighbor_count(cartcomm, &t);
  std::vector<int> sources(static_cast<std::size_t>(t)), targets(sources.size());
  Cart_neighbor_get(cartcomm, t, sources.data(), MPI_UNWEIGHTED, t, targets.data(), MPI_UNWEIGHTED);
  return gather(cartcomm, std::move(sources), std::move(targets));
}

namespace {

// The lists with sources 2k and 2k+1 swapped on every process: for MPI's Cartesian lists (R - e_k,
// R + e_k for both), the Cartesian neighborhood's sources R - N[j] beside its destinations R + N[j].
cartcoll::Graph oracle_graph(const cartcoll::Graph& graph, Pairing pairing) {
  cartcoll::Graph oracle = graph;
  if (pairing == Pairing::cartesian)
    for (int rank = 0; rank < oracle.size(); ++rank) {
      std::vector<int>& sources = oracle.sources(rank);
      for (std::size_t i = 0; i + 1 < sources.size(); i += 2) std::swap(sources[i], sources[i + 1]);
    }
  return oracle;
}

}  // namespace

GraphCase::GraphCase(Op op, Variant variant, Sizes sizes, const TestTypes& types, const cartcoll::Graph& graph,
                     int rank, unsigned seed, Pairing pairing, Missized missized)
    : CaseBuffers(op, rank), variant_(variant), sizes_(sizes), pairing_(pairing), oracle_(oracle_graph(graph, pairing)),
      seed_(seed), missized_(missized) {
  const bool mixed = variant == Variant::mixed_types;
  const std::vector<int>& sources = oracle_.sources(rank);
  const std::vector<int>& destinations = oracle_.destinations(rank);
  const std::vector<int> in_k = occurrences(sources), out_k = occurrences(destinations);
  std::vector<int> send_ints, recv_ints;
  std::vector<const ElementType*> send_types, recv_types;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::size_t o = oracle_block(i);
    recv_ints.push_back(ints_on_edge(sources[o], rank, in_k[o], static_cast<int>(o)));
    recv_types.push_back(!mixed ? &types.contiguous() : general(op) ? &types.at(static_cast<int>(i + 1 + seed)) : &types.strided());
  }
  const std::size_t send_blocks = gathers(op) ? 1 : destinations.size();
  for (std::size_t j = 0; j < send_blocks; ++j) {
    send_ints.push_back(gathers(op) ? ints_on_edge(rank, cartcoll::no_process, 0, 0)
                                    : ints_on_edge(rank, destinations[j], out_k[j], static_cast<int>(j)));
    send_types.push_back(!mixed ? &types.contiguous() : general(op) ? &types.at(static_cast<int>(j + seed)) : &types.shifted());
  }
  if (rank == missized.sender) send_ints.at(missized.block) += missized.extra_ints;
  send_.emplace(op, send_ints, send_types, true);
  recv_.emplace(op, recv_ints, recv_types, false);
}

std::size_t GraphCase::oracle_block(std::size_t i) const { return pairing_ == Pairing::cartesian ? i ^ 1u : i; }

int GraphCase::ints_sent(int rank, std::size_t block) const {
  const std::vector<int>& destinations = oracle_.destinations(rank);
  if (gathers(op_)) return ints_on_edge(rank, cartcoll::no_process, 0, 0);
  return ints_on_edge(rank, destinations.at(block), occurrences(destinations).at(block), static_cast<int>(block));
}

// The k-th occurrence of the receiver among the sender's destinations receives into the k-th
// occurrence of the sender among the receiver's sources.
std::pair<int, std::size_t> GraphCase::missized_receive() const {
  if (missized_.sender < 0) return {cartcoll::no_process, 0};
  const std::vector<int>& destinations = oracle_.destinations(missized_.sender);
  const int receiver = destinations.at(missized_.block);
  const int k = occurrences(destinations).at(missized_.block);
  const std::vector<int>& sources = oracle_.sources(receiver);
  const std::vector<int> in_k = occurrences(sources);
  for (std::size_t o = 0; o < sources.size(); ++o)
    if (sources[o] == missized_.sender && in_k[o] == k) return {receiver, oracle_block(o)};
  return {cartcoll::no_process, 0};
}

std::string GraphCase::mismatch() const {
  const auto [receiver, block] = missized_receive();
  if (receiver != rank_ || missized_.extra_ints < 0) return CaseBuffers::mismatch();
  const std::size_t truncated[] = {block};
  return CaseBuffers::mismatch(truncated);
}

// Even numbers of ints (the strided type holds two). allgather(v) blocks depend on the sender only.
int GraphCase::ints_on_edge(int from, int to, int occurrence, int index) const {
  if (variant_ == Variant::zero_counts) return 0;
  if (regular(op_) || sizes_ == Sizes::uniform || (sizes_ == Sizes::per_index && gathers(op_))) return 4;
  if (sizes_ == Sizes::per_index) return 2 * ((index * 7 + 3) % 3);
  const int unit = sizes_ == Sizes::per_edge_long ? 3000 : 2;
  if (from == cartcoll::no_process) return unit;
  const unsigned mix = static_cast<unsigned>(from) * 2654435761u ^ static_cast<unsigned>(to + 7) * 40503u ^
                       static_cast<unsigned>(occurrence) * 97u ^ seed_;
  return unit * static_cast<int>((gathers(op_) ? static_cast<unsigned>(from) * 5u + seed_ : mix) % 3u);
}

void GraphCase::prepare(int generation) {
  fill(generation, [this] { return expected_receive(); });
}

// Every process's packed send blocks (sized as that process sizes them) through the graph reference
// model; this process's result laid into a copy of its untouched receive buffer.
std::vector<std::byte> GraphCase::expected_receive() const {
  const int size = oracle_.size();
  cartcoll::reference::Blocks send(static_cast<std::size_t>(size)), recv(send.size());
  for (int rank = 0; rank < size; ++rank) {
    const std::vector<int>& destinations = oracle_.destinations(rank);
    const std::vector<int> out_k = occurrences(destinations);
    const std::size_t send_blocks = gathers(op_) ? 1 : destinations.size();
    for (std::size_t j = 0; j < send_blocks; ++j) {
      const int ints = gathers(op_) ? ints_on_edge(rank, cartcoll::no_process, 0, 0)
                                    : ints_on_edge(rank, destinations[j], out_k[j], static_cast<int>(j));
      send[static_cast<std::size_t>(rank)].push_back(
          packed_ints(ints, [&](int e) { return test_value(generation_, rank, static_cast<int>(j), e); }));
    }
    const std::vector<int>& sources = oracle_.sources(rank);
    const std::vector<int> in_k = occurrences(sources);
    for (std::size_t o = 0; o < sources.size(); ++o) {
      const int ints = ints_on_edge(sources[o], rank, in_k[o], static_cast<int>(o));
      recv[static_cast<std::size_t>(rank)].push_back(rank == rank_ ? recv_->packed(oracle_block(o))
                                                                   : cartcoll::reference::Bytes(4 * static_cast<std::size_t>(ints)));
    }
  }
  const auto collective = gathers(op_) ? cartcoll::Collective::allgather : cartcoll::Collective::alltoall;
  const auto result = cartcoll::reference::exchange(oracle_, collective, send, std::move(recv));
  const auto& mine = result[static_cast<std::size_t>(rank_)];
  std::vector<cartcoll::reference::Bytes> in_user_order(mine.size());
  for (std::size_t o = 0; o < mine.size(); ++o) in_user_order[oracle_block(o)] = mine[o];
  // A smaller block than the receiver's: its ints, then the rest of the receive block as it was.
  if (const auto [receiver, block] = missized_receive(); receiver == rank_ && missized_.extra_ints < 0) {
    cartcoll::reference::Bytes& bytes = in_user_order.at(block);
    const cartcoll::reference::Bytes before = recv_->packed(block);
    const std::size_t kept = bytes.size() - 4 * static_cast<std::size_t>(-missized_.extra_ints);
    std::copy(before.begin() + static_cast<std::ptrdiff_t>(kept), before.end(), bytes.begin() + static_cast<std::ptrdiff_t>(kept));
  }
  return recv_->with_blocks(in_user_order);
}

int GraphCase::call(Form form, MPI_Comm comm, MPI_Request* request, const Api& f) {
  const auto [sbuf, rbuf, scount, rcount, stype, rtype, sc, sd, rc, rd, sbd, rbd, st, rt] = arguments();
  switch (form) {
    case Form::blocking:
      switch (op_) {
        case Op::allgather: return f.neighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
        case Op::allgatherv: return f.neighbor_allgatherv(sbuf, scount, stype, rbuf, rc, rd, rtype, comm);
        case Op::alltoall: return f.neighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
        case Op::alltoallv: return f.neighbor_alltoallv(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, comm);
        case Op::alltoallw: return f.neighbor_alltoallw(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, comm);
        case Op::allgatherw: break;
      }
      break;
    case Form::nonblocking:
      switch (op_) {
        case Op::allgather: return f.ineighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, request);
        case Op::allgatherv: return f.ineighbor_allgatherv(sbuf, scount, stype, rbuf, rc, rd, rtype, comm, request);
        case Op::alltoall: return f.ineighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, request);
        case Op::alltoallv: return f.ineighbor_alltoallv(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, comm, request);
        case Op::alltoallw: return f.ineighbor_alltoallw(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, comm, request);
        case Op::allgatherw: break;
      }
      break;
    case Form::persistent:
      switch (op_) {
        case Op::allgather:
          return f.allgather_init(sbuf, scount, stype, rbuf, rcount, rtype, comm, MPI_INFO_NULL, request);
        case Op::allgatherv:
          return f.allgatherv_init(sbuf, scount, stype, rbuf, rc, rd, rtype, comm, MPI_INFO_NULL, request);
        case Op::alltoall:
          return f.alltoall_init(sbuf, scount, stype, rbuf, rcount, rtype, comm, MPI_INFO_NULL, request);
        case Op::alltoallv:
          return f.alltoallv_init(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, comm, MPI_INFO_NULL, request);
        case Op::alltoallw:
          return f.alltoallw_init(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, comm, MPI_INFO_NULL, request);
        case Op::allgatherw: break;
      }
      break;
  }
  return MPI_ERR_OTHER;
}

std::string GraphCase::describe() const {
  return std::string(name(op_)) + ", " + name(variant_) + (sizes_ == Sizes::per_edge ? ", sizes per edge" : ", sizes per index") +
         (pairing_ == Pairing::cartesian ? ", block s into s^1" : "") + ", rank " + std::to_string(rank_) + " of " +
         std::to_string(oracle_.size());
}

}  // namespace support
