// Helpers declared in federated.h.
#include "federated.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace hearth_test {

namespace {

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += escaped;
        } else {
          out.push_back(c);
        }
    }
  }
  return out + "\"";
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string FakeIdentity::Json() const {
  std::string out = "{\"sub\":" + JsonString(sub);
  if (!email.empty()) out += ",\"email\":" + JsonString(email);
  if (email_verified >= 0) out += std::string(",\"email_verified\":") + (email_verified ? "true" : "false");
  if (!name.empty()) out += ",\"name\":" + JsonString(name);
  if (!nonce.empty()) out += ",\"nonce\":" + JsonString(nonce);
  if (!screen_name.empty()) out += ",\"screen_name\":" + JsonString(screen_name);
  if (!login.empty()) out += ",\"login\":" + JsonString(login);
  return out + "}";
}

std::string NewSubject(const char* tag) {
  static std::atomic<int> counter{0};
  return std::string(tag) + "-" + std::to_string(getpid()) + "-" + std::to_string(++counter);
}

// ---- URLs ------------------------------------------------------------------------------------------

std::string UrlEncode(const std::string& text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string UrlDecode(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] == '%' && i + 2 < text.size() && HexDigit(text[i + 1]) >= 0 && HexDigit(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexDigit(text[i + 1]) * 16 + HexDigit(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

bool ParseUrl(const std::string& url, ParsedUrl* out) {
  const size_t colon = url.find(':');
  if (colon == std::string::npos || colon == 0) return false;
  ParsedUrl parsed;
  parsed.scheme = url.substr(0, colon);
  std::transform(parsed.scheme.begin(), parsed.scheme.end(), parsed.scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string rest = url.substr(colon + 1);
  const size_t hash = rest.find('#');
  if (hash != std::string::npos) rest.resize(hash);
  const size_t question = rest.find('?');
  if (question != std::string::npos) {
    parsed.query = rest.substr(question + 1);
    rest.resize(question);
  }
  if (rest.compare(0, 2, "//") == 0) {
    const size_t slash = rest.find('/', 2);
    const std::string authority = rest.substr(2, slash == std::string::npos ? std::string::npos : slash - 2);
    parsed.path = slash == std::string::npos ? "/" : rest.substr(slash);
    const size_t port_colon = authority.rfind(':');
    if (port_colon != std::string::npos) {
      parsed.host = authority.substr(0, port_colon);
      const long port = std::strtol(authority.c_str() + port_colon + 1, nullptr, 10);
      if (port <= 0 || port > 65535) return false;
      parsed.port = static_cast<uint16_t>(port);
    } else {
      parsed.host = authority;
      parsed.port = parsed.scheme == "https" ? 443 : 80;
    }
  } else {
    parsed.path = rest;
  }
  *out = parsed;
  return true;
}

std::map<std::string, std::string> QueryOf(const std::string& url) {
  std::map<std::string, std::string> parameters;
  ParsedUrl parsed;
  if (!ParseUrl(url, &parsed)) return parameters;
  size_t at = 0;
  while (at <= parsed.query.size() && !parsed.query.empty()) {
    size_t end = parsed.query.find('&', at);
    if (end == std::string::npos) end = parsed.query.size();
    const std::string field = parsed.query.substr(at, end - at);
    const size_t equals = field.find('=');
    const std::string name = UrlDecode(field.substr(0, equals));
    const std::string value = equals == std::string::npos ? std::string() : UrlDecode(field.substr(equals + 1));
    if (!name.empty()) parameters.emplace(name, value);
    at = end + 1;
  }
  return parameters;
}

std::string WithQueryParameter(const std::string& url, const std::string& name, const std::string& value) {
  const size_t question = url.find('?');
  const std::string base = question == std::string::npos ? url : url.substr(0, question);
  const std::string query = question == std::string::npos ? std::string() : url.substr(question + 1);
  std::string out;
  bool replaced = false;
  size_t at = 0;
  while (!query.empty() && at <= query.size()) {
    size_t end = query.find('&', at);
    if (end == std::string::npos) end = query.size();
    std::string field = query.substr(at, end - at);
    if (UrlDecode(field.substr(0, field.find('='))) == name) {
      field = UrlEncode(name) + "=" + UrlEncode(value);
      replaced = true;
    }
    out += (out.empty() ? "" : "&") + field;
    at = end + 1;
  }
  if (!replaced) out += (out.empty() ? "" : "&") + UrlEncode(name) + "=" + UrlEncode(value);
  return base + "?" + out;
}

HttpResponse HttpGet(const std::string& url) {
  ParsedUrl parsed;
  if (!ParseUrl(url, &parsed) || parsed.scheme != "http") return HttpResponse();
  const std::string target = parsed.path + (parsed.query.empty() ? "" : "?" + parsed.query);
  return HttpRequest(parsed.host, parsed.port, "GET", target);
}

// ---- the fake browser ------------------------------------------------------------------------------

std::string ChoiceUrl(const std::string& page_url, const std::string& choice) {
  std::string url = page_url;
  const std::string handler = "/emulator/auth/handler?";
  const size_t at = url.find(handler);
  if (at != std::string::npos) url.replace(at, handler.size(), "/emulator/auth/handler/choose?");
  return url + (url.find('?') == std::string::npos ? "?" : "&") + choice;
}

FakeBrowser::FakeBrowser(Act act) : act_(std::move(act)), shared_(std::make_shared<Shared>()) {}

FakeBrowser::~FakeBrowser() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->closed = true;
    threads.swap(shared_->threads);
  }
  for (std::thread& thread : threads) thread.join();
}

std::function<bool(const std::string&)> FakeBrowser::Delegate(bool answer) {
  std::shared_ptr<Shared> shared = shared_;
  Act act = act_;
  return [shared, act, answer](const std::string& url) {
    std::lock_guard<std::mutex> lock(shared->mutex);
    shared->urls.push_back(url);
    shared->changed.notify_all();
    if (act && answer && !shared->closed) {
      shared->threads.emplace_back([shared, act, url] {
        PageVisit visit = act(url);
        visit.opened_url = url;
        std::lock_guard<std::mutex> inner(shared->mutex);
        shared->visits.push_back(visit);
        shared->changed.notify_all();
      });
    }
    return answer;
  };
}

std::vector<std::string> FakeBrowser::OpenedUrls() const {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  return shared_->urls;
}

bool FakeBrowser::WaitForVisits(size_t count, int64_t timeout_ms) const {
  std::unique_lock<std::mutex> lock(shared_->mutex);
  return shared_->changed.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                   [this, count] { return shared_->visits.size() >= count; });
}

std::vector<PageVisit> FakeBrowser::Visits() const {
  std::lock_guard<std::mutex> lock(shared_->mutex);
  return shared_->visits;
}

FakeBrowser::Act ChooseAccount(const std::string& choice, hearth::auth::Auth* auth) {
  return [choice, auth](const std::string& url) {
    PageVisit visit;
    const HttpResponse page = HttpGet(ChoiceUrl(url, choice));
    visit.choice_status = page.status;
    auto location = page.headers.find("location");
    if (page.status != 303 || location == page.headers.end()) return visit;
    visit.location = location->second;
    ParsedUrl target;
    if (ParseUrl(visit.location, &target) && target.scheme == "http") {
      const HttpResponse redirect = HttpGet(visit.location);
      visit.redirect_status = redirect.status;
      visit.redirect_body = redirect.body;
    } else if (auth) {
      visit.handed_to_app = auth->HandleUrl(visit.location);
    }
    return visit;
  };
}

FakeBrowser::Act ChooseAccounts(std::vector<std::string> choices, hearth::auth::Auth* auth) {
  auto next = std::make_shared<std::atomic<size_t>>(0);
  return [choices, auth, next](const std::string& url) {
    const size_t index = next->fetch_add(1);
    const std::string& choice = choices.empty() ? std::string() : choices[std::min(index, choices.size() - 1)];
    return ChooseAccount(choice, auth)(url);
  };
}

std::string Choice(const std::string& email, const std::string& display_name, const std::string& screen_name) {
  std::string choice = "email=" + UrlEncode(email);
  if (!display_name.empty()) choice += "&displayName=" + UrlEncode(display_name);
  if (!screen_name.empty()) choice += "&screenName=" + UrlEncode(screen_name);
  return choice;
}

ListeningSocket::ListeningSocket() {
  fd_ = socket(AF_INET, SOCK_STREAM, 0);
  if (fd_ < 0) return;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || listen(fd_, 4) != 0 ||
      getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    close(fd_);
    fd_ = -1;
    return;
  }
  port_ = ntohs(address.sin_port);
}

