/*
 * hearth_compat/auth_impl.h — part of Hearth's Firebase C++ SDK compatibility layer; not for direct use.
 *
 * The definitions behind firebase/auth.h, firebase/auth/user.h and firebase/auth/credential.h, on
 * hearth.hpp's API:
 * - AuthData: one per firebase::auth::Auth, shared with the Users that refer to it. It borrows the
 *   App's hearth::App for each call (so a call never races the App's deletion) and keeps each
 *   operation's latest Future for the XxxLastResult() calls.
 * - Users are handles: each call reads, or acts on, the Hearth Auth's signed-in user of that moment.
 * - Listeners are bridged: each (Auth, listener) pair registers a Hearth listener that forwards to
 *   the Firebase one until it is removed; removal closes the bridge first, so no call reaches a
 *   listener after its removal returns.
 */
#ifndef HEARTH_COMPAT_AUTH_IMPL_H
#define HEARTH_COMPAT_AUTH_IMPL_H

#include "firebase/auth.h"
#include "firebase/auth/credential.h"
#include "firebase/auth/user.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "firebase/app.h"
#include "firebase/log.h"
#include "hearth.hpp"
#include "hearth_compat/future_api.h"
#include "hearth_compat/json.h"

namespace firebase {
namespace auth {

/// The state one Auth shares with its Users and PhoneAuthProvider.
struct AuthData : std::enable_shared_from_this<AuthData> {
  AuthData() = default;
  ~AuthData() { delete phone_provider; }
  AuthData(const AuthData&) = delete;
  AuthData& operator=(const AuthData&) = delete;

  /// The Hearth app for one call; nullptr once the App or this Auth is gone.
  std::shared_ptr<hearth::App> Borrow() const {
    std::lock_guard<std::mutex> lock(mutex);
    return hearth_app.lock();
  }

  /// Keeps `future` as the latest of operation `fn`.
  template <typename T>
  Future<T> Record(int fn, const Future<T>& future) {
    std::lock_guard<std::mutex> lock(mutex);
    last_results[fn] = future;
    return future;
  }
  /// Forgets the latest Future of `fn` (its XxxLastResult() becomes invalid), as the SDK does when an
  /// operation is asked of a signed-out user.
  void Invalidate(int fn) {
    FutureBase dropped;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = last_results.find(fn);
    if (it == last_results.end()) return;
    dropped = std::move(it->second);
    last_results.erase(it);
  }
  template <typename T>
  Future<T> Last(int fn) const {
    Future<T> future;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = last_results.find(fn);
    if (it != last_results.end()) static_cast<FutureBase&>(future) = it->second;
    return future;
  }

  App* app = nullptr;
  mutable std::mutex mutex;
  Auth* auth = nullptr;                   // guarded; nullptr once the Auth is deleted
  std::weak_ptr<hearth::App> hearth_app;  // guarded; reset when the App or the Auth goes
  bool provider_flow_ready = false;       // guarded: hearth::compat::SetProviderFlowOptions succeeded
  std::map<int, FutureBase> last_results;  // guarded
  PhoneAuthProvider* phone_provider = nullptr;  // guarded; owned
};

}  // namespace auth
}  // namespace firebase

