// A few plain HTTP requests to the Auth emulator's own REST surface (what a developer would do with
// curl): the SMS codes it "sent" and its accounts. POSIX sockets only; nothing of Hearth or Firebase,
// so the program beside it is built against the Firebase compatibility headers alone.
#ifndef HEARTH_TESTS_COMPAT_IDIOM_EMULATOR_HTTP_H
#define HEARTH_TESTS_COMPAT_IDIOM_EMULATOR_HTTP_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace emulator_http {

// The emulator's port, as the Firebase SDK reads it (AUTH_EMULATOR_PORT), else 9099.
inline int Port() {
  const char* port = std::getenv("AUTH_EMULATOR_PORT");
  return port ? std::atoi(port) : 9099;
}

inline std::string ProjectId() {
  const char* project = std::getenv("HEARTH_PROJECT");
  return project ? project : "demo-hearth";
}

// One request to 127.0.0.1:Port(); the response body ("" on any failure), status in *status.
inline std::string Request(const std::string& method, const std::string& path, int* status = nullptr) {
  if (status) *status = 0;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return std::string();
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(Port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    const std::string request = method + " " + path +
                                " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer owner\r\n"
                                "Content-Length: 0\r\nConnection: close\r\n\r\n";
    if (send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size())) {
      char buffer[4096];
      ssize_t got;
      while ((got = recv(fd, buffer, sizeof buffer, 0)) > 0) response.append(buffer, static_cast<size_t>(got));
    }
  }
  close(fd);
  const size_t head_end = response.find("\r\n\r\n");
  if (head_end == std::string::npos) return std::string();
  if (status && response.compare(0, 9, "HTTP/1.1 ") == 0) *status = std::atoi(response.c_str() + 9);
  return response.substr(head_end + 4);
}

// The SMS code the emulator holds for a verification id ("" when none).
inline std::string CodeFor(const std::string& verification_id) {
  const std::string body = Request("GET", "/emulator/v1/projects/" + ProjectId() + "/verificationCodes");
  const size_t at = body.find("\"" + verification_id + "\"");
  if (at == std::string::npos) return std::string();
  const size_t begin = body.rfind('{', at);
  const size_t end = body.find('}', at);
  const std::string entry = body.substr(begin, end - begin);
  const std::string key = "\"code\":\"";
  const size_t code = entry.find(key);
  return code == std::string::npos ? std::string() : entry.substr(code + key.size(), entry.find('"', code + key.size()) - code - key.size());
}

}  // namespace emulator_http

#endif  // HEARTH_TESTS_COMPAT_IDIOM_EMULATOR_HTTP_H