ListeningSocket::~ListeningSocket() {
  if (fd_ >= 0) close(fd_);
}

hearth::auth::ProviderFlowOptions FlowOptions(FakeBrowser* browser, bool use_create_auth_uri) {
  hearth::auth::ProviderFlowOptions options;
  options.open_url = browser->Delegate();
  options.use_create_auth_uri = use_create_auth_uri;
  options.timeout_ms = 60000;
  return options;
}

void SetFlowOptions(hearth::auth::Auth* auth, const hearth::auth::ProviderFlowOptions& options) {
  const hearth::auth::AuthError error = auth->SetProviderFlowOptions(options);
  REQUIRE_EQ(error, hearth::auth::kAuthErrorNone);
}

bool PageHasCustomParameter(const std::string& page_url, const std::string& name, const std::string& value) {
  const std::map<std::string, std::string> query = QueryOf(page_url);
  auto custom = query.find("customParameters");
  if (custom == query.end()) return false;
  const std::map<std::string, std::string> parameters = hearth::detail::ParseProfile(custom->second);
  auto it = parameters.find(name);
  return it != parameters.end() && (value.empty() || it->second == value);
}

RecentLoginLimit::RecentLoginLimit(int seconds) {
  const HttpResponse response =
      EmulatorRequest("PATCH", "/emulator/v1/projects/" + ProjectId() + "/config",
                      "{\"recentLoginMaxAgeSeconds\":" + std::to_string(seconds) + "}");
  if (response.status != 200) {
    RecordFailure(__FILE__, __LINE__, "could not set recentLoginMaxAgeSeconds: HTTP " +
                                          std::to_string(response.status) + " " + response.body);
    throw TestAborted();
  }
}

