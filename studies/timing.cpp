#include "studies/timing.h"

#include <climits>
#include <cstdio>
#include <ctime>

namespace ddalab {

namespace {

constexpr int64_t kMaxResponseMs = 1'000'000'000;  // 11.6 days: longer is not a response time

// Whether `text` is what utcTimestamp writes: YYYY-MM-DDTHH:MM:SS.mmmZ with plausible fields.
bool isUtcTimestamp(const std::string& text) {
  if (text.size() != 24) return false;
  static const char kShape[] = "dddd-dd-ddTdd:dd:dd.dddZ";
  for (size_t i = 0; i < text.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (kShape[i] == 'd' ? !digit : text[i] != kShape[i]) return false;
  }
  const auto field = [&](size_t at, size_t n) { return std::stoi(text.substr(at, n)); };
  return field(5, 2) >= 1 && field(5, 2) <= 12 && field(8, 2) >= 1 && field(8, 2) <= 31 &&
         field(11, 2) <= 23 && field(14, 2) <= 59 && field(17, 2) <= 60;
}

std::string timestampField(const Json& node, const char* key, const std::string& where) {
  const Json* value = node.contains(key) ? &node.at(key) : nullptr;
  if (!value || !value->is_string() || !isUtcTimestamp(value->get<std::string>()))
    throw InputError(where + "." + key,
                     "expected a UTC time like \"2026-11-27T10:23:36.123Z\", got " +
                         (value ? jsonExcerpt(*value) : std::string("nothing")));
  return value->get<std::string>();
}

int64_t wholeField(const Json& node, const char* key, int64_t low, int64_t high,
                   const std::string& where) {
  const Json* value = node.contains(key) ? &node.at(key) : nullptr;
  if (!value || !value->is_number_integer() || value->get<int64_t>() < low ||
      value->get<int64_t>() > high)
    throw InputError(where + "." + key, "expected a whole number in [" + std::to_string(low) +
                                            ", " + std::to_string(high) + "], got " +
                                            (value ? jsonExcerpt(*value) : std::string("nothing")));
  return value->get<int64_t>();
}

}  // namespace

std::string utcTimestamp(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000 - (ms % 1000 < 0 ? 1 : 0));
  const int milli = static_cast<int>(((ms % 1000) + 1000) % 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[96];  // room for any int the format could print (g++ checks it)
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, milli);
  return text;
}

namespace {

class MachineClock final : public TimeSource {
 public:
  std::chrono::steady_clock::time_point now() const override {
    return std::chrono::steady_clock::now();
  }
  std::chrono::system_clock::time_point utcNow() const override {
    return std::chrono::system_clock::now();
  }
};

}  // namespace

const TimeSource& machineClock() {
  static const MachineClock clock;
  return clock;
}

ResponseClock::ResponseClock() : ResponseClock(machineClock()) {}

ResponseClock::ResponseClock(const TimeSource& clock)
    : shownUtc_(clock.utcNow()), shown_(clock.now()) {}

int64_t ResponseClock::elapsedMs() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               shown_)
      .count();
}

ResponseTiming ResponseClock::stop() const {
  return timingAt(std::chrono::steady_clock::now());
}

ResponseTiming ResponseClock::timingAt(std::chrono::steady_clock::time_point answered) const {
  const int64_t elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(answered - shown_).count();
  // The answer's UTC time is the start's plus the monotonic elapsed time: the two stay
  // consistent even when the system clock is set during the response.
  return {utcTimestamp(shownUtc_), utcTimestamp(shownUtc_ + std::chrono::milliseconds(elapsed)),
          elapsed};
}

Json timingJson(const ResponseTiming& timing) {
  return {{"shown_at", timing.shownAt},
          {"answered_at", timing.answeredAt},
          {"response_ms", timing.responseMs}};
}

ResponseTiming parseTiming(const Json& node, const std::string& where) {
  if (!node.is_object())
    throw InputError(where, "expected {\"shown_at\", \"answered_at\", \"response_ms\"}, got " +
                                jsonExcerpt(node));
  ResponseTiming timing{timestampField(node, "shown_at", where),
                        timestampField(node, "answered_at", where),
                        wholeField(node, "response_ms", 0, kMaxResponseMs, where)};
  // utcTimestamp's fixed-width form orders as text does.
  if (timing.answeredAt < timing.shownAt)
    throw InputError(where + ".answered_at", "expected a time not before shown_at (" +
                                                 timing.shownAt + "), got \"" + timing.answeredAt +
                                                 "\"");
  return timing;
}

Json decisionJson(const DecisionTiming& d) {
  Json j = timingJson(d.timing);
  j["round"] = d.round;
  j["seat"] = d.seat;
  j["action"] = d.action;
  return j;
}

DecisionTiming parseDecision(const Json& node, const std::string& where) {
  DecisionTiming d;
  d.timing = parseTiming(node, where);
  d.round = static_cast<int>(wholeField(node, "round", 0, 1'000'000, where));
  d.seat = static_cast<int>(wholeField(node, "seat", 0, kMaxPlayers - 1, where));
  d.action = static_cast<Action>(wholeField(node, "action", INT32_MIN, INT32_MAX, where));
  return d;
}

}  // namespace ddalab
