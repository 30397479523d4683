#include "app/cli/progress.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>

namespace ddalab::cli {

std::string formatDuration(double seconds) {
  const long total = std::lround(std::max(0.0, seconds));
  char buffer[32];
  if (total >= 3600)
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60,
                  total % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld", total / 60, total % 60);
  return buffer;
}

ProgressPrinter::ProgressPrinter() : terminal_(isatty(STDERR_FILENO)) {}

void ProgressPrinter::operator()(const Progress& p) {
  const double fraction = p.gamesTotal ? double(p.gamesDone) / double(p.gamesTotal) : 1.0;
  if (terminal_) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    std::fprintf(stderr, "\r[%s%s] %zu/%zu %3.0f%%  elapsed %s  left %s  %s\033[K",
                 std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(),
                 p.gamesDone, p.gamesTotal, 100 * fraction,
                 formatDuration(p.elapsedSeconds).c_str(), formatDuration(p.etaSeconds).c_str(),
                 p.experimentName.c_str());
    drawn_ = true;
    return;
  }
  // Logs and CI: one line every 10 seconds at most, and the final one.
  if (p.gamesDone == lastDone_) return;
  if (p.elapsedSeconds - lastPrinted_ < 10 && p.gamesDone < p.gamesTotal) return;
  lastPrinted_ = p.elapsedSeconds;
  lastDone_ = p.gamesDone;
  std::fprintf(stderr, "progress: %zu/%zu games (%.0f%%), elapsed %s, left %s, running %s\n",
               p.gamesDone, p.gamesTotal, 100 * fraction, formatDuration(p.elapsedSeconds).c_str(),
               formatDuration(p.etaSeconds).c_str(), p.experimentName.c_str());
}

void ProgressPrinter::finish() {
  if (drawn_) std::fputc('\n', stderr);
  drawn_ = false;
}

}  // namespace ddalab::cli
