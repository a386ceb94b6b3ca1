// SPDX-License-Identifier: BSD-3-Clause
// Which algorithm the user asked for, and the direct exchange: the policy's own names for planners.
#include <cstdlib>
#include <string>

#include "cartcoll/error.hpp"
#include "policy.hpp"

namespace cartcoll::detail {

namespace {

Algorithm parse_or_throw(const std::string& name, const char* source) {
  auto algorithm = Algorithm::parse(name);
  if (!algorithm) throw Error(Errc::info_value, std::string(source) + ": unknown algorithm '" + name + "'");
  return *algorithm;
}

}  // namespace

std::optional<Algorithm> algorithm_from_environment() {
  const char* name = std::getenv("CARTCOLL_ALGORITHM");
  if (name == nullptr || *name == '\0') return std::nullopt;
  return parse_or_throw(name, "CARTCOLL_ALGORITHM");
}

std::optional<Algorithm> algorithm_from_info(MPI_Info info) {
  const auto value = info_value(info, "cartcoll_algorithm");
  if (!value) return std::nullopt;
  return parse_or_throw(*value, "info key cartcoll_algorithm");
}

Algorithm effective_algorithm(MPI_Info info, Algorithm fallback) {
  if (auto chosen = algorithm_from_environment()) return *chosen;
  if (auto chosen = algorithm_from_info(info)) return *chosen;
  return fallback;
}

Algorithm direct_exchange() {
  static const Algorithm direct = Algorithm::named("trivial");
  return direct;
}

}  // namespace cartcoll::detail
