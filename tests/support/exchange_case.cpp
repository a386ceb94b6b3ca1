// SPDX-License-Identifier: BSD-3-Clause
#include "exchange_case.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/simulation/reference.hpp"

namespace support {

namespace {

int block_ints(Op op, Variant variant, int block) {
  if (variant == Variant::zero_counts) return 0;
  return irregular_counts(op) ? 2 * ((block * 7 + 3) % 3) : 4;
}

}  // namespace

ExchangeCase::ExchangeCase(Op op, Variant variant, const TestTypes& types, const cartcoll::Grid& grid,
                           const cartcoll::Offsets& offsets, int rank)
    : CaseBuffers(op, rank), variant_(variant), grid_(grid), offsets_(offsets) {
  const int t = offsets.count();
  const int send_blocks = gathers(op) ? 1 : t;
  const bool mixed = variant == Variant::mixed_types;
  std::vector<int> send_ints, recv_ints;
  std::vector<const ElementType*> send_types, recv_types;
  for (int i = 0; i < t; ++i) {
    recv_ints.push_back(block_ints(op, variant, i));
    recv_types.push_back(!mixed ? &types.contiguous() : general(op) ? &types.at(i + 1) : &types.strided());
  }
  for (int i = 0; i < send_blocks; ++i) {
    send_ints.push_back(block_ints(op, variant, i));
    send_types.push_back(!mixed ? &types.contiguous() : op == Op::alltoallw ? &types.at(i) : &types.shifted());
  }
  send_.emplace(op, send_ints, send_types, true);
  recv_.emplace(op, recv_ints, recv_types, false);
}

void ExchangeCase::prepare(int generation) {
  fill(generation, [this] { return expected_receive(); });
}

// Packs every rank's send blocks, runs the reference model, and lays this rank's result into a copy
// of the untouched receive buffer.
std::vector<std::byte> ExchangeCase::expected_receive() const {
  cartcoll::reference::Blocks send(static_cast<std::size_t>(grid_.size())), recv(send.size());
  for (int rank = 0; rank < grid_.size(); ++rank) {
    for (std::size_t b = 0; b < send_->blocks().size(); ++b)
      send[static_cast<std::size_t>(rank)].push_back(packed_ints(
          send_->blocks()[b].ints(), [&](int j) { return test_value(generation_, rank, static_cast<int>(b), j); }));
    for (std::size_t i = 0; i < recv_->blocks().size(); ++i)
      recv[static_cast<std::size_t>(rank)].push_back(
          rank == rank_ ? recv_->packed(i) : cartcoll::reference::Bytes(static_cast<std::size_t>(recv_->blocks()[i].ints()) * 4));
  }
  const auto collective = gathers(op_) ? cartcoll::Collective::allgather : cartcoll::Collective::alltoall;
  const auto result = cartcoll::reference::exchange(grid_, offsets_, collective, send, std::move(recv));
  return recv_->with_blocks(result[static_cast<std::size_t>(rank_)]);
}

int ExchangeCase::call(Form form, MPI_Comm cart, MPI_Info info, Cart_request* request) {
  const auto [sbuf, rbuf, scount, rcount, stype, rtype, sc, sd, rc, rd, sbd, rbd, st, rt] = arguments();
  switch (form) {
    case Form::blocking:
      switch (op_) {
        case Op::allgather: return Cart_allgather(sbuf, scount, stype, rbuf, rcount, rtype, cart);
        case Op::allgatherv: return Cart_allgatherv(sbuf, scount, stype, rbuf, rc, rd, rtype, cart);
        case Op::allgatherw: return Cart_allgatherw(sbuf, scount, stype, rbuf, rc, rbd, rt, cart);
        case Op::alltoall: return Cart_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, cart);
        case Op::alltoallv: return Cart_alltoallv(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, cart);
        case Op::alltoallw: return Cart_alltoallw(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, cart);
      }
      break;
    case Form::nonblocking:
      switch (op_) {
        case Op::allgather: return Cart_iallgather(sbuf, scount, stype, rbuf, rcount, rtype, cart, request);
        case Op::allgatherv: return Cart_iallgatherv(sbuf, scount, stype, rbuf, rc, rd, rtype, cart, request);
        case Op::allgatherw: return Cart_iallgatherw(sbuf, scount, stype, rbuf, rc, rbd, rt, cart, request);
        case Op::alltoall: return Cart_ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, cart, request);
        case Op::alltoallv: return Cart_ialltoallv(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, cart, request);
        case Op::alltoallw: return Cart_ialltoallw(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, cart, request);
      }
      break;
    case Form::persistent:
      switch (op_) {
        case Op::allgather: return Cart_allgather_init(sbuf, scount, stype, rbuf, rcount, rtype, cart, info, request);
        case Op::allgatherv: return Cart_allgatherv_init(sbuf, scount, stype, rbuf, rc, rd, rtype, cart, info, request);
        case Op::allgatherw: return Cart_allgatherw_init(sbuf, scount, stype, rbuf, rc, rbd, rt, cart, info, request);
        case Op::alltoall: return Cart_alltoall_init(sbuf, scount, stype, rbuf, rcount, rtype, cart, info, request);
        case Op::alltoallv: return Cart_alltoallv_init(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, cart, info, request);
        case Op::alltoallw: return Cart_alltoallw_init(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, cart, info, request);
      }
      break;
  }
  return MPI_ERR_OTHER;
}

