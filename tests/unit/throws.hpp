// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Asserting that a call throws cartcoll::Error of a given kind.
#include <gtest/gtest.h>

#include <exception>

#include "cartcoll/error.hpp"

namespace cartcoll {

template <class F>
::testing::AssertionResult throws_error(F&& f, Errc kind) {
  try {
    f();
  } catch (const Error& e) {
    if (e.kind() == kind) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "Error of kind " << static_cast<int>(e.kind()) << " (" << e.what()
                                         << "), expected kind " << static_cast<int>(kind);
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-cartcoll exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

}  // namespace cartcoll
