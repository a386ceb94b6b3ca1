// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Timing methodology: barrier, time = max over ranks, warm-up, implementations taking turns in
// batches of repetitions, Tukey's rule (outside [Q1 - 3 IQR, Q3 + 3 IQR] dropped), then median, min
// and max.
#include <vector>

#include "implementations.hpp"

namespace bench {

struct Summary {
  double median = 0, min = 0, max = 0;
  int kept = 0, total = 0;
};

// Per run, the per-repetition maxima over ranks. The runs first take `warmup` untimed turns of one
// call each; then they take turns of `batch` timed calls, each turn led by one untimed call, which
// pays for switching from the previous run's buffers and communicators (an application that calls
// one exchange again and again does not pay it; a run that went first or after another paid it, up
// to 14 % at 64 KiB blocks).
std::vector<std::vector<double>> time_interleaved(const std::vector<Run>& runs, int reps, int warmup, int batch = 1);

Summary summarize(std::vector<double> times);


struct Traffic {
  long long messages = 0, bytes = 0;  // maxima over ranks of one call
};
// One untimed call of `run` counted by the PMPI layer.
Traffic count_traffic(const Run& run);

}  // namespace bench
