// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The planner fuzzer's two kinds of case; each decodes its part of the input (fuzz_planner.cpp
// gives the format), runs every planner of its kind in the simulator against the reference model,
// and aborts with the decoded case on the first failure. With `print` every decoded case is printed.
#include <cstdint>
#include <span>

#include "fuzz_support.hpp"

namespace cartcoll::fuzz {

void fuzz_cartesian(std::span<const std::uint8_t> input, Reader& in, bool print);
void fuzz_graph(std::span<const std::uint8_t> input, Reader& in, bool print);

}  // namespace cartcoll::fuzz
