// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A deadline for one test: a test that can deadlock (waits in rank-dependent orders) must fail, not
// hang until ctest's timeout. If the watchdog is still armed when the deadline passes, it prints
// "deadlock detected" with the test's name and ends the process (mpirun then ends the others).
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace support {

// `fallback`, or the seconds in CARTCOLL_TEST_DEADLINE: a test that is expected to deadlock (the
// progress engine switched off) need not wait the full deadline to say so.
inline std::chrono::seconds deadline_or_environment(std::chrono::seconds fallback) {
  const char* value = std::getenv("CARTCOLL_TEST_DEADLINE");
  const long seconds = value != nullptr ? std::strtol(value, nullptr, 10) : 0;
  return seconds > 0 ? std::chrono::seconds(seconds) : fallback;
}

class Watchdog {
 public:
  Watchdog(std::string what, std::chrono::seconds deadline) : what_(std::move(what)) {
    thread_ = std::thread([this, deadline] {
      std::unique_lock lock(mutex_);
      if (!disarmed_.wait_for(lock, deadline, [this] { return done_; })) {
        std::fprintf(stderr, "deadlock detected: %s did not finish within %lld s\n", what_.c_str(),
                     static_cast<long long>(deadline.count()));
        std::fflush(stderr);
        std::_Exit(3);
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    disarmed_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  std::string what_;
  std::mutex mutex_;
  std::condition_variable disarmed_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace support
