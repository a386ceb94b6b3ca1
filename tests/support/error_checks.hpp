// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Checking error returns in the MPI tests: the class of a code, and that every process saw the same.
#include <gtest/gtest.h>
#include <mpi.h>

namespace support {

inline int error_class(int code) {
  int cls = MPI_SUCCESS;
  MPI_Error_class(code, &cls);
  return cls;
}

// The expected class, and the same on every process (collective over MPI_COMM_WORLD).
inline void expect_class_everywhere(int code, int expected_class) {
  EXPECT_EQ(error_class(code), expected_class);
  int classes[2] = {error_class(code), -error_class(code)};
  MPI_Allreduce(MPI_IN_PLACE, classes, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(classes[0], -classes[1]) << "processes saw different error classes";
}

// Every process must see the same class; a create failure leaves MPI_COMM_NULL everywhere. `result`
// is set to MPI_COMM_WORLD again afterwards, so that the next call has to overwrite it too.
inline void expect_everywhere(int code, int expected_class, MPI_Comm* result) {
  EXPECT_EQ(*result, MPI_COMM_NULL);
  expect_class_everywhere(code, expected_class);
  *result = MPI_COMM_WORLD;
}

}  // namespace support
