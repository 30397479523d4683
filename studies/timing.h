#pragma once
// When a participant saw something and when they answered it: every decision and every answer of
// a person carries a UTC timestamp and a response time in milliseconds (docs/user-study.md,
// "What a session records"). Simulated participants carry none: their sessions stay reproducible.
#include <chrono>
#include <cstdint>
#include <string>

#include "core/params.h"
#include "core/state.h"

namespace ddalab {

// A person's answer to something shown to them.
struct ResponseTiming {
  std::string shownAt;     // UTC, ISO 8601 with milliseconds: "2026-11-27T10:23:36.123Z"
  std::string answeredAt;  // the same clock
  int64_t responseMs = 0;  // from shown to answered, measured on a monotonic clock
};

// The UTC time `t` as ISO 8601 with milliseconds and a 'Z'.
std::string utcTimestamp(std::chrono::system_clock::time_point t);

// Where time is read: the machine's clocks, or a test's that moves only when told (a paced game
// and its person's response times are then checked without waiting).
class TimeSource {
 public:
  virtual ~TimeSource() = default;
  // The monotonic time (paces, response times); safe to call from any thread.
  virtual std::chrono::steady_clock::time_point now() const = 0;
  // The wall clock (the UTC times a record carries).
  virtual std::chrono::system_clock::time_point utcNow() const = 0;
};

// The machine's clocks: std::chrono's steady and system clocks.
const TimeSource& machineClock();

// A stopwatch started when something is shown: its UTC start and a monotonic elapsed time (a
// clock set back during a session does not make a response time negative).
class ResponseClock {
 public:
  ResponseClock();  // starts now
  // Starts now as `clock` has it.
  explicit ResponseClock(const TimeSource& clock);
  // The timing of an answer given now.
  ResponseTiming stop() const;
  // The timing of an answer given at the monotonic time `answered`.
  ResponseTiming timingAt(std::chrono::steady_clock::time_point answered) const;
  int64_t elapsedMs() const;

 private:
  std::chrono::system_clock::time_point shownUtc_;
  std::chrono::steady_clock::time_point shown_;
};

// {"shown_at", "answered_at", "response_ms"}.
Json timingJson(const ResponseTiming& timing);
// Reads timingJson's object at `where` (a file and JSON path): both timestamps in the format
// utcTimestamp writes, the answer's not before the showing, a response time in [0, 10^9] ms;
// InputError naming the field otherwise.
ResponseTiming parseTiming(const Json& node, const std::string& where);

// A person's decision in a game: the round it was made in, the seat, the action and when the
// person's turn began (shown) and the action was chosen (answered).
struct DecisionTiming {
  int round = 0;
  int seat = 0;
  Action action = 0;
  ResponseTiming timing;
};

Json decisionJson(const DecisionTiming& decision);
DecisionTiming parseDecision(const Json& node, const std::string& where);

}  // namespace ddalab
