// SPDX-License-Identifier: BSD-3-Clause
#include "graph_calls.hpp"

#include <algorithm>
#include <string>

#include "runtime/exec/block_lists.hpp"
#include "core/unified/graph_collectives.hpp"
#include "core/planning/plan.hpp"
#include "runtime/selection/policy.hpp"

namespace cartcoll::detail {

namespace {

using namespace unified;

constexpr int unrooted = -1;
constexpr long long any_size = -1;  // block sizes that may differ between processes (v and w forms)

// The values *_init agrees on: the root, and the bytes of a block that every process must pass
// alike, split into two ints.
std::vector<int> must_match(int root, long long bytes) {
  return {root, static_cast<int>(bytes >> 31), static_cast<int>(bytes & 0x7FFFFFFF)};
}

void require_root(int root, const GraphView& view) {
  if (root < 0 || root >= view.size)
    throw Error(Errc::root, "root " + std::to_string(root) + " is not a rank of the communicator");
}

void require_op(MPI_Op op) {
  if (op == MPI_OP_NULL) throw Error(Errc::op, "MPI_OP_NULL");
}

Degrees degrees_of(const GraphView& view) {
  return {static_cast<int>(view.sources.size()), static_cast<int>(view.destinations.size())};
}

long long block_bytes(int count, MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) throw Error(Errc::type, "MPI_DATATYPE_NULL");
  return bytes_of(BlockSpec{0, count, type});
}

GraphCall neighborhood_call(Layout layout) { return {std::move(layout), std::nullopt, must_match(unrooted, any_size)}; }

GraphCall planned_call(Schedule schedule, Layout layout, int root, long long bytes) {
  return {std::move(layout), std::move(schedule), must_match(root, bytes)};
}

Schedule trivial(const GraphView& view, Collective collective) {
  return plan(direct_exchange(), view, collective);
}

// MPI_IN_PLACE allgather: a process's own block is where it receives its own contribution, the
// receive block of its first self edge; the other self edges get copies of it. A process with
// destinations but no self edge has no such place.
GraphCall in_place_allgather(const GraphView& view, std::vector<BlockSpec> recv) {
  const auto self = std::find(view.sources.begin(), view.sources.end(), view.rank);
  const bool sends =
      std::any_of(view.destinations.begin(), view.destinations.end(), [](int to) { return to != no_process; });
  if (self == view.sources.end() && sends)
    throw Error(Errc::buffer, "MPI_IN_PLACE allgather on a process without a self edge, where its own block would be");
  const BlockSpec own = self == view.sources.end() ? BlockSpec{0, 0, MPI_BYTE}
                                                   : recv[static_cast<std::size_t>(self - view.sources.begin())];
  return planned_call(trivial(view, Collective::allgather),
                      Layout{.collective = Collective::allgather, .send = {own}, .recv = std::move(recv)}, unrooted,
                      any_size);
}

// MPI_IN_PLACE alltoall: send block j is receive block j before the call (stage_sends_in_temps).
GraphCall in_place_alltoall(const GraphView& view, std::vector<BlockSpec> recv) {
  return planned_call(stage_sends_in_temps(trivial(view, Collective::alltoall)),
                      Layout{.collective = Collective::alltoall, .send = {}, .recv = std::move(recv)}, unrooted,
                      any_size);
}

GraphCall on_graph(const GraphView& view, const Barrier&) {
  const BlockSpec nothing{0, 0, MPI_BYTE};
  return neighborhood_call(Layout{.collective = Collective::allgather,
                                  .send = {nothing},
                                  .recv = std::vector<BlockSpec>(view.sources.size(), nothing),
                                  .one_block_size = true});
}

GraphCall on_graph(const GraphView& view, const Bcast& c) {
  require_root(c.root, view);
  const std::vector<BlockSpec> buffer = regular_blocks(1, c.buffer, c.count, c.type, "buffer");
  return planned_call(plan_bcast(view, c.root),
                      Layout{.collective = Collective::allgather, .send = buffer, .recv = buffer}, c.root,
                      bytes_of(buffer));
}

// The root's receive blocks, one per source: `root_blocks(n)` builds them from the call's arguments.
// `root_bytes`: the bytes of one of them (any_size for gatherv, whose blocks may differ).
template <typename RootBlocks>
GraphCall gather_call(const GraphView& view, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int root,
                      RootBlocks&& root_blocks, long long root_bytes) {
  require_root(root, view);
  const bool at_root = view.rank == root;
  const Contribution own = at_root && sendbuf == MPI_IN_PLACE ? Contribution::in_place : Contribution::separate;
  Schedule schedule = plan_gather(view, root, own);
  Layout layout;
  layout.collective = Collective::allgather;
  if (schedule.send_blocks > 0) layout.send = regular_blocks(1, sendbuf, sendcount, sendtype, "send buffer");
  if (at_root) layout.recv = root_blocks(schedule.recv_blocks);
  const long long bytes = root_bytes == any_size ? any_size : at_root ? root_bytes : bytes_of(layout.send);
  return planned_call(std::move(schedule), std::move(layout), root, bytes);
}

GraphCall on_graph(const GraphView& view, const Gather& c) {
  const bool at_root = view.rank == c.root;
  return gather_call(
      view, c.sendbuf, c.sendcount, c.sendtype, c.root,
      [&](int n) { return regular_blocks(n, c.recvbuf, c.recvcount, c.recvtype, "receive blocks"); },
      at_root ? block_bytes(c.recvcount, c.recvtype) : 0);
}

GraphCall on_graph(const GraphView& view, const Gatherv& c) {
  return gather_call(
      view, c.sendbuf, c.sendcount, c.sendtype, c.root,
      [&](int n) { return irregular_blocks(n, c.recvbuf, c.recvcounts, c.displs, c.recvtype, "receive blocks"); },
      any_size);
}

// The root's send blocks, one per destination: `root_blocks(n)` builds them; `root_bytes` the bytes
// of one (any_size for scatterv).
template <typename RootBlocks>
GraphCall scatter_call(const GraphView& view, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                       RootBlocks&& root_blocks, long long root_bytes) {
  require_root(root, view);
  const bool at_root = view.rank == root;
  const Contribution own = at_root && recvbuf == MPI_IN_PLACE ? Contribution::in_place : Contribution::separate;
  Schedule schedule = plan_scatter(view, root, own);
  Layout layout;
  layout.collective = Collective::alltoall;
  if (at_root) layout.send = root_blocks(schedule.send_blocks);
  if (own == Contribution::separate)
    layout.recv = regular_blocks(schedule.recv_blocks, recvbuf, recvcount, recvtype, "receive blocks");
  const long long bytes = root_bytes == any_size ? any_size : at_root ? root_bytes : block_bytes(recvcount, recvtype);
  return planned_call(std::move(schedule), std::move(layout), root, bytes);
}

GraphCall on_graph(const GraphView& view, const Scatter& c) {
  const bool at_root = view.rank == c.root;
  return scatter_call(
      view, c.recvbuf, c.recvcount, c.recvtype, c.root,
      [&](int n) { return regular_blocks(n, c.sendbuf, c.sendcount, c.sendtype, "send blocks"); },
      at_root ? block_bytes(c.sendcount, c.sendtype) : 0);
}

GraphCall on_graph(const GraphView& view, const Scatterv& c) {
  return scatter_call(
      view, c.recvbuf, c.recvcount, c.recvtype, c.root,
      [&](int n) { return irregular_blocks(n, c.sendbuf, c.sendcounts, c.displs, c.sendtype, "send blocks"); },
      any_size);
}

GraphCall on_graph(const GraphView& view, const Allgather& c) {
  const int in = degrees_of(view).sources;
  if (c.sendbuf == MPI_IN_PLACE)
    return in_place_allgather(view, regular_blocks(in, c.recvbuf, c.recvcount, c.recvtype, "receive blocks"));
  return neighborhood_call(
      layout::allgather(degrees_of(view), c.sendbuf, c.sendcount, c.sendtype, c.recvbuf, c.recvcount, c.recvtype));
}

GraphCall on_graph(const GraphView& view, const Allgatherv& c) {
  const int in = degrees_of(view).sources;
  if (c.sendbuf == MPI_IN_PLACE)
    return in_place_allgather(view,
                              irregular_blocks(in, c.recvbuf, c.recvcounts, c.displs, c.recvtype, "receive blocks"));
  return neighborhood_call(layout::allgatherv(degrees_of(view), c.sendbuf, c.sendcount, c.sendtype, c.recvbuf,
                                              c.recvcounts, c.displs, c.recvtype));
}

GraphCall on_graph(const GraphView& view, const Allgatherw& c) {
  const int in = degrees_of(view).sources;
  if (c.sendbuf == MPI_IN_PLACE)
    return in_place_allgather(view,
                              general_blocks(in, c.recvbuf, c.recvcounts, c.displs, c.recvtypes, "receive blocks"));
  return neighborhood_call(layout::allgatherw(degrees_of(view), c.sendbuf, c.sendcount, c.sendtype, c.recvbuf,
                                              c.recvcounts, c.displs, c.recvtypes));
}

GraphCall on_graph(const GraphView& view, const Alltoall& c) {
  const int in = degrees_of(view).sources;
  if (c.sendbuf == MPI_IN_PLACE)
    return in_place_alltoall(view, regular_blocks(in, c.recvbuf, c.recvcount, c.recvtype, "receive blocks"));
  return neighborhood_call(
      layout::alltoall(degrees_of(view), c.sendbuf, c.sendcount, c.sendtype, c.recvbuf, c.recvcount, c.recvtype));
}

GraphCall on_graph(const GraphView& view, const Alltoallv& c) {
  const int in = degrees_of(view).sources;
  if (c.sendbuf == MPI_IN_PLACE)
    return in_place_alltoall(view,
                             irregular_blocks(in, c.recvbuf, c.recvcounts, c.rdispls, c.recvtype, "receive blocks"));
  return neighborhood_call(layout::alltoallv(degrees_of(view), c.sendbuf, c.sendcounts, c.sdispls, c.sendtype,
                                             c.recvbuf, c.recvcounts, c.rdispls, c.recvtype));
}

GraphCall on_graph(const GraphView& view, const Alltoallw& c) {
  const int in = degrees_of(view).sources;
  if (c.sendbuf == MPI_IN_PLACE)
    return in_place_alltoall(view,
                             general_blocks(in, c.recvbuf, c.recvcounts, c.rdispls, c.recvtypes, "receive blocks"));
  return neighborhood_call(layout::alltoallw(degrees_of(view), c.sendbuf, c.sendcounts, c.sdispls, c.sendtypes,
                                             c.recvbuf, c.recvcounts, c.rdispls, c.recvtypes));
}

// One block of `count` elements each way; with MPI_IN_PLACE the send block is the receive block.
Layout reduction_layout(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, bool receives) {
  require_op(op);
  Layout layout;
  layout.collective = Collective::allgather;
  layout.op = op;
  if (receives) layout.recv = regular_blocks(1, recvbuf, count, type, "receive buffer");
  layout.send =
      sendbuf == MPI_IN_PLACE && receives ? layout.recv : regular_blocks(1, sendbuf, count, type, "send buffer");
  return layout;
}

GraphCall on_graph(const GraphView& view, const Reduce& c) {
  require_root(c.root, view);
  const bool at_root = view.rank == c.root;
  const Contribution own = at_root && c.sendbuf == MPI_IN_PLACE ? Contribution::in_place : Contribution::separate;
  Layout layout = reduction_layout(c.sendbuf, c.recvbuf, c.count, c.type, c.op, at_root);
  const long long bytes = bytes_of(layout.send);
  return planned_call(plan_reduce(view, c.root, own), std::move(layout), c.root, bytes);
}

GraphCall on_graph(const GraphView& view, const Allreduce& c) {
  const Contribution own = c.sendbuf == MPI_IN_PLACE ? Contribution::in_place : Contribution::separate;
  Layout layout = reduction_layout(c.sendbuf, c.recvbuf, c.count, c.type, c.op, true);
  const long long bytes = bytes_of(layout.send);
  return planned_call(plan_allreduce(view, own), std::move(layout), unrooted, bytes);
}

[[noreturn]] void undefined_on_graphs(const char* name) {
  throw Error(Errc::topology, std::string(name) +
                                  " has no meaning on a graph topology (Träff, Hunold, Mercier and Holmes, MPI "
                                  "collective communication through a single set of interfaces, section 2)");
}

GraphCall on_graph(const GraphView&, const ReduceScatter&) { undefined_on_graphs("MPI_Reduce_scatter"); }
GraphCall on_graph(const GraphView&, const ReduceScatterBlock&) { undefined_on_graphs("MPI_Reduce_scatter_block"); }
GraphCall on_graph(const GraphView&, const Scan&) { undefined_on_graphs("MPI_Scan"); }
GraphCall on_graph(const GraphView&, const Exscan&) { undefined_on_graphs("MPI_Exscan"); }

}  // namespace

GraphCall graph_call(const GraphView& view, const unified::Call& call) {
  return std::visit([&view](const auto& c) { return on_graph(view, c); }, call);
}

std::span<const Error> must_match_errors() {
  static const Error errors[] = {Error(Errc::root, "processes passed different roots"),
                                 Error(Errc::count, "processes passed blocks of different sizes"),
                                 Error(Errc::count, "processes passed blocks of different sizes")};
  return errors;
}

}  // namespace cartcoll::detail
