// Helpers for the federated-identity tests: fake identity-provider tokens the emulator accepts, URL
// handling, and a fake browser that plays the person on the provider's page during a provider flow.
#ifndef HEARTH_TESTS_CPP_FEDERATED_H
#define HEARTH_TESTS_CPP_FEDERATED_H

#include "harness.h"

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace hearth_test {

// ---- fake identity-provider tokens -----------------------------------------------------------------

// The claims of a fake IdP token: the emulator accepts their JSON text as an id_token, or as an access
// token for providers other than google.com and apple.com.
struct FakeIdentity {
  std::string sub;
  std::string email;
  int email_verified = -1;  // -1: no claim; 0 / 1: false / true
  std::string name;
  std::string nonce;        // the SHA-256 hex of a raw nonce (Apple, OIDC, Facebook Limited Login)
  std::string screen_name;  // Twitter
  std::string login;        // GitHub
  std::string Json() const;
};

// A unique provider uid per call ("<tag>-<pid>-<n>").
std::string NewSubject(const char* tag);

// ---- URLs ------------------------------------------------------------------------------------------

std::string UrlEncode(const std::string& text);
std::string UrlDecode(const std::string& text);

struct ParsedUrl {
  std::string scheme;  // lower-cased
  std::string host;
  uint16_t port = 0;
  std::string path;    // "/..." (may be empty for custom schemes)
  std::string query;   // without '?'
};
bool ParseUrl(const std::string& url, ParsedUrl* out);
// The query's parameters, decoded; the first value of each name.
std::map<std::string, std::string> QueryOf(const std::string& url);
// Replaces (or adds) one query parameter.
std::string WithQueryParameter(const std::string& url, const std::string& name, const std::string& value);
/// The redirect with what ties it to its flow forged: `state`, or Twitter's (OAuth 1.0a) `oauth_token`.
std::string WithForgedCorrelation(const std::string& url);
// GET an http:// URL; no redirects followed.
HttpResponse HttpGet(const std::string& url);

// ---- the fake browser ------------------------------------------------------------------------------

// What happened on one page the app opened.
struct PageVisit {
  std::string opened_url;       // what the UI delegate got
  int choice_status = 0;        // the page's answer to the person's choice (303 expected)
  std::string location;         // where the page sent the browser (the app's redirect)
  int redirect_status = 0;      // the loopback receiver's answer (0: not fetched / custom scheme)
  std::string redirect_body;
  bool handed_to_app = false;   // custom scheme: Auth::HandleUrl accepted it
};

// The emulator's page (handler or createAuthUri consent) with the person's choice: `choice` is a
// query fragment like "email=a%40example.com&displayName=A". The handler page takes choices at
// /emulator/auth/handler/choose; the consent page at its own URL.
std::string ChoiceUrl(const std::string& page_url, const std::string& choice);

// Plays the person in front of the browser. The UI delegate from Delegate() records each URL and
// hands it to `act` on a thread of its own (the delegate runs on Hearth's loop thread and must not
// block: the loopback receiver is served by that same loop). `act` must not use REQUIRE.
class FakeBrowser {
 public:
  using Act = std::function<PageVisit(const std::string& url)>;
  explicit FakeBrowser(Act act = Act());
  ~FakeBrowser();
  FakeBrowser(const FakeBrowser&) = delete;
  FakeBrowser& operator=(const FakeBrowser&) = delete;

  // For ProviderFlowOptions::open_url. `answer` is what the delegate returns (false cancels the flow).
  std::function<bool(const std::string&)> Delegate(bool answer = true);

  std::vector<std::string> OpenedUrls() const;
  // Waits until `count` visits are finished.
  bool WaitForVisits(size_t count, int64_t timeout_ms = kOperationTimeoutMs) const;
  std::vector<PageVisit> Visits() const;

 private:
  struct Shared {
    mutable std::mutex mutex;
    mutable std::condition_variable changed;
    std::vector<std::string> urls;
    std::vector<PageVisit> visits;
    std::vector<std::thread> threads;
    bool closed = false;
  };
  Act act_;
  std::shared_ptr<Shared> shared_;
};

// The usual act: choose `choice` on the page, then follow the redirect to the app (a GET to the
// loopback receiver; for any other scheme, auth->HandleUrl).
FakeBrowser::Act ChooseAccount(const std::string& choice, hearth::auth::Auth* auth = nullptr);

// Like ChooseAccount, with the n-th choice for the n-th page (the last choice repeats).
FakeBrowser::Act ChooseAccounts(std::vector<std::string> choices, hearth::auth::Auth* auth = nullptr);

// A choice of account for the pages: "email=...[&displayName=...][&screenName=...]".
std::string Choice(const std::string& email, const std::string& display_name = std::string(),
                   const std::string& screen_name = std::string());

// A loopback socket that listens on a port the system picked (closed on destruction).
class ListeningSocket {
 public:
  ListeningSocket();
  ~ListeningSocket();
  ListeningSocket(const ListeningSocket&) = delete;
  ListeningSocket& operator=(const ListeningSocket&) = delete;
  uint16_t port() const { return port_; }

 private:
  int fd_ = -1;
  uint16_t port_ = 0;
};

// Provider flow options for the emulator with this browser's delegate.
hearth::auth::ProviderFlowOptions FlowOptions(FakeBrowser* browser, bool use_create_auth_uri = false);

// Sets the options, REQUIRing success.
void SetFlowOptions(hearth::auth::Auth* auth, const hearth::auth::ProviderFlowOptions& options);

// True when the provider's `name` appears in the customParameters JSON of the page URL with `value`.
bool PageHasCustomParameter(const std::string& page_url, const std::string& name, const std::string& value);

// Sets the emulator's recent-login limit for the test's duration (0 = off) and resets it afterwards.
class RecentLoginLimit {
 public:
  explicit RecentLoginLimit(int seconds);
  ~RecentLoginLimit();
  RecentLoginLimit(const RecentLoginLimit&) = delete;
  RecentLoginLimit& operator=(const RecentLoginLimit&) = delete;
};

// The provider ids of a user's provider_data, sorted.
std::vector<std::string> ProviderIds(const hearth::auth::User& user);
// The provider_data entry of a provider (an empty UserInfoInterface when absent).
hearth::auth::UserInfoInterface ProviderInfo(const hearth::auth::User& user, const std::string& provider_id);

}  // namespace hearth_test

#endif  // HEARTH_TESTS_CPP_FEDERATED_H
