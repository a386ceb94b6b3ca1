#pragma once
// Counts the MPI handles cartcoll creates (struct datatypes, persistent requests, communicators)
// through the PMPI profiling interface, so tests can prove that every one of them is freed.
#include <cstddef>

namespace census {

struct Live {
  std::size_t datatypes;
  std::size_t requests;
  std::size_t communicators;
};

Live live();

}  // namespace census
