// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Algorithm: the choice of a registered planner, or `auto` (no MPI). The registry itself and the
// planners are the library's own.
#include <optional>
#include <string_view>

#include "cartcoll/export.h"

namespace cartcoll {

struct PlannerEntry;  // a registered planner: the library's own

// A choice of algorithm: one registered planner, or `auto` (resolved per call by the MPI layer).
class CARTCOLL_API Algorithm {
 public:
  static Algorithm automatic() noexcept { return Algorithm(-1); }
  // "auto" or a registered planner's name.
  static std::optional<Algorithm> parse(std::string_view name);
  // The registered planner called `name`; Error(Errc::info_value) if there is none.
  static Algorithm named(std::string_view name);

  bool is_automatic() const noexcept { return id_ < 0; }
  // The planner; Error(Errc::arg) for `auto`, which names none.
  const PlannerEntry& planner() const;
  std::string_view name() const;
  // -1 for `auto`, else the registry index: the same in every process, so it can be agreed on.
  int id() const noexcept { return id_; }
  static Algorithm from_id(int id);  // Error(Errc::arg) outside -1 .. planners().size() - 1

  friend bool operator==(Algorithm, Algorithm) = default;

 private:
  explicit Algorithm(int id) noexcept : id_(id) {}
  int id_;
};

}  // namespace cartcoll
