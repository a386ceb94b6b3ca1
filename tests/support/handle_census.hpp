#pragma once
// Counts the MPI handles cartcoll creates (struct datatypes, persistent requests, communicators)
// through the PMPI profiling interface, so tests can prove that every one of them is freed.
// handle_census.cpp owns the wrappers of the calls that make and free handles; the persistent-send
// wrappers also tell traffic_census.hpp how many bytes each persistent send request carries.
#include <cstddef>

namespace census {

struct Live {
  std::size_t datatypes;
  std::size_t requests;
  std::size_t communicators;
};

Live live();

}  // namespace census
