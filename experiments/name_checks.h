#pragma once
// The characters names of experiments, comparisons and sweep values may hold: they become
// file names, and results are shared between systems.
#include <cstddef>
#include <string>
#include <string_view>

namespace ddalab {

// Longest file stem (the name with '/' -> "__") of an experiment or comparison name. The longest
// file written is "<stem>.summary.csv" or "<stem>.trace.jsonl" (12 bytes more), first under a
// temporary name of up to 24 bytes more, and file names must fit in 255 bytes: 200 leaves room.
inline constexpr size_t kMaxNameStemBytes = 200;

// Characters refused in names although Linux allows them: Windows forbids them in file names
// (and macOS ':').
inline constexpr std::string_view kNonPortableNameCharacters = "\\:*?\"<>|";

// Throws InputError at `path` when `text` (described as `named`) has a control character,
// invalid UTF-8 or one of kNonPortableNameCharacters; `expected` ends the message.
void checkPortableCharacters(const std::string& text, const std::string& path,
                             const std::string& named, const std::string& expected);

}  // namespace ddalab
