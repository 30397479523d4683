// libFuzzer target: bytes -> the batch file path (parse + validate, as `ddalab validate` does).
// Refusing input with an InputError is fine; a crash, a sanitizer report, any other exception or
// an unbounded or unprintable error message is a finding (scripts/fuzz.sh builds and runs it).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "experiments/batch.h"

namespace {

// Longest error message accepted: excerpts are bounded, so only a path of kMaxJsonDepth
// excerpted keys comes near it.
constexpr size_t kMaxMessageBytes = 8192;

[[noreturn]] void finding(const char* kind, const char* what) {
  std::fprintf(stderr, "fuzz finding: %s: %.2000s\n", kind, what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    ddalab::parseBatchText(text, "fuzz.json");
  } catch (const ddalab::InputError& error) {
    const std::string_view message = error.what();
    if (message.size() > kMaxMessageBytes) finding("error message too long", error.what());
    if (ddalab::findUnprintable(message) != std::string_view::npos)
      finding("control character or invalid UTF-8 in the error message", error.what());
  } catch (const std::exception& error) {
    finding("exception other than InputError", error.what());
  }
  return 0;
}
