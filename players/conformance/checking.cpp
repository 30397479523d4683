#include "players/conformance/checking.h"

#include <exception>

#include "core/match.h"
#include "core/params.h"

namespace ddalab::conformance {

bool Recorder::run(Check check, const std::function<std::string()>& where,
                   const std::function<void()>& body) {
  ConformanceCheck& tally = report_.checks[check];
  ++tally.runs;
  std::string why;
  try {
    body();
    return true;
  } catch (const Failed& failed) {
    why = "expected " + failed.what;
  } catch (const GameContractError& e) {  // the match loop's checks: "expected ..." already
    why = e.what();
  } catch (const std::exception& e) {
    why = std::string("threw: ") + e.what();
  } catch (...) {
    why = "threw something that is no std::exception";
  }
  if (tally.failures++ == 0) tally.firstFailure = where() + ": " + textExcerpt(why, 400);
  return false;
}

}  // namespace ddalab::conformance
