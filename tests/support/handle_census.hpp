// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Counts the MPI handles cartcoll creates (struct datatypes, persistent requests, communicators)
// through the PMPI profiling interface, so tests can prove that every one of them is freed.
// handle_census.cpp wraps the calls that make and free datatypes and communicators; persistent
// requests are counted by the traffic census (tools/census), which wraps their calls.
#include <cstddef>
#include <string>

namespace census {

struct Live {
  std::size_t datatypes;
  std::size_t requests;
  std::size_t communicators;
};

Live live();
// Empty if no handle is live, else what is ("2 struct datatypes, 1 communicator leaked").
std::string leaks();

}  // namespace census
