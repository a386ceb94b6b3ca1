// SPDX-License-Identifier: BSD-3-Clause
#include "halo_case.hpp"

namespace support {

OwnedType::OwnedType(MPI_Datatype made) : handle_(made) { MPI_Type_commit(&handle_); }

OwnedType::OwnedType(OwnedType&& other) noexcept : handle_(other.handle_) { other.handle_ = MPI_DATATYPE_NULL; }

OwnedType::~OwnedType() {
  if (handle_ != MPI_DATATYPE_NULL) MPI_Type_free(&handle_);
}

void HaloCase::add(MPI_Datatype send, int sendcount, MPI_Aint sdispl, MPI_Datatype recv, int recvcount,
                   MPI_Aint rdispl) {
  send_types.emplace_back(send);
  recv_types.emplace_back(recv);
  sendcounts.push_back(sendcount);
  recvcounts.push_back(recvcount);
  sdispls.push_back(sdispl);
  rdispls.push_back(rdispl);
}

namespace {

std::vector<MPI_Datatype> handles_of(const std::vector<OwnedType>& types) {
  std::vector<MPI_Datatype> handles;
  for (const OwnedType& type : types) handles.push_back(type.get());
  return handles;
}

}  // namespace

std::vector<MPI_Datatype> HaloCase::send_handles() const { return handles_of(send_types); }

std::vector<MPI_Datatype> HaloCase::recv_handles() const { return handles_of(recv_types); }

std::vector<std::uint8_t> HaloCase::send_array(int rank, int start) const {
  std::vector<std::uint8_t> array(send_bytes);
  for (std::size_t at = 0; at < array.size(); ++at)
    array[at] = static_cast<std::uint8_t>((rank * 151 + static_cast<int>(at) * 7 + start * 29 + 3) & 0xff);
  return array;
}

void HaloCase::expect_plain_result(std::span<const int> sources, int start, std::vector<std::uint8_t>& recv,
                                   const std::function<const HaloCase&(int)>& sender_case,
                                   std::span<const int> sender_blocks) const {
  for (std::size_t j = 0; j < sources.size(); ++j) {
    if (sources[j] == MPI_PROC_NULL) continue;
    const HaloCase& sender = sender_case ? sender_case(sources[j]) : *this;
    const std::size_t b = sender_blocks.empty() ? j : static_cast<std::size_t>(sender_blocks[j]);
    const std::vector<std::uint8_t> theirs = sender.send_array(sources[j], start);
    int size = 0;
    MPI_Pack_size(sender.sendcounts[b], sender.send_types[b].get(), MPI_COMM_SELF, &size);
    std::vector<std::uint8_t> packed(static_cast<std::size_t>(size));
    int position = 0, unpacked = 0;
    MPI_Pack(theirs.data() + sender.sdispls[b], sender.sendcounts[b], sender.send_types[b].get(), packed.data(), size,
             &position, MPI_COMM_SELF);
    MPI_Unpack(packed.data(), position, &unpacked, recv.data() + rdispls[j], recvcounts[j], recv_types[j].get(),
               MPI_COMM_SELF);
  }
}

HaloCase stencil_halo(int d, int n, int w) {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const auto dims = static_cast<std::size_t>(d);
  HaloCase halo{std::vector<int>(dims, 0), std::vector<int>(dims, 1)};
  MPI_Dims_create(p, d, halo.dims.data());
  const std::vector<int> sizes(dims, n + 2 * w);
  std::size_t elements = 1, total = 1;
  for (std::size_t k = 0; k < dims; ++k) {
    elements *= static_cast<std::size_t>(n + 2 * w);
    total *= 3;
  }
  halo.send_bytes = halo.recv_bytes = elements * sizeof(double);
  for (std::size_t code = 0; code < total; ++code) {
    std::vector<int> offset(dims), sub(dims), send_start(dims), recv_start(dims);
    std::size_t rest = code;
    for (std::size_t k = dims; k-- > 0; rest /= 3) offset[k] = static_cast<int>(rest % 3) - 1;
    if (code == total / 2) continue;  // the zero offset
    for (std::size_t k = 0; k < dims; ++k) {
      sub[k] = offset[k] == 0 ? n : w;
      send_start[k] = offset[k] > 0 ? n : w;                          // the interior slab facing R + offset
      recv_start[k] = offset[k] < 0 ? n + w : offset[k] > 0 ? 0 : w;  // the halo facing R - offset
    }
    halo.offsets.insert(halo.offsets.end(), offset.begin(), offset.end());
    MPI_Datatype send = MPI_DATATYPE_NULL, recv = MPI_DATATYPE_NULL;
    MPI_Type_create_subarray(d, sizes.data(), sub.data(), send_start.data(), MPI_ORDER_C, MPI_DOUBLE, &send);
    MPI_Type_create_subarray(d, sizes.data(), sub.data(), recv_start.data(), MPI_ORDER_C, MPI_DOUBLE, &recv);
    halo.add(send, 1, 0, recv, 1, 0);
  }
  return halo;
}

}  // namespace support