RecentLoginLimit::~RecentLoginLimit() {
  const HttpResponse response =
      EmulatorRequest("PATCH", "/emulator/v1/projects/" + ProjectId() + "/config", "{\"recentLoginMaxAgeSeconds\":0}");
  if (response.status != 200) RecordFailure(__FILE__, __LINE__, "could not reset recentLoginMaxAgeSeconds");
}

std::vector<std::string> ProviderIds(const hearth::auth::User& user) {
  std::vector<std::string> ids;
  for (const hearth::auth::UserInfoInterface& info : user.provider_data()) ids.push_back(info.provider_id());
  std::sort(ids.begin(), ids.end());
  return ids;
}

hearth::auth::UserInfoInterface ProviderInfo(const hearth::auth::User& user, const std::string& provider_id) {
  for (const hearth::auth::UserInfoInterface& info : user.provider_data()) {
    if (info.provider_id() == provider_id) return info;
  }
  return hearth::auth::UserInfoInterface();
}

std::string WithForgedCorrelation(const std::string& url) {
  // `state`, or for OAuth 1.0a (Twitter) the request token `oauth_token`.
  const bool oauth1 = url.find("?oauth_token=") != std::string::npos || url.find("&oauth_token=") != std::string::npos;
  return WithQueryParameter(url, oauth1 ? "oauth_token" : "state", "forged-state");
}

}  // namespace hearth_test