namespace hearth {
namespace compat {
namespace detail {

using firebase::Future;
using firebase::auth::AuthData;

// The operations whose latest Future an Auth keeps (the SDK's function indices, here private).
enum AuthFn {
  kFnFetchProvidersForEmail,
  kFnSignInWithCustomToken,
  kFnSignInWithCredential,
  kFnSignInWithProvider,
  kFnSignInAndRetrieveDataWithCredential,
  kFnSignInAnonymously,
  kFnSignInWithEmailAndPassword,
  kFnCreateUserWithEmailAndPassword,
  kFnSendPasswordResetEmail,
  kFnGetToken,
  kFnUpdatePassword,
  kFnUpdateEmail,
  kFnReauthenticate,
  kFnReauthenticateAndRetrieveData,
  kFnReauthenticateWithProvider,
  kFnSendEmailVerification,
  kFnSendEmailVerificationBeforeUpdatingEmail,
  kFnUpdateUserProfile,
  kFnLinkWithCredential,
  kFnLinkWithProvider,
  kFnUnlink,
  kFnUpdatePhoneNumberCredential,
  kFnReload,
  kFnDelete,
};

inline hearth::auth::Auth* HearthAuth(const std::shared_ptr<hearth::App>& app) {
  return app ? hearth::auth::Auth::GetAuth(app.get()) : nullptr;
}

// The Hearth Auth's signed-in user now (invalid when nobody is, or the App or Auth is gone).
inline hearth::auth::User CurrentHearthUser(const std::shared_ptr<AuthData>& data) {
  std::shared_ptr<hearth::App> app = data ? data->Borrow() : nullptr;
  return app ? HearthAuth(app)->current_user() : hearth::auth::User();
}

// The identity provider's profile as the SDK gives it: the top-level JSON object as a Variant map.
inline std::map<firebase::Variant, firebase::Variant> ParseProfile(const std::string& json) {
  firebase::Variant parsed;
  std::string problem;
  if (json.empty() || !ParseJson(json, &parsed, &problem)) {
    if (!json.empty()) Log(firebase::kLogLevelError, "The user profile from the server is not JSON: %s", problem.c_str());
    return {};
  }
  if (!parsed.is_map()) {
    Log(firebase::kLogLevelError, "Expected the user profile from the server to be a JSON object.");
    return {};
  }
  return parsed.map();
}

// Everything that builds or reads the private parts of the Firebase types.
struct Access {
  static firebase::auth::Credential MakeCredential(const hearth::auth::Credential& credential) {
    return firebase::auth::Credential(
        credential.is_valid() ? std::make_shared<const hearth::auth::Credential>(credential) : nullptr);
  }
  static firebase::auth::PhoneAuthCredential MakePhoneCredential(const hearth::auth::PhoneAuthCredential& credential) {
    return firebase::auth::PhoneAuthCredential(
        credential.is_valid() ? std::make_shared<const hearth::auth::PhoneAuthCredential>(credential) : nullptr);
  }
  static const hearth::auth::Credential& HearthCredential(const firebase::auth::Credential& credential) {
    static const hearth::auth::Credential* invalid = new hearth::auth::Credential();
    return credential.credential_ ? *credential.credential_ : *invalid;
  }
  static hearth::auth::PhoneAuthCredential HearthPhoneCredential(const firebase::auth::PhoneAuthCredential& credential) {
    const auto* phone = dynamic_cast<const hearth::auth::PhoneAuthCredential*>(credential.credential_.get());
    return phone ? *phone : hearth::auth::PhoneAuthCredential();
  }
  static firebase::auth::PhoneAuthProvider::ForceResendingToken MakeToken(
      const hearth::auth::PhoneAuthProvider::ForceResendingToken& token) {
    firebase::auth::PhoneAuthProvider::ForceResendingToken out;
    out.token_ = token;
    return out;
  }
  static hearth::auth::PhoneAuthProvider::ForceResendingToken* HearthToken(
      firebase::auth::PhoneAuthProvider::ForceResendingToken* token) {
    return token ? &token->token_ : nullptr;
  }
  static firebase::auth::User MakeUser(std::shared_ptr<AuthData> data) { return firebase::auth::User(std::move(data)); }
  static firebase::auth::UserInfoInterface MakeUserInfo(const hearth::auth::UserInfoInterface& info) {
    firebase::auth::UserInfoInterface out;
    out.uid_ = info.uid();
    out.email_ = info.email();
    out.display_name_ = info.display_name();
    out.photo_url_ = info.photo_url();
    out.provider_id_ = info.provider_id();
    out.phone_number_ = info.phone_number();
    return out;
  }
  static const std::shared_ptr<AuthData>& Data(const firebase::auth::User& user) { return user.auth_data_; }
  static const std::shared_ptr<AuthData>& Data(const firebase::auth::Auth& auth) { return auth.auth_data_; }
  static firebase::auth::Auth* NewAuth(std::shared_ptr<AuthData> data) { return new firebase::auth::Auth(std::move(data)); }
  static std::vector<firebase::auth::Auth*>& Auths(firebase::auth::AuthStateListener* listener) {
    return listener->auths_;
  }
  static std::vector<firebase::auth::Auth*>& Auths(firebase::auth::IdTokenListener* listener) {
    return listener->auths_;
  }
  static hearth::auth::FederatedOAuthProviderData HearthProviderData(const firebase::auth::FederatedOAuthProvider& provider) {
    const firebase::auth::FederatedOAuthProviderData& data = provider.provider_data_;
    return hearth::auth::FederatedOAuthProviderData(data.provider_id, data.scopes, data.custom_parameters);
  }
  static firebase::auth::PhoneAuthProvider* NewPhoneProvider(const std::shared_ptr<AuthData>& data) {
    firebase::auth::PhoneAuthProvider* provider = new firebase::auth::PhoneAuthProvider();
    provider->auth_data_ = data;
    return provider;
  }
  static std::shared_ptr<AuthData> Data(const firebase::auth::PhoneAuthProvider& provider) {
    return provider.auth_data_.lock();
  }
};

// ---- results --------------------------------------------------------------------------------------------

inline firebase::auth::AuthResult ToAuthResult(const hearth::auth::AuthResult* result,
                                               const std::shared_ptr<AuthData>& data) {
  firebase::auth::AuthResult out;
  if (result == nullptr) return out;
  if (result->user.is_valid()) out.user = Access::MakeUser(data);
  out.credential = Access::MakeCredential(result->credential);
  const hearth::auth::AdditionalUserInfo& info = result->additional_user_info;
  out.additional_user_info.provider_id = info.provider_id;
  out.additional_user_info.user_name = info.user_name;
  out.additional_user_info.profile = ParseProfile(info.profile_json);
  out.additional_user_info.updated_credential = Access::MakeCredential(info.updated_credential);
  return out;
}

inline Future<firebase::auth::AuthResult> WrapAuthResult(hearth::Future<hearth::auth::AuthResult> future,
                                                         const std::shared_ptr<AuthData>& data) {
  return FromHearth<firebase::auth::AuthResult>(std::move(future),
                                                [data](const hearth::Future<hearth::auth::AuthResult>& done) {
                                                  return ToAuthResult(done.result(), data);
                                                });
}

inline Future<firebase::auth::User> WrapUser(hearth::Future<hearth::auth::User> future,
                                             const std::shared_ptr<AuthData>& data) {
  return FromHearth<firebase::auth::User>(std::move(future), [data](const hearth::Future<hearth::auth::User>& done) {
    const hearth::auth::User* user = done.result();
    return user && user->is_valid() ? Access::MakeUser(data) : firebase::auth::User();
  });
}

inline Future<std::string> WrapString(hearth::Future<std::string> future) {
  return FromHearth<std::string>(std::move(future), [](const hearth::Future<std::string>& done) {
    return done.result() ? *done.result() : std::string();
  });
}

// An operation of the Auth: `call` runs on the Hearth Auth; the Future becomes fn's latest. Invalid
// for an Auth whose App is gone.
template <typename T, typename Call>
Future<T> AuthOperation(const std::shared_ptr<AuthData>& data, int fn, Call call) {
  std::shared_ptr<hearth::App> app = data ? data->Borrow() : nullptr;
  if (!app) {
    if (data) data->Invalidate(fn);
    return Future<T>();
  }
  return data->Record(fn, call(HearthAuth(app)));
}

// An operation of the signed-in user: `call` runs on the Hearth snapshot of that user. Invalid, and fn's
// latest Future forgotten, while nobody is signed in (the SDK's desktop rule).
template <typename T, typename Call>
Future<T> UserOperation(const std::shared_ptr<AuthData>& data, int fn, Call call) {
  if (!data) return Future<T>();
  hearth::auth::User current = CurrentHearthUser(data);
  if (!current.is_valid()) {
    data->Invalidate(fn);
    return Future<T>();
  }
  return data->Record(fn, call(current));
}

// Until the host gives the Auth a UI delegate, a desktop has no way to show a provider's page: the
// SDK's desktop answer.
inline Future<firebase::auth::AuthResult> ProviderFlowUnavailable(const std::shared_ptr<AuthData>& data, int fn) {
  return data->Record(fn, CompletedFuture<firebase::auth::AuthResult>(
                              firebase::auth::kAuthErrorUnimplemented,
                              "Provider sign-in needs a way to show the provider's page on a desktop: call "
                              "hearth::compat::SetProviderFlowOptions first.",
                              firebase::auth::AuthResult()));
}

inline bool ProviderFlowReady(const std::shared_ptr<AuthData>& data) {
  std::lock_guard<std::mutex> lock(data->mutex);
  return data->provider_flow_ready;
}

template <typename T>
Future<T> LastResult(const std::shared_ptr<AuthData>& data, int fn) {
  return data ? data->Last<T>(fn) : Future<T>();
}

// ---- listeners ----------------------------------------------------------------------------------------

// Lets calls through to a Firebase listener until closed; closing waits for a call running on another
// thread (a call on this thread may close it from inside). The Firebase SDK calls a listener once
// inside AddXxxListener; Hearth makes that first call on a later loop turn. The bridge makes the SDK's
// call itself (Deliver) and drops Hearth's first one, which Hearth schedules apart from the calls for
// later changes.
class ListenerGate {
 public:
  template <typename Call>
  void Run(Call call, bool from_hearth) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    if (from_hearth && !hearth_first_call_seen_) {
      hearth_first_call_seen_ = true;
      return;
    }
    if (open_) call();
  }
  void Close() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    open_ = false;
  }

