// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A core header that reaches up into the runtime: check_includes.sh must reject it.
#include "runtime/state.hpp"