int ExchangeCase::init_iso(MPI_Comm iso, Iso_request* request) {
  const auto [sbuf, rbuf, scount, rcount, stype, rtype, sc, sd, rc, rd, sbd, rbd, st, rt] = arguments();
  // The isomorphic-collectives paper's (Träff, Carpen-Amarie, Hunold and Rougier) v forms take
  // MPI_Aint displacements, still in extents.
  const std::vector<MPI_Aint> wide_sd(sd, sd + send_->blocks().size()), wide_rd(rd, rd + recv_->blocks().size());
  switch (op_) {
    case Op::allgather: return Iso_neighbor_allgather_init(sbuf, scount, stype, rbuf, rcount, rtype, iso, request);
    case Op::allgatherv:
      return Iso_neighbor_allgatherv_init(sbuf, scount, stype, rbuf, rc, wide_rd.data(), rtype, iso, request);
    case Op::allgatherw: return Iso_neighbor_allgatherw_init(sbuf, scount, stype, rbuf, rc, rbd, rt, iso, request);
    case Op::alltoall: return Iso_neighbor_alltoall_init(sbuf, scount, stype, rbuf, rcount, rtype, iso, request);
    case Op::alltoallv:
      return Iso_neighbor_alltoallv_init(sbuf, sc, wide_sd.data(), stype, rbuf, rc, wide_rd.data(), rtype, iso, request);
    case Op::alltoallw: return Iso_neighbor_alltoallw_init(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, iso, request);
  }
  return MPI_ERR_OTHER;
}

std::string ExchangeCase::describe() const {
  return std::string(name(op_)) + ", " + name(variant_) + ", rank " + std::to_string(rank_) + ", " +
         support::describe(grid_, offsets_);
}

void expect_every_op_exact(MPI_Comm cartcomm, const cartcoll::Grid& grid, const cartcoll::Offsets& offsets) {
  int rank = 0;
  MPI_Comm_rank(cartcomm, &rank);
  const TestTypes types;
  for (Op op : all_ops) {
    ExchangeCase exchange(op, Variant::plain, types, grid, offsets, rank);
    exchange.prepare(static_cast<int>(op));
    ASSERT_EQ(exchange.call(Form::blocking, cartcomm, MPI_INFO_NULL, nullptr), MPI_SUCCESS) << exchange.describe();
    EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
  }
}

}  // namespace support
