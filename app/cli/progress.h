#pragma once
// Progress on stderr: a bar with ETA on a terminal, plain periodic lines otherwise.
#include <cstdint>

#include "experiments/runner.h"

namespace ddalab::cli {

class ProgressPrinter {
 public:
  ProgressPrinter();
  // Shows `p` (rate-limited when stderr is not a terminal).
  void operator()(const Progress& p);
  // Ends the bar's line.
  void finish();

 private:
  bool terminal_;
  bool drawn_ = false;
  double lastPrinted_ = -1e9;
  size_t lastDone_ = SIZE_MAX;
};

// "1:05" / "2:03:07" for a duration in seconds.
std::string formatDuration(double seconds);

}  // namespace ddalab::cli
