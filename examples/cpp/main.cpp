// examples/cpp — Hearth from C++, written the way Firebase C++ SDK code is written.
//
//   make examples        (builds this and runs it against a fresh hearth-emulator)
//
// hearth.hpp mirrors firebase::App / firebase::auth (the v11+ API, User by value): code written for
// the Firebase C++ SDK ports by changing the namespace (the alias below) and the include. What the
// Firebase desktop build cannot do and Hearth can, e.g. provider sign-in, is marked "Hearth:".
//
// The App runs on a loop thread of Hearth's own (no uv_loop_t given), so OnCompletion callbacks and
// listeners run on that thread: they hand results to the main thread through atomics here. A game that
// wants them on its own thread passes its uv_loop_t instead (AppOptions::set_loop; see
// examples/c-game-loop and docs/game-loop.md).
#include <hearth.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

namespace firebase = hearth;  // Porting: this alias (and the include) is all that changes.
using firebase::Future;
using firebase::auth::Auth;
using firebase::auth::AuthResult;
using firebase::auth::User;

namespace {

bool g_failed = false;

void Fail(const char* what, const firebase::FutureBase& future) {
  std::fprintf(stderr, "FAILED: %s: error %d: %s\n", what, future.error(),
               future.error_message() ? future.error_message() : "(invalid future)");
  g_failed = true;
}

// Waits the way the Firebase C++ samples do: poll status() once per "frame". A game checks once per
// frame and draws meanwhile instead of sleeping.
bool WaitForFuture(const firebase::FutureBase& future, const char* what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (future.status() == firebase::kFutureStatusPending) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "FAILED: %s: timed out\n", what);
      g_failed = true;
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(16));
  }
  if (future.error() != firebase::auth::kAuthErrorNone) {
    Fail(what, future);
    return false;
  }
  return true;
}

// Waits (at most 10 s) for something a callback on Hearth's loop thread will do.
bool WaitUntil(const std::function<bool()>& done, const char* what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "FAILED: %s did not happen\n", what);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// Told whenever the signed-in user changes. Runs on Hearth's loop thread.
class PrintingAuthStateListener : public firebase::auth::AuthStateListener {
 public:
  void OnAuthStateChanged(Auth* auth) override {
    User user = auth->current_user();
    std::printf("   [listener] %s\n", user.is_valid() ? ("signed in: " + user.uid()).c_str() : "signed out");
    calls.fetch_add(1);
  }
  std::atomic<int> calls{0};
};

// ---- Emulator only: the person in front of the browser -------------------------------------------
// In a shipped game the UI delegate opens the system browser and a person signs in. Against
// hearth-emulator, whose provider page is a fake identity provider, this thread plays that person: it
// picks an account on the page (an HTTP GET with the choice in the query, answered by a 303 redirect)
// and follows the redirect to Hearth's loopback receiver, as a browser would.

struct HttpReply {
  int status = 0;
  std::string location;
};

// A minimal HTTP/1.1 GET for http://HOST:PORT/... URLs on this machine.
HttpReply HttpGet(const std::string& url) {
  HttpReply reply;
  const std::string prefix = "http://";
  if (url.compare(0, prefix.size(), prefix) != 0) return reply;
  const size_t slash = url.find('/', prefix.size());
  const std::string authority = url.substr(prefix.size(), slash - prefix.size());
  const std::string target = slash == std::string::npos ? "/" : url.substr(slash);
  const size_t colon = authority.rfind(':');
  if (colon == std::string::npos) return reply;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(std::atoi(authority.c_str() + colon + 1)));
  if (inet_pton(AF_INET, authority.substr(0, colon).c_str(), &address.sin_addr) != 1) return reply;
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return reply;
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    const std::string request = "GET " + target + " HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n\r\n";
    if (send(fd, request.data(), request.size(), 0) == static_cast<ssize_t>(request.size())) {
      std::string response;
      char buffer[4096];
      for (ssize_t n; (n = recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, static_cast<size_t>(n));
      std::sscanf(response.c_str(), "HTTP/1.%*d %d", &reply.status);
      const size_t at = response.find("\r\nlocation: ") != std::string::npos ? response.find("\r\nlocation: ")
                                                                             : response.find("\r\nLocation: ");
      if (at != std::string::npos) {
        const size_t start = at + 12;
        reply.location = response.substr(start, response.find("\r\n", start) - start);
      }
    }
  }
  close(fd);
  return reply;
}

