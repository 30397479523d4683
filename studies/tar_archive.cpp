#include "studies/tar_archive.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace ddalab {
namespace {

constexpr size_t kTarBlock = 512;

// A numeric header field: zero-padded octal digits and the terminating NUL, `width` bytes in all.
void writeTarOctal(char* field, size_t width, uintmax_t value) {
  std::snprintf(field, width, "%0*jo", static_cast<int>(width - 1), value);
}

}  // namespace

bool TarArchive::add(const std::string& name, const std::string& content, std::time_t modified) {
  if (name.size() > kMaxName) return false;
  char header[kTarBlock] = {};
  std::memcpy(header, name.data(), name.size());
  writeTarOctal(header + 100, 8, 0644);
  writeTarOctal(header + 108, 8, 0);
  writeTarOctal(header + 116, 8, 0);
  writeTarOctal(header + 124, 12, content.size());
  writeTarOctal(header + 136, 12, static_cast<uintmax_t>(modified));
  header[156] = '0';
  std::memcpy(header + 257, "ustar", 6);
  std::memcpy(header + 263, "00", 2);
  std::memset(header + 148, ' ', 8);  // the checksum counts its own field as spaces
  unsigned sum = 0;
  for (unsigned char c : header) sum += c;
  std::snprintf(header + 148, 8, "%06o", sum);
  bytes_.append(header, sizeof header);
  bytes_ += content;
  bytes_.append((kTarBlock - content.size() % kTarBlock) % kTarBlock, '\0');
  return true;
}

std::string TarArchive::finish() {
  bytes_.append(2 * kTarBlock, '\0');  // two empty blocks end the archive
  return std::exchange(bytes_, std::string());
}

}  // namespace ddalab