 private:
  std::recursive_mutex mutex_;
  bool open_ = true;
  bool hearth_first_call_seen_ = false;
};

class AuthStateBridge final : public hearth::auth::AuthStateListener,
                              public std::enable_shared_from_this<AuthStateBridge> {
 public:
  AuthStateBridge(firebase::auth::Auth* auth, firebase::auth::AuthStateListener* listener, std::weak_ptr<hearth::App> app)
      : auth_(auth), listener_(listener), app_(std::move(app)) {}
  // Unregistered before the members go, so no Hearth call finds them destroyed.
  ~AuthStateBridge() override {
    if (auto app = app_.lock()) HearthAuth(app)->RemoveAuthStateListener(this);
  }
  void OnAuthStateChanged(hearth::auth::Auth*) override {
    // Held during the call: a listener that removes itself from its own callback drops the last
    // other reference.
    std::shared_ptr<AuthStateBridge> keep = weak_from_this().lock();
    if (!keep) return;
    gate_.Run([this] { listener_->OnAuthStateChanged(auth_); }, /*from_hearth=*/true);
  }
  void Register(hearth::auth::Auth* auth) { auth->AddAuthStateListener(this); }
  // The call the SDK makes inside AddAuthStateListener, on the caller's thread.
  void Deliver() {
    gate_.Run([this] { listener_->OnAuthStateChanged(auth_); }, /*from_hearth=*/false);
  }
  void Close() { gate_.Close(); }

 private:
  firebase::auth::Auth* const auth_;
  firebase::auth::AuthStateListener* const listener_;
  const std::weak_ptr<hearth::App> app_;
  ListenerGate gate_;
};

class IdTokenBridge final : public hearth::auth::IdTokenListener, public std::enable_shared_from_this<IdTokenBridge> {
 public:
  IdTokenBridge(firebase::auth::Auth* auth, firebase::auth::IdTokenListener* listener, std::weak_ptr<hearth::App> app)
      : auth_(auth), listener_(listener), app_(std::move(app)) {}
  ~IdTokenBridge() override {
    if (auto app = app_.lock()) HearthAuth(app)->RemoveIdTokenListener(this);
  }
  void OnIdTokenChanged(hearth::auth::Auth*) override {
    std::shared_ptr<IdTokenBridge> keep = weak_from_this().lock();
    if (!keep) return;
    gate_.Run([this] { listener_->OnIdTokenChanged(auth_); }, /*from_hearth=*/true);
  }
  void Register(hearth::auth::Auth* auth) { auth->AddIdTokenListener(this); }
  void Deliver() {
    gate_.Run([this] { listener_->OnIdTokenChanged(auth_); }, /*from_hearth=*/false);
  }
  void Close() { gate_.Close(); }

