// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// One collective call on a Cartesian neighborhood as a test case: buffers whose contents depend on
// the sending rank, the block and the element; the expected receive buffer computed by the MPI-free
// reference model; and the call itself through the Cart_ C API in any of the three forms, or through
// the Iso_ C API.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../describe.hpp"
#include "block_buffers.hpp"
#include "cartcoll/cartcoll.h"
#include "cartcoll/topology.hpp"

namespace support {

class ExchangeCase : public CaseBuffers {
 public:
  ExchangeCase(Op op, Variant variant, const TestTypes& types, const cartcoll::Grid& grid,
               const cartcoll::Offsets& offsets, int rank);

  // Fills the send buffer for `generation` and resets the receive buffer to its sentinel pattern.
  void prepare(int generation);
  // Calls the collective; for Form::persistent this is the init call (start with Cart_start).
  int call(Form form, MPI_Comm cartcomm, MPI_Info info, Cart_request* request);
  // The same collective's init call of the isomorphic-collectives paper by Träff, Carpen-Amarie,
  // Hunold and Rougier (<cartcoll/iso.h>) on an isocomm; start with Iso_start.
  int init_iso(MPI_Comm isocomm, Iso_request* request);
  std::string describe() const;

 private:
  std::vector<std::byte> expected_receive() const;

  Variant variant_;
  const cartcoll::Grid& grid_;
  const cartcoll::Offsets& offsets_;
};

// Every operation (all_ops) once, blocking, on `cartcomm` (made by Cart_neighborhood_create for grid
// and offsets), with contents that depend on sender, block and element, checked against the
// reference model: how the error tests show that a communicator still delivers after errors.
void expect_every_op_exact(MPI_Comm cartcomm, const cartcoll::Grid& grid, const cartcoll::Offsets& offsets);

using cartcoll::test::describe;

}  // namespace support
