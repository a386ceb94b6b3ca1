// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Set-up times like the isomorphic-collectives paper by Träff, Carpen-Amarie, Hunold and Rougier,
// Table 2: graph and Cartesian communicator creation, Cart_alltoall_init, and the repetitions after
// which cartcoll's set-up has paid for itself.
#include "options.hpp"

namespace bench {

// --setup: the Moore neighborhood given (or d = 2..5, r = 1..3 with --setup-grid).
void run_setup_times(const Options& options);

}  // namespace bench
