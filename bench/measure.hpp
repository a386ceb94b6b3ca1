#pragma once
// Timing methodology: barrier, time = max over ranks, warm-up, implementations interleaved per
// repetition, Tukey's rule (outside [Q1 - 3 IQR, Q3 + 3 IQR] dropped), then median, min and max.
#include <vector>

#include "implementations.hpp"

namespace bench {

struct Summary {
  double median = 0, min = 0, max = 0;
  int kept = 0, total = 0;
};

// Per run, the per-repetition maxima over ranks (warm-up repetitions dropped).
std::vector<std::vector<double>> time_interleaved(const std::vector<Run>& runs, int reps, int warmup);

Summary summarize(std::vector<double> times);


struct Traffic {
  long long messages = 0, bytes = 0;  // maxima over ranks of one call
};
// One untimed call of `run` counted by the PMPI layer.
Traffic count_traffic(const Run& run);

}  // namespace bench
