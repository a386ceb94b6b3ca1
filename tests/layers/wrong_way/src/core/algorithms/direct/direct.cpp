// SPDX-License-Identifier: BSD-3-Clause
// A planner of the fixture: its name is what check_policy.sh looks for elsewhere.
extern const PlannerEntry direct_planner{
    "direct", "one message per edge"};
