// SPDX-License-Identifier: BSD-3-Clause
#include "transport.hpp"

#include <algorithm>

namespace cartcoll::detail {

void order_by_sender(std::vector<Parcel>& parcels) {
  std::stable_sort(parcels.begin(), parcels.end(), [](const Parcel& a, const Parcel& b) { return a.peer < b.peer; });
}

}  // namespace cartcoll::detail