 private:
  firebase::auth::Auth* const auth_;
  firebase::auth::IdTokenListener* const listener_;
  const std::weak_ptr<hearth::App> app_;
  ListenerGate gate_;
};

// Which listeners are registered with which Auth (and each listener's auths_), under one lock that is
// never held while Hearth or a listener runs.
struct ListenerTables {
  std::mutex mutex;
  std::map<std::pair<const firebase::auth::Auth*, const void*>, std::shared_ptr<AuthStateBridge>> auth_state;
  std::map<std::pair<const firebase::auth::Auth*, const void*>, std::shared_ptr<IdTokenBridge>> id_token;
  // Every live Auth by App (GetAuth's one-per-App rule).
  std::map<const firebase::App*, firebase::auth::Auth*> auths;
};

inline ListenerTables& Tables() {
  static ListenerTables* tables = new ListenerTables();
  return *tables;
}

template <typename Listener>
void EraseAuth(Listener* listener, const firebase::auth::Auth* auth) {
  std::vector<firebase::auth::Auth*>& auths = Access::Auths(listener);
  for (auto it = auths.begin(); it != auths.end(); ++it) {
    if (*it == auth) {
      auths.erase(it);
      return;
    }
  }
}

template <typename Bridge, typename Listener>
void AddListener(std::map<std::pair<const firebase::auth::Auth*, const void*>, std::shared_ptr<Bridge>>& table,
                 firebase::auth::Auth* auth, Listener* listener, const std::shared_ptr<AuthData>& data) {
  if (listener == nullptr) return;
  std::shared_ptr<hearth::App> app = data->Borrow();
  if (!app) return;
  std::shared_ptr<Bridge> bridge;
  {
    std::lock_guard<std::mutex> lock(Tables().mutex);
    auto key = std::make_pair(static_cast<const firebase::auth::Auth*>(auth), static_cast<const void*>(listener));
    if (table.count(key)) return;
    bridge = std::make_shared<Bridge>(auth, listener, app);
    table[key] = bridge;
    Access::Auths(listener).push_back(auth);
  }
  // A removal racing this call closes the bridge; the reference held here keeps it alive until the
  // Hearth registration is made, and its destructor undoes that registration.
  bridge->Register(HearthAuth(app));
  bridge->Deliver();
}

template <typename Bridge, typename Listener>
void RemoveListener(std::map<std::pair<const firebase::auth::Auth*, const void*>, std::shared_ptr<Bridge>>& table,
                    const firebase::auth::Auth* auth, Listener* listener) {
  if (listener == nullptr) return;
  std::shared_ptr<Bridge> bridge;
  {
    std::lock_guard<std::mutex> lock(Tables().mutex);
    auto it = table.find(std::make_pair(auth, static_cast<const void*>(listener)));
    if (it != table.end()) {
      bridge = std::move(it->second);
      table.erase(it);
    }
    EraseAuth(listener, auth);
  }
  if (bridge) {
    bridge->Close();
    bridge.reset();
  }
}

// Lets an Auth go: its listeners are removed and its Users and provider stop reaching Hearth.
inline void DetachAuth(const std::shared_ptr<AuthData>& data, const firebase::auth::Auth* auth) {
  std::vector<std::shared_ptr<AuthStateBridge>> states;
  std::vector<std::shared_ptr<IdTokenBridge>> tokens;
  {
    ListenerTables& tables = Tables();
    std::lock_guard<std::mutex> lock(tables.mutex);
    for (auto it = tables.auth_state.begin(); it != tables.auth_state.end();) {
      if (it->first.first == auth) {
        EraseAuth(static_cast<firebase::auth::AuthStateListener*>(const_cast<void*>(it->first.second)), auth);
        states.push_back(std::move(it->second));
        it = tables.auth_state.erase(it);
      } else {
        ++it;
      }
    }
    for (auto it = tables.id_token.begin(); it != tables.id_token.end();) {
      if (it->first.first == auth) {
        EraseAuth(static_cast<firebase::auth::IdTokenListener*>(const_cast<void*>(it->first.second)), auth);
        tokens.push_back(std::move(it->second));
        it = tables.id_token.erase(it);
      } else {
        ++it;
      }
    }
    auto registered = tables.auths.find(data->app);
    if (registered != tables.auths.end() && registered->second == auth) tables.auths.erase(registered);
  }
  for (auto& bridge : states) bridge->Close();
  for (auto& bridge : tokens) bridge->Close();
  states.clear();
  tokens.clear();
  // The LastResult slots go with the Auth. (Their results hold Users, which hold this AuthData: kept,
  // they would keep each other alive.)
  std::map<int, firebase::FutureBase> last_results;
  std::lock_guard<std::mutex> lock(data->mutex);
  data->hearth_app.reset();
  if (data->auth == auth) data->auth = nullptr;
  last_results.swap(data->last_results);
}

// USE_AUTH_EMULATOR (any value) and AUTH_EMULATOR_PORT, read when an Auth is created as the SDK does.
inline void ApplyEmulatorEnvironment(hearth::auth::Auth* auth) {
  if (std::getenv("USE_AUTH_EMULATOR") == nullptr) return;
  const char* text = std::getenv("AUTH_EMULATOR_PORT");
  long port = 9099;
  if (text != nullptr) {
    char* end = nullptr;
    port = (*text >= '0' && *text <= '9') ? std::strtol(text, &end, 10) : -1;
    if (end == nullptr || *end != '\0' || port < 1 || port > 65535) {
      // The SDK pastes the value into its URLs, and every request fails; so do these, on a name that
      // can never resolve (RFC 6761), rather than reach production.
      Log(firebase::kLogLevelError, "AUTH_EMULATOR_PORT \"%s\" is not a port number: Auth requests will fail.", text);
      auth->UseEmulator("auth-emulator-port-is-invalid.invalid", 9099);
      return;
    }
  }
  auth->UseEmulator("localhost", static_cast<uint32_t>(port));
  Log(firebase::kLogLevelInfo, "Using Auth Emulator: localhost:%ld", port);
}

// Forwards a Hearth phone listener's calls to a Firebase one.
class PhoneListenerBridge final : public hearth::auth::PhoneAuthProvider::Listener {
 public:
  explicit PhoneListenerBridge(firebase::auth::PhoneAuthProvider::Listener* owner) : owner_(owner) {}
  void OnVerificationCompleted(hearth::auth::PhoneAuthCredential credential) override {
    owner_->OnVerificationCompleted(Access::MakePhoneCredential(credential));
  }
  void OnVerificationFailed(const std::string& error) override { owner_->OnVerificationFailed(error); }
  void OnCodeSent(const std::string& verification_id,
                  const hearth::auth::PhoneAuthProvider::ForceResendingToken& token) override {
    owner_->OnCodeSent(verification_id, Access::MakeToken(token));
  }
  void OnCodeAutoRetrievalTimeOut(const std::string& verification_id) override {
    owner_->OnCodeAutoRetrievalTimeOut(verification_id);
  }

 private:
  firebase::auth::PhoneAuthProvider::Listener* const owner_;
};

struct GameCenterState {
  std::mutex mutex;
  Future<firebase::auth::Credential> last;
};

inline GameCenterState& GameCenter() {
  static GameCenterState* state = new GameCenterState();
  return *state;
}

}  // namespace detail
}  // namespace compat
}  // namespace hearth

