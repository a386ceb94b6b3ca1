// SPDX-License-Identifier: BSD-3-Clause
#include "control.hpp"

#include <cstdlib>
#include <cstring>

#include "api/c/request_table.hpp"
#include "api/introspection.hpp"

namespace cartcoll::interpose {

namespace {

bool set(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

}  // namespace

bool disabled() {
  static const bool off = set("CARTCOLL_DISABLE");
  return off;
}

bool reporting() {
  static const bool on = set("CARTCOLL_REPORT");
  return on;
}

bool none_of_library(const MPI_Request* requests, int count) {
  if (disabled() || requests == nullptr || count <= 0) return true;
  return !capi::any_library_request(std::span(requests, static_cast<std::size_t>(count)));
}

bool native_requests(const MPI_Request* requests, int count) {
  if (disabled() || requests == nullptr || count < 0) return true;
  if (introspection::requests_in_flight() > 0) return false;
  return none_of_library(requests, count);
}

}  // namespace cartcoll::interpose
