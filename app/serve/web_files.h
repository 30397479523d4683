#pragma once
// The participant's pages `ddalab serve` sends, compiled in from app/web/static by
// app/serve/CMakeLists.txt (web_files.cpp): the server serves exactly these and reads no file.
#include <cstddef>

namespace ddalab::serve {

struct WebFile {
  const char* path;     // "/app.js"
  const char* type;     // its Content-Type
  const char* content;  // its text
};
extern const WebFile kWebFiles[];
extern const size_t kWebFileCount;

}  // namespace ddalab::serve