namespace firebase {
namespace auth {

// ---- credentials ---------------------------------------------------------------------------------------

inline Credential EmailAuthProvider::GetCredential(const char* email, const char* password) {
  return hearth::compat::detail::Access::MakeCredential(hearth::auth::EmailAuthProvider::GetCredential(email, password));
}

inline Credential FacebookAuthProvider::GetCredential(const char* access_token) {
  return hearth::compat::detail::Access::MakeCredential(hearth::auth::FacebookAuthProvider::GetCredential(access_token));
}

inline Future<Credential> GameCenterAuthProvider::GetCredential() {
  Future<Credential> future = hearth::compat::detail::CompletedFuture<Credential>(
      kAuthErrorInvalidCredential, "Game Center is not available on this platform.", Credential());
  hearth::compat::detail::GameCenterState& state = hearth::compat::detail::GameCenter();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.last = future;
  return future;
}

inline Future<Credential> GameCenterAuthProvider::GetCredentialLastResult() {
  hearth::compat::detail::GameCenterState& state = hearth::compat::detail::GameCenter();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.last;
}

inline bool GameCenterAuthProvider::IsPlayerAuthenticated() { return false; }

inline Credential GitHubAuthProvider::GetCredential(const char* token) {
  return hearth::compat::detail::Access::MakeCredential(hearth::auth::GitHubAuthProvider::GetCredential(token));
}

inline Credential GoogleAuthProvider::GetCredential(const char* id_token, const char* access_token) {
  return hearth::compat::detail::Access::MakeCredential(
      hearth::auth::GoogleAuthProvider::GetCredential(id_token, access_token));
}

inline Credential OAuthProvider::GetCredential(const char* provider_id, const char* id_token, const char* access_token) {
  return hearth::compat::detail::Access::MakeCredential(
      hearth::auth::OAuthProvider::GetCredential(provider_id, id_token, access_token));
}

inline Credential OAuthProvider::GetCredential(const char* provider_id, const char* id_token, const char* raw_nonce,
                                               const char* access_token) {
  return hearth::compat::detail::Access::MakeCredential(
      hearth::auth::OAuthProvider::GetCredential(provider_id, id_token, raw_nonce, access_token));
}

inline Credential PlayGamesAuthProvider::GetCredential(const char* server_auth_code) {
  return hearth::compat::detail::Access::MakeCredential(
      hearth::auth::PlayGamesAuthProvider::GetCredential(server_auth_code));
}

inline Credential TwitterAuthProvider::GetCredential(const char* token, const char* secret) {
  return hearth::compat::detail::Access::MakeCredential(hearth::auth::TwitterAuthProvider::GetCredential(token, secret));
}

// ---- phone numbers -------------------------------------------------------------------------------------

inline PhoneAuthOptions::PhoneAuthOptions() : force_resending_token(nullptr), timeout_milliseconds(0), ui_parent(nullptr) {}

inline PhoneAuthProvider::Listener::Listener() : bridge_(new hearth::compat::detail::PhoneListenerBridge(this)) {}

// Destroying the bridge unregisters it, waiting for a callback running on another thread.
inline PhoneAuthProvider::Listener::~Listener() {}

inline void PhoneAuthProvider::Listener::OnCodeSent(const std::string&, const ForceResendingToken&) {}

inline void PhoneAuthProvider::Listener::OnCodeAutoRetrievalTimeOut(const std::string&) {}

inline PhoneAuthProvider::PhoneAuthProvider() {}

inline PhoneAuthProvider::~PhoneAuthProvider() {}

inline void PhoneAuthProvider::VerifyPhoneNumber(const PhoneAuthOptions& options, PhoneAuthProvider::Listener* listener) {
  using hearth::compat::detail::Log;
  if (listener == nullptr) {
    Log(kLogLevelError, "PhoneAuthProvider::VerifyPhoneNumber needs a listener.");
    return;
  }
  std::shared_ptr<AuthData> data = auth_data_.lock();
  std::shared_ptr<hearth::App> app = data ? data->Borrow() : nullptr;
  if (!app) {
    // No loop to report on: the listener hears it now.
    listener->OnVerificationFailed("The Auth of this PhoneAuthProvider is gone (its App was deleted).");
    return;
  }
  hearth::auth::PhoneAuthOptions hearth_options;
  hearth_options.phone_number = options.phone_number;
  hearth_options.timeout_milliseconds = options.timeout_milliseconds;
  hearth_options.force_resending_token = hearth::compat::detail::Access::HearthToken(options.force_resending_token);
  // Failures found during the call reach the listener on the loop thread, like every other outcome.
  hearth::auth::PhoneAuthProvider::GetInstance(hearth::compat::detail::HearthAuth(app))
      .VerifyPhoneNumber(hearth_options, listener->bridge_.get());
}

inline PhoneAuthCredential PhoneAuthProvider::GetCredential(const char* verification_id, const char* verification_code) {
  // Making the credential needs no Auth; Hearth's provider without one does it.
  hearth::auth::PhoneAuthCredential credential =
      hearth::auth::PhoneAuthProvider::GetInstance(nullptr).GetCredential(verification_id, verification_code);
  return hearth::compat::detail::Access::MakePhoneCredential(credential);
}

inline PhoneAuthProvider& PhoneAuthProvider::GetInstance(Auth* auth) {
  if (auth == nullptr) {
    // Never destroyed: references to it may be kept anywhere. Its verifications fail.
    static PhoneAuthProvider* detached = new PhoneAuthProvider();
    return *detached;
  }
  const std::shared_ptr<AuthData>& data = hearth::compat::detail::Access::Data(*auth);
  std::lock_guard<std::mutex> lock(data->mutex);
  if (data->phone_provider == nullptr) data->phone_provider = hearth::compat::detail::Access::NewPhoneProvider(data);
  return *data->phone_provider;
}

// ---- User -----------------------------------------------------------------------------------------------

inline bool User::operator==(const User& user) const { return is_valid() == user.is_valid(); }

inline bool User::operator!=(const User& user) const { return !(*this == user); }

inline bool User::is_valid() const { return hearth::compat::detail::CurrentHearthUser(auth_data_).is_valid(); }

inline Future<std::string> User::GetToken(bool force_refresh) {
  using namespace hearth::compat::detail;
  return UserOperation<std::string>(auth_data_, kFnGetToken, [force_refresh](const hearth::auth::User& user) {
    return WrapString(user.GetToken(force_refresh));
  });
}

inline Future<std::string> User::GetTokenLastResult() const {
  return hearth::compat::detail::LastResult<std::string>(auth_data_, hearth::compat::detail::kFnGetToken);
}

inline std::vector<UserInfoInterface> User::provider_data() const {
  std::vector<UserInfoInterface> out;
  for (const hearth::auth::UserInfoInterface& info : hearth::compat::detail::CurrentHearthUser(auth_data_).provider_data()) {
    out.push_back(hearth::compat::detail::Access::MakeUserInfo(info));
  }
  return out;
}

inline Future<void> User::UpdatePassword(const char* password) {
  using namespace hearth::compat::detail;
  return UserOperation<void>(auth_data_, kFnUpdatePassword, [password](const hearth::auth::User& user) {
    return FromHearth(user.UpdatePassword(password));
  });
}

inline Future<void> User::UpdatePasswordLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_, hearth::compat::detail::kFnUpdatePassword);
}

inline Future<void> User::UpdateEmail(const char* email) {
  using namespace hearth::compat::detail;
  return UserOperation<void>(auth_data_, kFnUpdateEmail,
                             [email](const hearth::auth::User& user) { return FromHearth(user.UpdateEmail(email)); });
}

inline Future<void> User::UpdateEmailLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_, hearth::compat::detail::kFnUpdateEmail);
}

inline Future<void> User::Reauthenticate(const Credential& credential) {
  using namespace hearth::compat::detail;
  return UserOperation<void>(auth_data_, kFnReauthenticate, [&credential](const hearth::auth::User& user) {
    return FromHearth(user.Reauthenticate(Access::HearthCredential(credential)));
  });
}

inline Future<void> User::ReauthenticateLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_, hearth::compat::detail::kFnReauthenticate);
}

