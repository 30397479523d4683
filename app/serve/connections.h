#pragma once
// ddalab serve's connections (docs/web-api.md, "Limits"): cpp-httplib reads a request with a
// timeout per read only, so a client sending a header line or a body byte every 2 s held a
// request thread for as long as it liked, and 70 such connections held all 64 (every participant
// then waited). Here each connection must deliver its request line, headers and body within a
// deadline, and one address may hold only a few connections at once; the others are answered
// 503 at once and closed, so participants from other addresses keep being served.
#include <httplib.h>

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace ddalab::serve {

// How many connections each client address has open, capped.
class ConnectionLimit {
 public:
  // At most `perAddress` connections at once from one address; `exempt` addresses (trusted
  // reverse proxies, which carry every participant's requests) are not counted.
  ConnectionLimit(size_t perAddress, std::vector<std::string> exempt);
  // Counts a connection from `address`; false (nothing counted) when it has perAddress open.
  bool admit(const std::string& address);
  // The connection admit() counted has closed.
  void release(const std::string& address);

 private:
  size_t perAddress_;
  std::vector<std::string> exempt_;
  std::mutex mutex_;
  std::map<std::string, size_t> open_;  // only addresses with a connection open
};

// cpp-httplib's server, each connection read under a deadline and the per-address limit.
class GuardedServer : public httplib::Server {
 public:
  // A connection's request line, headers and body must arrive within `readDeadline` of its
  // thread taking it up; `limit` must outlive the server.
  GuardedServer(std::chrono::milliseconds readDeadline, ConnectionLimit& limit);

 private:
  bool process_and_close_socket(socket_t sock) override;

  std::chrono::milliseconds readDeadline_;
  ConnectionLimit& limit_;
};

}  // namespace ddalab::serve
