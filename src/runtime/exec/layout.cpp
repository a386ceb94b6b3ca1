// SPDX-License-Identifier: BSD-3-Clause
#include "cartcoll/layout.hpp"

#include <string>

#include "cartcoll/error.hpp"
#include "block_lists.hpp"
#include "mpi_check.hpp"

namespace cartcoll::detail {

namespace {

MPI_Aint base_address(const void* buffer) {
  MPI_Aint address = 0;
  check(MPI_Get_address(buffer, &address), "MPI_Get_address");
  return address;
}

MPI_Aint extent_of(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  check(MPI_Type_get_extent(type, &lb, &extent), "MPI_Type_get_extent");
  return extent;
}

void require_type(MPI_Datatype type, const char* what) {
  if (type == MPI_DATATYPE_NULL) throw Error(Errc::type, std::string(what) + " is MPI_DATATYPE_NULL");
}

void require_count(int count, const char* what) {
  if (count < 0) throw Error(Errc::count, std::string(what) + " is negative");
}

template <typename T>
void require_size(std::span<const T> values, int t, const char* what) {
  if (t > 0 && (values.data() == nullptr || values.size() < static_cast<std::size_t>(t)))
    throw Error(Errc::arg, std::string(what) + " has fewer than t entries");
}

// Where a block's data begins relative to its address: the datatype's true lower bound.
MPI_Aint first_byte_of(MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0;
  check(MPI_Type_get_true_extent(type, &lb, &extent), "MPI_Type_get_true_extent");
  return lb;
}

// MPI_BOTTOM and NULL are the same pointer, so a NULL buffer is legal where the datatype or the
// displacement makes the data's addresses absolute; a block whose data would begin at address 0 is
// a NULL buffer with a non-zero count (as MPICH checks its own calls).
BlockSpec block_at(MPI_Aint base, MPI_Aint displacement, int count, MPI_Datatype type, MPI_Aint first_byte,
                   const char* what) {
  const BlockSpec block{MPI_Aint_add(base, displacement), count, type};
  if (block.count > 0 && MPI_Aint_add(block.address, first_byte) == 0 && bytes_of(block) > 0)
    throw Error(Errc::buffer, std::string(what) + ": a NULL buffer with a non-zero count");
  return block;
}

void require_buffer(const void* buffer, const char* what) {
  if (buffer == MPI_IN_PLACE)
    throw Error(Errc::buffer, std::string(what) + ": MPI_IN_PLACE is not allowed here");
}

}  // namespace

std::vector<BlockSpec> regular_blocks(int t, const void* buffer, int count, MPI_Datatype type, const char* what) {
  require_buffer(buffer, what);
  require_type(type, what);
  require_count(count, what);
  const MPI_Aint base = base_address(buffer), stride = extent_of(type) * count;
  const MPI_Aint first_byte = t > 0 && count > 0 ? first_byte_of(type) : 0;
  std::vector<BlockSpec> blocks;
  blocks.reserve(static_cast<std::size_t>(t));
  for (int i = 0; i < t; ++i) blocks.push_back(block_at(base, stride * i, count, type, first_byte, what));
  return blocks;
}

namespace {

// Displacement: int (MPI's v forms) or MPI_Aint (the isomorphic-collectives paper's (Träff,
// Carpen-Amarie, Hunold and Rougier), MPI-4's large-count ones), in extents of `type`.
template <typename Displacement>
std::vector<BlockSpec> irregular_of(int t, const void* buffer, std::span<const int> counts,
                                    std::span<const Displacement> displs, MPI_Datatype type, const char* what) {
  require_buffer(buffer, what);
  require_type(type, what);
  require_size(counts, t, what);
  require_size(displs, t, what);
  const MPI_Aint base = base_address(buffer), extent = extent_of(type);
  const MPI_Aint first_byte = t > 0 ? first_byte_of(type) : 0;
  std::vector<BlockSpec> blocks;
  blocks.reserve(static_cast<std::size_t>(t));
  for (std::size_t i = 0; i < static_cast<std::size_t>(t); ++i) {
    require_count(counts[i], what);
    blocks.push_back(block_at(base, extent * displs[i], counts[i], type, first_byte, what));
  }
  return blocks;
}

}  // namespace

std::vector<BlockSpec> irregular_blocks(int t, const void* buffer, std::span<const int> counts,
                                        std::span<const int> displs, MPI_Datatype type, const char* what) {
  return irregular_of(t, buffer, counts, displs, type, what);
}

std::vector<BlockSpec> general_blocks(int t, const void* buffer, std::span<const int> counts,
                               std::span<const MPI_Aint> displs, std::span<const MPI_Datatype> types,
                               const char* what) {
  require_buffer(buffer, what);
  require_size(counts, t, what);
  require_size(displs, t, what);
  require_size(types, t, what);
  const MPI_Aint base = base_address(buffer);
  std::vector<BlockSpec> blocks;
  blocks.reserve(static_cast<std::size_t>(t));
  for (std::size_t i = 0; i < static_cast<std::size_t>(t); ++i) {
    require_type(types[i], what);
    require_count(counts[i], what);
    blocks.push_back(block_at(base, displs[i], counts[i], types[i], counts[i] > 0 ? first_byte_of(types[i]) : 0, what));
  }
  return blocks;
}

}  // namespace cartcoll::detail

