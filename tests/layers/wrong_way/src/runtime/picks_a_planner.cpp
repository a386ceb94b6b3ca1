// SPDX-License-Identifier: BSD-3-Clause
// Runtime code that picks a planner by name: check_policy.sh must reject it.
int pick() { return lookup("direct"); }  // names the planner outside the policy
