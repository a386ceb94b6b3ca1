// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A grid and neighborhood in one line, for failure messages; shared by the MPI-free unit tests and
// the MPI tests' support library.
#include <cstddef>
#include <sstream>
#include <string>

#include "cartcoll/topology.hpp"

namespace cartcoll::test {

inline std::string describe(const Grid& grid, const Offsets& offsets) {
  std::ostringstream out;
  out << "grid";
  for (int k = 0; k < grid.ndims(); ++k)
    out << (k ? "x" : " ") << grid.dims()[static_cast<std::size_t>(k)] << (grid.periodic(k) ? "p" : "n");
  out << ", offsets {";
  for (int i = 0; i < offsets.count(); ++i) {
    out << (i ? " (" : "(");
    for (int k = 0; k < offsets.ndims(); ++k) out << (k ? "," : "") << offsets[i][static_cast<std::size_t>(k)];
    out << ")";
  }
  out << "}";
  return out.str();
}

}  // namespace cartcoll::test