// Chooses `account` (a query fragment such as "email=...&displayName=...") on the emulator's page at
// `page_url`, then lets the browser follow the redirect back to the app. True when the app got it.
bool PlayThePerson(const std::string& page_url, const std::string& account) {
  const HttpReply choice = HttpGet(page_url + (page_url.find('?') == std::string::npos ? "?" : "&") + account);
  if (choice.status != 303 || choice.location.empty()) return false;
  return HttpGet(choice.location).status == 200;  // Hearth's loopback receiver answers "return to the app"
}

}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (!std::getenv("FIREBASE_AUTH_EMULATOR_HOST")) {
    std::fprintf(stderr, "Set FIREBASE_AUTH_EMULATOR_HOST (or run `make examples`, which starts hearth-emulator).\n");
    return 1;
  }

  // ---- App and Auth, as in the Firebase C++ SDK ----------------------------------------------------
  firebase::AppOptions options;
  options.set_api_key("example-api-key");
  options.set_project_id("demo-hearth");
  options.set_persistence(firebase::kPersistenceNone);  // Hearth: choose persistence (file, none, your storage)
  firebase::App* app = firebase::App::Create(options);
  if (!app) return 1;
  Auth* auth = Auth::GetAuth(app);  // FIREBASE_AUTH_EMULATOR_HOST routes it to the emulator

  // Listeners are called once soon after being added (on the loop thread), then on every change.
  std::printf("0. AddAuthStateListener\n");
  PrintingAuthStateListener listener;
  auth->AddAuthStateListener(&listener);
  if (!WaitUntil([&listener] { return listener.calls > 0; }, "the listener's first call")) return 1;

  const std::string email = "ada-" + std::to_string(getpid()) + "@example.com";
  const std::string password = "analytical-engine";

  // ---- CreateUserWithEmailAndPassword, with an OnCompletion lambda ---------------------------------
  std::printf("1. CreateUserWithEmailAndPassword (OnCompletion)\n");
  std::atomic<bool> created{false};
  auth->CreateUserWithEmailAndPassword(email.c_str(), password.c_str())
      .OnCompletion([&created](const Future<AuthResult>& result) {
        // Runs on Hearth's loop thread once the request finishes.
        if (result.error() == firebase::auth::kAuthErrorNone) {
          std::printf("   created %s (uid %s)\n", result.result()->user.email().c_str(),
                      result.result()->user.uid().c_str());
        }
        created = true;
      });
  // The Firebase way to find that future again: *LastResult().
  if (!WaitForFuture(auth->CreateUserWithEmailAndPasswordLastResult(), "creating the user")) return 1;
  if (!WaitUntil([&created] { return created.load(); }, "the OnCompletion callback")) return 1;

  // ---- SignOut, then SignInWithEmailAndPassword polled through LastResult --------------------------
  std::printf("2. SignOut, then SignInWithEmailAndPassword (polling LastResult)\n");
  auth->SignOut();
  auth->SignInWithEmailAndPassword(email.c_str(), password.c_str());
  Future<AuthResult> sign_in = auth->SignInWithEmailAndPasswordLastResult();
  if (!WaitForFuture(sign_in, "signing in")) return 1;
  const AuthResult& signed_in = *sign_in.result();
  std::printf("   signed in with \"%s\"\n", signed_in.additional_user_info.provider_id.c_str());

  // ---- Errors carry the C++ SDK's codes and the server's message ------------------------------------
  std::printf("3. A wrong password\n");
  Future<AuthResult> wrong = auth->SignInWithEmailAndPassword(email.c_str(), "not the password");
  wrong.Wait();  // Hearth: Future::Wait (Firebase has it only internally)
  if (wrong.error() != firebase::auth::kAuthErrorWrongPassword &&
      wrong.error() != firebase::auth::kAuthErrorInvalidCredential) {
    Fail("a wrong password should fail with kAuthErrorWrongPassword", wrong);
    return 1;
  }
  std::printf("   error %d: %s\n", wrong.error(), wrong.error_message());

  // ---- The User: token and profile -----------------------------------------------------------------
  std::printf("4. GetToken and UpdateUserProfile\n");
  User user = auth->current_user();  // a snapshot of the signed-in user
  Future<std::string> token = user.GetToken(false);
  if (!WaitForFuture(token, "getting the ID token")) return 1;
  std::printf("   ID token: %zu characters (send it to your server; never log it)\n", token.result()->size());
  User::UserProfile profile;
  profile.display_name = "Ada Lovelace";
  if (!WaitForFuture(user.UpdateUserProfile(profile), "updating the profile")) return 1;
  std::printf("   display name: %s\n", auth->current_user().display_name().c_str());  // a fresh snapshot

  // ---- Hearth: provider sign-in on a desktop (the Firebase desktop build answers Unimplemented) ------
  std::printf("5. SignInWithProvider(FederatedOAuthProvider microsoft.com)\n");
  std::thread person;
  firebase::auth::ProviderFlowOptions flow;
  // The UI delegate. It runs on Hearth's loop thread and must return at once: the redirect that ends
  // the flow arrives on that same thread. A shipped game opens the system browser here.
  flow.open_url = [&person](const std::string& url) {
    std::printf("   open in a browser: %.72s...\n", url.c_str());
    person = std::thread([url] {
      if (!PlayThePerson(url, "email=ada.microsoft%40example.com&displayName=Ada%20L."))
        std::fprintf(stderr, "   the emulator's page did not sign in\n");
    });
    return true;
  };
  if (auth->SetProviderFlowOptions(flow) != firebase::auth::kAuthErrorNone) return 1;
  firebase::auth::FederatedOAuthProviderData microsoft(firebase::auth::MicrosoftAuthProvider::kProviderId,
                                                       {"mail.read"}, {{"prompt", "select_account"}});
  firebase::auth::FederatedOAuthProvider provider(microsoft);
  auth->SignOut();
  Future<AuthResult> federated = auth->SignInWithProvider(&provider);
  const bool federated_ok = WaitForFuture(federated, "signing in with Microsoft");
  if (person.joinable()) person.join();
  if (!federated_ok) return 1;
  const AuthResult& microsoft_result = *federated.result();
  std::printf("   signed in: %s <%s>, provider %s, new user: %s\n", microsoft_result.user.display_name().c_str(),
              microsoft_result.user.email().c_str(), microsoft_result.additional_user_info.provider_id.c_str(),
              microsoft_result.additional_user_info.is_new_user ? "yes" : "no");

  // ---- Clean up ------------------------------------------------------------------------------------
  std::printf("6. Delete the Microsoft user, then the app\n");
  if (!WaitForFuture(auth->current_user().Delete(), "deleting the user")) return 1;
  auth->RemoveAuthStateListener(&listener);  // waits for a running callback: then no more calls
  const int listener_calls = listener.calls.load();
  delete app;  // deletes its Auth too; cancels anything in flight without waiting on the network

  // One call after AddAuthStateListener, then one per change of user: created, signed out, signed in,
  // signed out, Microsoft, deleted.
  std::printf("   auth-state listener calls: %d\n", listener_calls);
  if (listener_calls != 7) {
    std::fprintf(stderr, "FAILED: expected 7 auth-state listener calls\n");
    return 1;
  }
  if (g_failed) return 1;
  std::printf("OK\n");
  return 0;
}