inline Future<AuthResult> User::ReauthenticateAndRetrieveData(const Credential& credential) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return UserOperation<AuthResult>(auth_data_, kFnReauthenticateAndRetrieveData,
                                   [&credential, data](const hearth::auth::User& user) {
                                     return WrapAuthResult(
                                         user.ReauthenticateAndRetrieveData(Access::HearthCredential(credential)), data);
                                   });
}

inline Future<AuthResult> User::ReauthenticateAndRetrieveDataLastResult() const {
  return hearth::compat::detail::LastResult<AuthResult>(auth_data_,
                                                        hearth::compat::detail::kFnReauthenticateAndRetrieveData);
}

inline Future<AuthResult> User::ReauthenticateWithProvider(FederatedAuthProvider* provider) const {
  if (!auth_data_ || provider == nullptr) return Future<AuthResult>();
  return provider->Reauthenticate(auth_data_.get());
}

inline Future<void> User::SendEmailVerification() {
  using namespace hearth::compat::detail;
  return UserOperation<void>(auth_data_, kFnSendEmailVerification,
                             [](const hearth::auth::User& user) { return FromHearth(user.SendEmailVerification()); });
}

inline Future<void> User::SendEmailVerificationLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_, hearth::compat::detail::kFnSendEmailVerification);
}

inline Future<void> User::SendEmailVerificationBeforeUpdatingEmail(const char* email) {
  using namespace hearth::compat::detail;
  return UserOperation<void>(auth_data_, kFnSendEmailVerificationBeforeUpdatingEmail,
                             [email](const hearth::auth::User& user) {
                               return FromHearth(user.SendEmailVerificationBeforeUpdatingEmail(email));
                             });
}

inline Future<void> User::SendEmailVerificationBeforeUpdatingEmailLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_,
                                                  hearth::compat::detail::kFnSendEmailVerificationBeforeUpdatingEmail);
}

inline Future<void> User::UpdateUserProfile(const UserProfile& profile) {
  using namespace hearth::compat::detail;
  return UserOperation<void>(auth_data_, kFnUpdateUserProfile, [&profile](const hearth::auth::User& user) {
    hearth::auth::User::UserProfile hearth_profile;
    hearth_profile.display_name = profile.display_name;
    hearth_profile.photo_url = profile.photo_url;
    return FromHearth(user.UpdateUserProfile(hearth_profile));
  });
}

inline Future<void> User::UpdateUserProfileLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_, hearth::compat::detail::kFnUpdateUserProfile);
}

inline Future<AuthResult> User::LinkWithCredential(const Credential& credential) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return UserOperation<AuthResult>(auth_data_, kFnLinkWithCredential, [&credential, data](const hearth::auth::User& user) {
    return WrapAuthResult(user.LinkWithCredential(Access::HearthCredential(credential)), data);
  });
}

inline Future<AuthResult> User::LinkWithCredentialLastResult() const {
  return hearth::compat::detail::LastResult<AuthResult>(auth_data_, hearth::compat::detail::kFnLinkWithCredential);
}

inline Future<AuthResult> User::LinkWithProvider(FederatedAuthProvider* provider) const {
  if (!auth_data_ || provider == nullptr) return Future<AuthResult>();
  return provider->Link(auth_data_.get());
}

inline Future<AuthResult> User::Unlink(const char* provider) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return UserOperation<AuthResult>(auth_data_, kFnUnlink, [provider, data](const hearth::auth::User& user) {
    return WrapAuthResult(user.Unlink(provider), data);
  });
}

inline Future<AuthResult> User::UnlinkLastResult() const {
  return hearth::compat::detail::LastResult<AuthResult>(auth_data_, hearth::compat::detail::kFnUnlink);
}

inline Future<User> User::UpdatePhoneNumberCredential(const PhoneAuthCredential& credential) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return UserOperation<User>(auth_data_, kFnUpdatePhoneNumberCredential, [&credential, data](const hearth::auth::User& user) {
    return WrapUser(user.UpdatePhoneNumberCredential(Access::HearthPhoneCredential(credential)), data);
  });
}

inline Future<User> User::UpdatePhoneNumberCredentialLastResult() const {
  return hearth::compat::detail::LastResult<User>(auth_data_, hearth::compat::detail::kFnUpdatePhoneNumberCredential);
}

inline Future<void> User::Reload() {
  using namespace hearth::compat::detail;
  return UserOperation<void>(auth_data_, kFnReload, [](const hearth::auth::User& user) { return FromHearth(user.Reload()); });
}

inline Future<void> User::ReloadLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_, hearth::compat::detail::kFnReload);
}

inline Future<void> User::Delete() {
  using namespace hearth::compat::detail;
  return UserOperation<void>(auth_data_, kFnDelete, [](const hearth::auth::User& user) { return FromHearth(user.Delete()); });
}

inline Future<void> User::DeleteLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_, hearth::compat::detail::kFnDelete);
}

inline UserMetadata User::metadata() const {
  const hearth::auth::UserMetadata hearth_metadata = hearth::compat::detail::CurrentHearthUser(auth_data_).metadata();
  UserMetadata metadata;
  metadata.last_sign_in_timestamp = hearth_metadata.last_sign_in_timestamp;
  metadata.creation_timestamp = hearth_metadata.creation_timestamp;
  return metadata;
}

inline bool User::is_email_verified() const {
  return hearth::compat::detail::CurrentHearthUser(auth_data_).is_email_verified();
}

inline bool User::is_anonymous() const {
  if (!auth_data_) return false;
  const hearth::auth::User current = hearth::compat::detail::CurrentHearthUser(auth_data_);
  // A handle with nobody signed in reads as anonymous, as in the SDK's desktop build.
  return current.is_valid() ? current.is_anonymous() : true;
}

inline std::string User::uid() const { return hearth::compat::detail::CurrentHearthUser(auth_data_).uid(); }
inline std::string User::email() const { return hearth::compat::detail::CurrentHearthUser(auth_data_).email(); }
inline std::string User::display_name() const {
  return hearth::compat::detail::CurrentHearthUser(auth_data_).display_name();
}
inline std::string User::photo_url() const { return hearth::compat::detail::CurrentHearthUser(auth_data_).photo_url(); }
inline std::string User::provider_id() const {
  return hearth::compat::detail::CurrentHearthUser(auth_data_).provider_id();
}
inline std::string User::phone_number() const {
  return hearth::compat::detail::CurrentHearthUser(auth_data_).phone_number();
}

// ---- Auth -----------------------------------------------------------------------------------------------

