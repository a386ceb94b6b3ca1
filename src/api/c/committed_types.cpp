// SPDX-License-Identifier: BSD-3-Clause
#include "committed_types.hpp"

#include <algorithm>
#include <span>
#include <vector>

namespace cartcoll::capi {

namespace {

bool predefined(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = MPI_COMBINER_NAMED;
  MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

class Checked {
 public:
  explicit Checked(MPI_Comm comm) : comm_(comm) {}
  // Every call passes here, most with one predefined type for all blocks: the type just checked is
  // passed over, and only derived types are remembered, so such a call allocates nothing.
  int check(MPI_Datatype type) {
    if (type == MPI_DATATYPE_NULL || type == last_) return MPI_SUCCESS;
    last_ = type;
    if (predefined(type) || std::find(derived_.begin(), derived_.end(), type) != derived_.end()) return MPI_SUCCESS;
    derived_.push_back(type);
    // One element (MPICH 4.0.2 checks the datatype only with a non-zero count) at an address that
    // is never read: a send to MPI_PROC_NULL sends nothing.
    const int never_read = 0;
    MPI_Request request = MPI_REQUEST_NULL;
    const int code = MPI_Send_init(&never_read, 1, type, MPI_PROC_NULL, 0, comm_, &request);
    if (request != MPI_REQUEST_NULL) MPI_Request_free(&request);
    return code;
  }
  int check(std::span<const BlockSpec> blocks) {
    for (const BlockSpec& block : blocks)
      if (const int code = check(block.type); code != MPI_SUCCESS) return code;
    return MPI_SUCCESS;
  }

 private:
  MPI_Comm comm_;
  MPI_Datatype last_ = MPI_DATATYPE_NULL;
  std::vector<MPI_Datatype> derived_;  // checked already
};

}  // namespace

int check_committed(std::initializer_list<MPI_Datatype> arguments, const Layout& layout, MPI_Comm comm) {
  Checked checked(comm);
  for (const MPI_Datatype type : arguments)
    if (const int code = checked.check(type); code != MPI_SUCCESS) return code;
  if (const int code = checked.check(layout.send); code != MPI_SUCCESS) return code;
  return checked.check(layout.recv);
}

}  // namespace cartcoll::capi