namespace cartcoll::layout {

namespace {

std::vector<BlockSpec> single(const void* buffer, int count, MPI_Datatype type) {
  return detail::regular_blocks(1, buffer, count, type, "send block");
}

}  // namespace

Layout alltoall(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype) {
  return {Collective::alltoall, detail::regular_blocks(degrees.destinations, sendbuf, sendcount, sendtype, "send blocks"),
          detail::regular_blocks(degrees.sources, recvbuf, recvcount, recvtype, "receive blocks"), true};
}

Layout alltoallv(Degrees degrees, const void* sendbuf, std::span<const int> sendcounts, std::span<const int> sdispls,
                 MPI_Datatype sendtype, void* recvbuf, std::span<const int> recvcounts,
                 std::span<const int> rdispls, MPI_Datatype recvtype) {
  return {Collective::alltoall, detail::irregular_blocks(degrees.destinations, sendbuf, sendcounts, sdispls, sendtype, "send blocks"),
          detail::irregular_blocks(degrees.sources, recvbuf, recvcounts, rdispls, recvtype, "receive blocks")};
}

Layout alltoallv(Degrees degrees, const void* sendbuf, std::span<const int> sendcounts,
                 std::span<const MPI_Aint> sdispls, MPI_Datatype sendtype, void* recvbuf,
                 std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls, MPI_Datatype recvtype) {
  return {Collective::alltoall, detail::irregular_of(degrees.destinations, sendbuf, sendcounts, sdispls, sendtype, "send blocks"),
          detail::irregular_of(degrees.sources, recvbuf, recvcounts, rdispls, recvtype, "receive blocks")};
}

Layout alltoallw(Degrees degrees, const void* sendbuf, std::span<const int> sendcounts,
                 std::span<const MPI_Aint> sdispls, std::span<const MPI_Datatype> sendtypes, void* recvbuf,
                 std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
                 std::span<const MPI_Datatype> recvtypes) {
  return {Collective::alltoall,
          detail::general_blocks(degrees.destinations, sendbuf, sendcounts, sdispls, sendtypes, "send blocks"),
          detail::general_blocks(degrees.sources, recvbuf, recvcounts, rdispls, recvtypes, "receive blocks")};
}

Layout allgather(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype) {
  return {Collective::allgather, single(sendbuf, sendcount, sendtype),
          detail::regular_blocks(degrees.sources, recvbuf, recvcount, recvtype, "receive blocks"), true};
}

Layout allgatherv(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::span<const int> recvcounts, std::span<const int> displs, MPI_Datatype recvtype) {
  return {Collective::allgather, single(sendbuf, sendcount, sendtype),
          detail::irregular_blocks(degrees.sources, recvbuf, recvcounts, displs, recvtype, "receive blocks")};
}

Layout allgatherv(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::span<const int> recvcounts, std::span<const MPI_Aint> displs, MPI_Datatype recvtype) {
  return {Collective::allgather, single(sendbuf, sendcount, sendtype),
          detail::irregular_of(degrees.sources, recvbuf, recvcounts, displs, recvtype, "receive blocks")};
}

Layout allgatherw(Degrees degrees, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  std::span<const int> recvcounts, std::span<const MPI_Aint> displs,
                  std::span<const MPI_Datatype> recvtypes) {
  return {Collective::allgather, single(sendbuf, sendcount, sendtype),
          detail::general_blocks(degrees.sources, recvbuf, recvcounts, displs, recvtypes, "receive blocks")};
}

}  // namespace cartcoll::layout

namespace cartcoll {

Layout RegularArguments::layout(Degrees degrees) const {
  return collective == Collective::allgather
             ? layout::allgather(degrees, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype)
             : layout::alltoall(degrees, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

long long bytes_of(const BlockSpec& block) {
  int size = 0;
  detail::check(MPI_Type_size(block.type, &size), "MPI_Type_size");
  return static_cast<long long>(size) * block.count;
}

long long bytes_of(std::span<const BlockSpec> blocks) {
  long long total = 0;
  for (const BlockSpec& block : blocks) total += bytes_of(block);
  return total;
}

}  // namespace cartcoll