inline Auth* Auth::GetAuth(App* app, InitResult* init_result_out) {
  using namespace hearth::compat::detail;
  if (app == nullptr) return nullptr;
  firebase::internal::AppInternal* internal = firebase::internal::AppAccess::Internal(app);
  std::shared_ptr<hearth::App> hearth_app;
  {
    std::lock_guard<std::mutex> lock(internal->mutex);
    hearth_app = internal->hearth_app;
  }
  if (!hearth_app) return nullptr;
  Auth* auth = nullptr;
  bool created = false;
  {
    ListenerTables& tables = Tables();
    std::lock_guard<std::mutex> lock(tables.mutex);
    auto existing = tables.auths.find(app);
    if (existing != tables.auths.end()) {
      auth = existing->second;
    } else {
      auto data = std::make_shared<AuthData>();
      data->app = app;
      data->hearth_app = hearth_app;
      auth = Access::NewAuth(data);
      data->auth = auth;
      tables.auths[app] = auth;
      created = true;
      // Deleting the App first leaves this Auth a shell (the SDK warns about that order).
      std::weak_ptr<AuthData> weak = data;
      std::lock_guard<std::mutex> app_lock(internal->mutex);
      internal->on_delete.push_back([weak] {
        std::shared_ptr<AuthData> live = weak.lock();
        if (!live) return;
        Auth* owner;
        {
          std::lock_guard<std::mutex> data_lock(live->mutex);
          owner = live->auth;
        }
        if (owner) Log(kLogLevelWarning, "An Auth should be deleted before the App it depends on.");
        DetachAuth(live, owner);
      });
    }
  }
  if (created) ApplyEmulatorEnvironment(HearthAuth(hearth_app));
  if (init_result_out) *init_result_out = kInitResultSuccess;
  return auth;
}

inline Auth::~Auth() { hearth::compat::detail::DetachAuth(auth_data_, this); }

inline User Auth::current_user() {
  return hearth::compat::detail::CurrentHearthUser(auth_data_).is_valid() ? hearth::compat::detail::Access::MakeUser(auth_data_)
                                                                           : User();
}

inline std::string Auth::language_code() const {
  std::shared_ptr<hearth::App> app = auth_data_->Borrow();
  return app ? hearth::compat::detail::HearthAuth(app)->language_code() : std::string();
}

inline void Auth::set_language_code(const char* language_code) {
  if (std::shared_ptr<hearth::App> app = auth_data_->Borrow()) {
    hearth::compat::detail::HearthAuth(app)->set_language_code(language_code);
  }
}

inline void Auth::UseAppLanguage() {
  if (std::shared_ptr<hearth::App> app = auth_data_->Borrow()) hearth::compat::detail::HearthAuth(app)->UseAppLanguage();
}

inline Future<Auth::FetchProvidersResult> Auth::FetchProvidersForEmail(const char* email) {
  using namespace hearth::compat::detail;
  return AuthOperation<FetchProvidersResult>(auth_data_, kFnFetchProvidersForEmail, [email](hearth::auth::Auth* auth) {
    return FromHearth<FetchProvidersResult>(auth->FetchProvidersForEmail(email),
                                            [](const hearth::Future<hearth::auth::FetchProvidersResult>& done) {
                                              FetchProvidersResult result;
                                              if (done.result()) result.providers = done.result()->providers;
                                              return result;
                                            });
  });
}

inline Future<Auth::FetchProvidersResult> Auth::FetchProvidersForEmailLastResult() const {
  return hearth::compat::detail::LastResult<FetchProvidersResult>(auth_data_,
                                                                  hearth::compat::detail::kFnFetchProvidersForEmail);
}

inline Future<AuthResult> Auth::SignInWithCustomToken(const char* custom_token) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return AuthOperation<AuthResult>(auth_data_, kFnSignInWithCustomToken, [custom_token, data](hearth::auth::Auth* auth) {
    return WrapAuthResult(auth->SignInWithCustomToken(custom_token), data);
  });
}

inline Future<AuthResult> Auth::SignInWithCustomTokenLastResult() const {
  return hearth::compat::detail::LastResult<AuthResult>(auth_data_, hearth::compat::detail::kFnSignInWithCustomToken);
}

inline Future<User> Auth::SignInWithCredential(const Credential& credential) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return AuthOperation<User>(auth_data_, kFnSignInWithCredential, [&credential, data](hearth::auth::Auth* auth) {
    return WrapUser(auth->SignInWithCredential(Access::HearthCredential(credential)), data);
  });
}

inline Future<AuthResult> Auth::SignInWithProvider(FederatedAuthProvider* provider) {
  if (provider == nullptr) return Future<AuthResult>();
  return provider->SignIn(auth_data_.get());
}

inline Future<AuthResult> Auth::SignInAndRetrieveDataWithCredential(const Credential& credential) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return AuthOperation<AuthResult>(auth_data_, kFnSignInAndRetrieveDataWithCredential,
                                   [&credential, data](hearth::auth::Auth* auth) {
                                     return WrapAuthResult(
                                         auth->SignInAndRetrieveDataWithCredential(Access::HearthCredential(credential)),
                                         data);
                                   });
}

inline Future<AuthResult> Auth::SignInAndRetrieveDataWithCredentialLastResult() const {
  return hearth::compat::detail::LastResult<AuthResult>(auth_data_,
                                                        hearth::compat::detail::kFnSignInAndRetrieveDataWithCredential);
}

inline Future<AuthResult> Auth::SignInAnonymously() {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return AuthOperation<AuthResult>(auth_data_, kFnSignInAnonymously, [data](hearth::auth::Auth* auth) {
    return WrapAuthResult(auth->SignInAnonymously(), data);
  });
}

inline Future<AuthResult> Auth::SignInAnonymouslyLastResult() const {
  return hearth::compat::detail::LastResult<AuthResult>(auth_data_, hearth::compat::detail::kFnSignInAnonymously);
}

inline Future<AuthResult> Auth::SignInWithEmailAndPassword(const char* email, const char* password) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return AuthOperation<AuthResult>(auth_data_, kFnSignInWithEmailAndPassword, [email, password, data](hearth::auth::Auth* auth) {
    return WrapAuthResult(auth->SignInWithEmailAndPassword(email, password), data);
  });
}

inline Future<AuthResult> Auth::SignInWithEmailAndPasswordLastResult() const {
  return hearth::compat::detail::LastResult<AuthResult>(auth_data_, hearth::compat::detail::kFnSignInWithEmailAndPassword);
}

