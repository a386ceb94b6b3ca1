// SPDX-License-Identifier: BSD-3-Clause
#include "sized_messages.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "cartcoll/error.hpp"
#include "address.hpp"
#include "mpi_check.hpp"

namespace cartcoll::detail {

namespace {

// The bytes the sizes of `blocks` blocks take at the head of a message that carries them.
int header_bytes(std::size_t blocks, MPI_Comm comm) {
  int bytes = 0;
  check(MPI_Pack_size(static_cast<int>(blocks), MPI_INT64_T, comm, &bytes), "MPI_Pack_size");
  return bytes;
}

}  // namespace

PackedSend::PackedSend(int peer, bool carries_sizes, std::vector<PackedPart> parts, MPI_Comm comm)
    : peer_(peer), comm_(comm), parts_(std::move(parts)), sizes_(parts_.size()) {
  if (carries_sizes) header_ = header_bytes(parts_.size(), comm);
  for (const PackedPart& part : parts_) {
    int bound = 0;
    if (part.learned < 0) check(MPI_Pack_size(part.block.count, part.block.type, comm, &bound), "MPI_Pack_size");
    bounds_.push_back(bound);
  }
}

std::array<MPI_Request, 2> PackedSend::post(const LearnedBlocks& learned, int tag) {
  std::size_t capacity = static_cast<std::size_t>(header_);
  for (std::size_t k = 0; k < parts_.size(); ++k)
    capacity += parts_[k].learned >= 0 ? learned.at(static_cast<std::size_t>(parts_[k].learned)).bytes.size()
                                       : static_cast<std::size_t>(bounds_[k]);
  if (capacity > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw Error(Errc::count, "a forwarded message of more than 2^31 bytes");
  buffer_.resize(std::max<std::size_t>(capacity, 1));
  const int size = static_cast<int>(capacity);
  int position = header_;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const int start = position;
    const Learned* forwarded = parts_[k].learned >= 0 ? &learned[static_cast<std::size_t>(parts_[k].learned)] : nullptr;
    if (parts_[k].absent || (forwarded != nullptr && forwarded->absent)) {
      sizes_[k] = -1;
      continue;
    }
    if (forwarded != nullptr) {
      if (!forwarded->bytes.empty()) std::memcpy(buffer_.data() + position, forwarded->bytes.data(), forwarded->bytes.size());
      position += static_cast<int>(forwarded->bytes.size());
    } else if (bounds_[k] > 0) {
      const BlockSpec& block = parts_[k].block;
      check(MPI_Pack(pointer_of(block.address), block.count, block.type, buffer_.data(), size, &position, comm_), "MPI_Pack");
    }
    sizes_[k] = position - start;
  }
  if (header_ > 0) {
    int at = 0;
    check(MPI_Pack(sizes_.data(), static_cast<int>(sizes_.size()), MPI_INT64_T, buffer_.data(), header_, &at, comm_),
          "MPI_Pack");
  }
  std::array<MPI_Request, 2> requests{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  const int head = header_ > 0 ? std::min(position, header_ + slot_payload_bytes) : position;
  check(MPI_Isend(buffer_.data(), head, MPI_PACKED, peer_, tag, comm_, &requests[0]), "MPI_Isend");
  if (head < position)
    check(MPI_Isend(buffer_.data() + head, position - head, MPI_PACKED, peer_, tag, comm_, &requests[1]), "MPI_Isend");
  return requests;
}

SizedReceive::SizedReceive(int peer, std::vector<PackedPart> parts, MPI_Comm comm)
    : peer_(peer),
      comm_(comm),
      parts_(std::move(parts)),
      header_(header_bytes(parts_.size(), comm)),
      sizes_(parts_.size()),
      slot_(header_ + slot_payload_bytes) {
  for (const PackedPart& part : parts_) {
    int element = 0;
    if (part.learned < 0) check(MPI_Type_size(part.block.type, &element), "MPI_Type_size");
    element_bytes_.push_back(element);
  }
}

MPI_Request SizedReceive::post_slot(int tag) {
  buffer_.resize(std::max(buffer_.size(), static_cast<std::size_t>(slot_)));
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Irecv(buffer_.data(), slot_, MPI_PACKED, peer_, tag, comm_, &request), "MPI_Irecv");
  return request;
}

MPI_Request SizedReceive::post_tail(int tag) {
  int at = 0;
  check(MPI_Unpack(buffer_.data(), header_, &at, sizes_.data(), static_cast<int>(sizes_.size()), MPI_INT64_T, comm_),
        "MPI_Unpack");
  long long total = header_;
  bool sane = true;  // -1 announces a block absent; a size below it makes no sense
  for (const std::int64_t size : sizes_) {
    sane = sane && size >= -1;
    if (size > 0) total += size;
  }
  received_ = sane && total <= std::numeric_limits<int>::max() ? static_cast<int>(total) : -1;
  if (received_ <= slot_) return MPI_REQUEST_NULL;
  buffer_.resize(static_cast<std::size_t>(received_));
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Irecv(buffer_.data() + slot_, received_ - slot_, MPI_PACKED, peer_, tag, comm_, &request), "MPI_Irecv");
  return request;
}

int SizedReceive::unpack(LearnedBlocks& learned, StraightBlocks& straight) {
  if (received_ < header_) return MPI_ERR_INTERN;
  int code = MPI_SUCCESS;
  std::size_t offset = static_cast<std::size_t>(header_);
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const std::int64_t size = sizes_[k];
    if (parts_[k].straight >= 0) straight.learned(parts_[k].straight, size == -1);
    if (size == -1) {  // the size gate sends it straight to its receiver
      if (parts_[k].learned >= 0) learned.at(static_cast<std::size_t>(parts_[k].learned)) = {{}, true};
      else if (parts_[k].straight < 0) return MPI_ERR_INTERN;
      continue;
    }
    if (size < 0 || offset + static_cast<std::size_t>(size) > static_cast<std::size_t>(received_)) return MPI_ERR_INTERN;
    const std::span<const std::byte> bytes(buffer_.data() + offset, static_cast<std::size_t>(size));
    if (parts_[k].learned >= 0) learned.at(static_cast<std::size_t>(parts_[k].learned)) = {bytes, false};
    else if (const int failed = unpack_block(k, bytes); code == MPI_SUCCESS) code = failed;
    offset += bytes.size();
  }
  return code;
}

// As a receive would: a block shorter than the receive block fills its first whole elements (the
// rest of a last, partial element is not written), a longer one is MPI_ERR_TRUNCATE.
int SizedReceive::unpack_block(std::size_t k, std::span<const std::byte> bytes) {
  if (bytes.empty()) return MPI_SUCCESS;
  const PackedPart& part = parts_[k];
  const int element = element_bytes_[k];
  if (element == 0 || static_cast<long long>(bytes.size()) > static_cast<long long>(element) * part.block.count)
    return MPI_ERR_TRUNCATE;
  const int whole = static_cast<int>(bytes.size() / static_cast<std::size_t>(element));
  int position = 0;
  check(MPI_Unpack(bytes.data(), static_cast<int>(bytes.size()), &position, pointer_of(part.block.address), whole,
                   part.block.type, comm_),
        "MPI_Unpack");
  return MPI_SUCCESS;
}

}  // namespace cartcoll::detail
