#include "app/serve/connections.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "app/serve/study_api.h"

namespace ddalab::serve {
namespace {

using Clock = std::chrono::steady_clock;

// Whether `sock` becomes ready for `events` within `timeout` (none left: false).
bool ready(socket_t sock, short events, std::chrono::milliseconds timeout) {
  if (timeout.count() <= 0) return false;
  pollfd entry{sock, events, 0};
  int n;
  do {
    n = ::poll(&entry, 1, static_cast<int>(std::min<int64_t>(timeout.count(), 1 << 30)));
  } while (n < 0 && errno == EINTR);
  return n > 0 && (entry.revents & (events | POLLHUP | POLLERR)) != 0;
}

// The numeric address and port of a socket's peer (`peer`) or its own end.
void endpointOf(socket_t sock, bool peer, std::string& ip, int& port) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  auto* raw = reinterpret_cast<sockaddr*>(&address);
  if ((peer ? ::getpeername(sock, raw, &length) : ::getsockname(sock, raw, &length)) != 0) return;
  char host[NI_MAXHOST];
  if (::getnameinfo(raw, length, host, sizeof host, nullptr, 0, NI_NUMERICHOST) == 0) ip = host;
  if (address.ss_family == AF_INET)
    port = ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
  else if (address.ss_family == AF_INET6)
    port = ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
}

// A connection's socket for httplib: reads buffered and refused once the request's deadline has
// passed; each write waits at most `writeTimeout` for room.
class DeadlineStream final : public httplib::Stream {
 public:
  DeadlineStream(socket_t sock, Clock::time_point deadline, std::chrono::milliseconds writeTimeout)
      : sock_(sock), deadline_(deadline), writeTimeout_(writeTimeout) {}

  bool is_readable() const override { return begin_ < end_ || ready(sock_, POLLIN, left()); }
  bool is_writable() const override { return ready(sock_, POLLOUT, writeTimeout_); }

  ssize_t read(char* ptr, size_t size) override {
    if (begin_ == end_) {
      if (!ready(sock_, POLLIN, left())) return -1;  // the deadline passed: the request is cut
      ssize_t n;
      do {
        n = ::recv(sock_, buffer_, sizeof buffer_, 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      begin_ = 0;
      end_ = static_cast<size_t>(n);
    }
    const size_t n = std::min(size, end_ - begin_);
    std::memcpy(ptr, buffer_ + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n;
    do {
      n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    endpointOf(sock_, true, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    endpointOf(sock_, false, ip, port);
  }
  socket_t socket() const override { return sock_; }

 private:
  std::chrono::milliseconds left() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - Clock::now());
  }

  socket_t sock_;
  Clock::time_point deadline_;
  std::chrono::milliseconds writeTimeout_;
  char buffer_[4096];  // httplib reads the request line and headers a byte at a time
  size_t begin_ = 0, end_ = 0;
};

// Answers a connection over the limit without reading its request (that could be slow).
void refuse(socket_t sock) {
  static const std::string reply = [] {
    const std::string body =
        apiError(503, "too many connections from this address; try again in a moment").body.dump();
    return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
           "Content-Length: " +
           std::to_string(body.size()) +
           "\r\nRetry-After: 1\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
           "Connection: close\r\n\r\n" +
           body;
  }();
  ::send(sock, reply.data(), reply.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(sock, SHUT_WR);
  // What the client sent already is read away: closing with unread bytes resets the connection,
  // and the client could lose the reply. Bounded: never waits, at most 64 KiB.
  char sink[4096];
  for (int i = 0; i < 16 && ::recv(sock, sink, sizeof sink, MSG_DONTWAIT) > 0; ++i) {
  }
}

}  // namespace

ConnectionLimit::ConnectionLimit(size_t perAddress, std::vector<std::string> exempt)
    : perAddress_(perAddress), exempt_(std::move(exempt)) {}

bool ConnectionLimit::admit(const std::string& address) {
  if (std::find(exempt_.begin(), exempt_.end(), address) != exempt_.end()) return true;
  std::lock_guard lock(mutex_);
  size_t& open = open_[address];
  if (open >= perAddress_) return false;
  ++open;
  return true;
}

void ConnectionLimit::release(const std::string& address) {
  if (std::find(exempt_.begin(), exempt_.end(), address) != exempt_.end()) return;
  std::lock_guard lock(mutex_);
  const auto it = open_.find(address);
  if (it != open_.end() && --it->second == 0) open_.erase(it);  // the map holds open ones only
}

GuardedServer::GuardedServer(std::chrono::milliseconds readDeadline, ConnectionLimit& limit)
    : readDeadline_(readDeadline), limit_(limit) {}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  std::string address;
  int port = 0;
  endpointOf(sock, true, address, port);
  bool served = false;
  if (limit_.admit(address)) {
    struct Release {
      ConnectionLimit& limit;
      const std::string& address;
      ~Release() { limit.release(address); }
    } release{limit_, address};
    DeadlineStream stream(sock, Clock::now() + readDeadline_,
                          std::chrono::seconds(write_timeout_sec_) +
                              std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::microseconds(write_timeout_usec_)));
    bool closed = false;
    served = process_request(stream, true, closed, nullptr);
  } else {
    refuse(sock);
  }
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
  return served;
}

}  // namespace ddalab::serve
