#pragma once
// SHA-256 (FIPS 180-4) of a file's bytes, as lowercase hex: how batch.json identifies the exact
// plug-in a result was computed with.
#include <filesystem>
#include <string>
#include <string_view>

namespace ddalab {

// The digest of `bytes`.
std::string sha256Hex(std::string_view bytes);
// The digest of the file at `file`; throws std::runtime_error naming it when it cannot be read.
std::string sha256OfFile(const std::filesystem::path& file);

}  // namespace ddalab