inline Future<AuthResult> Auth::CreateUserWithEmailAndPassword(const char* email, const char* password) {
  using namespace hearth::compat::detail;
  auto data = auth_data_;
  return AuthOperation<AuthResult>(auth_data_, kFnCreateUserWithEmailAndPassword,
                                   [email, password, data](hearth::auth::Auth* auth) {
                                     return WrapAuthResult(auth->CreateUserWithEmailAndPassword(email, password), data);
                                   });
}

inline Future<AuthResult> Auth::CreateUserWithEmailAndPasswordLastResult() const {
  return hearth::compat::detail::LastResult<AuthResult>(auth_data_,
                                                        hearth::compat::detail::kFnCreateUserWithEmailAndPassword);
}

inline void Auth::SignOut() {
  if (std::shared_ptr<hearth::App> app = auth_data_->Borrow()) hearth::compat::detail::HearthAuth(app)->SignOut();
}

inline Future<void> Auth::SendPasswordResetEmail(const char* email) {
  using namespace hearth::compat::detail;
  return AuthOperation<void>(auth_data_, kFnSendPasswordResetEmail,
                             [email](hearth::auth::Auth* auth) { return FromHearth(auth->SendPasswordResetEmail(email)); });
}

inline Future<void> Auth::SendPasswordResetEmailLastResult() const {
  return hearth::compat::detail::LastResult<void>(auth_data_, hearth::compat::detail::kFnSendPasswordResetEmail);
}

inline void Auth::AddAuthStateListener(AuthStateListener* listener) {
  using namespace hearth::compat::detail;
  AddListener<AuthStateBridge>(Tables().auth_state, this, listener, auth_data_);
}

inline void Auth::RemoveAuthStateListener(AuthStateListener* listener) {
  using namespace hearth::compat::detail;
  RemoveListener<AuthStateBridge>(Tables().auth_state, this, listener);
}

inline void Auth::AddIdTokenListener(IdTokenListener* listener) {
  using namespace hearth::compat::detail;
  AddListener<IdTokenBridge>(Tables().id_token, this, listener, auth_data_);
}

inline void Auth::RemoveIdTokenListener(IdTokenListener* listener) {
  using namespace hearth::compat::detail;
  RemoveListener<IdTokenBridge>(Tables().id_token, this, listener);
}

inline void Auth::UseEmulator(std::string host, uint32_t port) {
  using hearth::compat::detail::Log;
  std::shared_ptr<hearth::App> app = auth_data_->Borrow();
  if (!app) return;
  const hearth::auth::AuthError error = hearth::compat::detail::HearthAuth(app)->UseEmulator(host, port);
  if (error != hearth::auth::kAuthErrorNone) {
    Log(kLogLevelError, "UseEmulator(\"%s\", %u) refused: %s", host.c_str(), static_cast<unsigned>(port),
        hearth::auth::AuthErrorMessage(error));
  }
}

inline App& Auth::app() { return *auth_data_->app; }

inline AuthStateListener::~AuthStateListener() {
  for (;;) {
    Auth* auth;
    {
      std::lock_guard<std::mutex> lock(hearth::compat::detail::Tables().mutex);
      if (auths_.empty()) return;
      auth = auths_.front();
    }
    auth->RemoveAuthStateListener(this);
  }
}

inline IdTokenListener::~IdTokenListener() {
  for (;;) {
    Auth* auth;
    {
      std::lock_guard<std::mutex> lock(hearth::compat::detail::Tables().mutex);
      if (auths_.empty()) return;
      auth = auths_.front();
    }
    auth->RemoveIdTokenListener(this);
  }
}

// ---- provider sign-in ---------------------------------------------------------------------------------

inline FederatedOAuthProvider::FederatedOAuthProvider() {}

inline FederatedOAuthProvider::FederatedOAuthProvider(const FederatedOAuthProviderData& provider_data)
    : provider_data_(provider_data) {}

inline FederatedOAuthProvider::~FederatedOAuthProvider() {}

inline void FederatedOAuthProvider::SetProviderData(const FederatedOAuthProviderData& provider_data) {
  provider_data_ = provider_data;
}


inline Future<AuthResult> FederatedOAuthProvider::SignIn(AuthData* auth_data) {
  using namespace hearth::compat::detail;
  if (auth_data == nullptr) return Future<AuthResult>();
  std::shared_ptr<AuthData> data = auth_data->shared_from_this();
  if (!ProviderFlowReady(data)) return ProviderFlowUnavailable(data, kFnSignInWithProvider);
  hearth::auth::FederatedOAuthProvider provider(Access::HearthProviderData(*this));
  return AuthOperation<AuthResult>(data, kFnSignInWithProvider, [&provider, data](hearth::auth::Auth* auth) {
    return WrapAuthResult(auth->SignInWithProvider(&provider), data);
  });
}

inline Future<AuthResult> FederatedOAuthProvider::Link(AuthData* auth_data) {
  using namespace hearth::compat::detail;
  if (auth_data == nullptr) return Future<AuthResult>();
  std::shared_ptr<AuthData> data = auth_data->shared_from_this();
  if (!ProviderFlowReady(data)) return ProviderFlowUnavailable(data, kFnLinkWithProvider);
  hearth::auth::FederatedOAuthProvider provider(Access::HearthProviderData(*this));
  return UserOperation<AuthResult>(data, kFnLinkWithProvider, [&provider, data](const hearth::auth::User& user) {
    return WrapAuthResult(user.LinkWithProvider(&provider), data);
  });
}

inline Future<AuthResult> FederatedOAuthProvider::Reauthenticate(AuthData* auth_data) {
  using namespace hearth::compat::detail;
  if (auth_data == nullptr) return Future<AuthResult>();
  std::shared_ptr<AuthData> data = auth_data->shared_from_this();
  if (!ProviderFlowReady(data)) return ProviderFlowUnavailable(data, kFnReauthenticateWithProvider);
  hearth::auth::FederatedOAuthProvider provider(Access::HearthProviderData(*this));
  return UserOperation<AuthResult>(data, kFnReauthenticateWithProvider, [&provider, data](const hearth::auth::User& user) {
    return WrapAuthResult(user.ReauthenticateWithProvider(&provider), data);
  });
}

}  // namespace auth
}  // namespace firebase

#include "hearth_compat.h"

#endif  // HEARTH_COMPAT_AUTH_IMPL_H
