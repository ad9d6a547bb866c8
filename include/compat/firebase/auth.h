/*
 * firebase/auth.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * firebase::auth::Auth, its listeners and the provider sign-in flow, as in the Firebase C++ SDK, on
 * top of Hearth (include/hearth.hpp). Build with -I<prefix>/include/hearth-compat (before any Firebase
 * SDK include path) and link with -lhearth -luv (pkg-config hearth-compat, CMake
 * Hearth::firebase_compat). docs/porting-from-firebase-cpp.md lists what behaves differently; in
 * short:
 * - Callbacks (Future completions, AuthStateListener, IdTokenListener, phone listeners) run on the
 *   App's Hearth loop thread, never inside the call that registered them: a listener's first call
 *   comes on the next loop turn, not inside AddAuthStateListener.
 * - Deleting an App cancels its requests instead of waiting for them; their Futures complete with
 *   kAuthErrorCancelled and callbacks set on them do not run.
 * - Phone sign-in works on a desktop; provider sign-in (SignInWithProvider, LinkWithProvider,
 *   ReauthenticateWithProvider) too, once hearth::compat::SetProviderFlowOptions has given the Auth a
 *   way to show the provider's page (until then they fail with kAuthErrorUnimplemented, as in the SDK's
 *   desktop build).
 * - The emulator: USE_AUTH_EMULATOR (any value) routes the Auth to localhost:AUTH_EMULATOR_PORT (9099
 *   when unset) when GetAuth creates it, as the SDK does; Hearth's FIREBASE_AUTH_EMULATOR_HOST works
 *   too. Unlike the SDK, token refreshes and every other request follow the emulator setting.
 */
#ifndef FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_H_
#define FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_H_

#ifndef HEARTH_COMPAT_AUTH_OUTER
#define HEARTH_COMPAT_AUTH_OUTER
#define HEARTH_COMPAT_AUTH_OUTER_IS_AUTH
#endif

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "firebase/app.h"
#include "firebase/auth/user.h"
#include "firebase/future.h"
#include "firebase/internal/common.h"

// Keeps the Auth module's registration symbol, as the SDK's header does (defined below).
namespace firebase {
inline void* FIREBASE_APP_REGISTER_CALLBACKS_INITIALIZER_NAME(auth) = nullptr;
}  // namespace firebase
FIREBASE_APP_REGISTER_CALLBACKS_REFERENCE(auth)

namespace firebase {
namespace auth {

struct AuthData;
class AuthStateListener;
class IdTokenListener;
class PhoneAuthProvider;
class AuthRequest;
struct AuthResultCompletionHandle;
class FederatedAuthProvider;
class FederatedOAuthProvider;

/// The authentication of one App: who is signed in, the ways to sign in, and listeners. One per App
/// (GetAuth); delete it, or it is torn down with its App.
class Auth {
 public:
  /// The result of FetchProvidersForEmail.
  struct FetchProvidersResult {
    /// The sign-in methods of the email ("password", "google.com", ...); empty when the project has
    /// email enumeration protection (Firebase then never tells).
    std::vector<std::string> providers;
  };

  /// Removes this Auth's listeners; the App stays. GetAuth makes a new Auth afterwards.
  ~Auth();

  /// The signed-in user (see firebase/auth/user.h), or an invalid User. Never blocks: the saved
  /// session is loaded when the App is created.
  User current_user();

  /// The language of emails and SMS Firebase sends (X-Firebase-Locale); "" for Firebase's default.
  std::string language_code() const;
  /// Sets it (BCP 47, "fr", "pt-BR"); NULL or "" for Firebase's default.
  void set_language_code(const char* language_code);
  /// Goes back to the default language: on a desktop, Firebase's default (as the SDK's desktop build).
  void UseAppLanguage();

  /// The sign-in methods of an email address (kAuthErrorMissingEmail for NULL or "").
  Future<FetchProvidersResult> FetchProvidersForEmail(const char* email);
  Future<FetchProvidersResult> FetchProvidersForEmailLastResult() const;

  /// Signs in with a token minted by your server (kAuthErrorInvalidCustomToken when refused).
  Future<AuthResult> SignInWithCustomToken(const char* custom_token);
  Future<AuthResult> SignInWithCustomTokenLastResult() const;

  /// SignInAndRetrieveDataWithCredential without the provider's data.
  Future<User> SignInWithCredential(const Credential& credential);

  /// Signs in through the provider's page (see the top of this file).
  Future<AuthResult> SignInWithProvider(FederatedAuthProvider* provider);

  /// Signs in with a provider's credential (kAuthErrorInvalidCredential when the provider's token is
  /// refused).
  Future<AuthResult> SignInAndRetrieveDataWithCredential(const Credential& credential);
  Future<AuthResult> SignInAndRetrieveDataWithCredentialLastResult() const;

  /// Signs in a new anonymous user; completes with the current user when it is anonymous already.
  Future<AuthResult> SignInAnonymously();
  Future<AuthResult> SignInAnonymouslyLastResult() const;

  /// kAuthErrorWrongPassword, kAuthErrorUserNotFound, or kAuthErrorInvalidCredential when the project
  /// has email enumeration protection.
  Future<AuthResult> SignInWithEmailAndPassword(const char* email, const char* password);
  Future<AuthResult> SignInWithEmailAndPasswordLastResult() const;

  /// Creates an account and signs it in (kAuthErrorEmailAlreadyInUse, kAuthErrorWeakPassword, ...).
  Future<AuthResult> CreateUserWithEmailAndPassword(const char* email, const char* password);
  Future<AuthResult> CreateUserWithEmailAndPasswordLastResult() const;

  /// Signs out and forgets the saved session; listeners hear it on the loop thread.
  void SignOut();

  /// Emails a password reset link (kAuthErrorUserNotFound for an unknown address, unless the project
  /// has email enumeration protection).
  Future<void> SendPasswordResetEmail(const char* email);
  Future<void> SendPasswordResetEmailLastResult() const;

  /// Registers a listener (once; adding it again does nothing). It is called on the loop thread once
  /// soon after being added, then whenever the signed-in user changes. The caller owns it; destroying
  /// it or this Auth unregisters it.
  void AddAuthStateListener(AuthStateListener* listener);
  /// After this returns (on another thread than the loop's), the listener is not running and is not
  /// called again.
  void RemoveAuthStateListener(AuthStateListener* listener);
  /// As AddAuthStateListener, for ID token changes (sign-in, sign-out, refresh).
  void AddIdTokenListener(IdTokenListener* listener);
  void RemoveIdTokenListener(IdTokenListener* listener);

  /// Sends every request, token refreshes included, to the Auth emulator at http://host:port.
  void UseEmulator(std::string host, uint32_t port);

  /// The App of this Auth.
  App& app();

  /// The Auth of `app`, created on first use; *init_result_out (when given) is kInitResultSuccess.
  /// nullptr for a null App.
  static Auth* GetAuth(App* app, InitResult* init_result_out = nullptr);

 private:
  friend class ::firebase::App;
  friend class ::firebase::auth::PhoneAuthProvider;
  friend struct ::hearth::compat::detail::Access;

  explicit Auth(std::shared_ptr<AuthData> auth_data) : auth_data_(std::move(auth_data)) {}
  Auth(const Auth&) = delete;
  Auth& operator=(const Auth&) = delete;

  std::shared_ptr<AuthData> auth_data_;
};

/// Told when the signed-in user changes: once soon after being added, then at each sign-in, sign-out
/// and change of user. Runs on the App's loop thread.
class AuthStateListener {
 public:
  /// Unregisters the listener from every Auth it was added to.
  virtual ~AuthStateListener();
  virtual void OnAuthStateChanged(Auth* auth) = 0;

 private:
  friend class Auth;
  friend struct ::hearth::compat::detail::Access;
  std::vector<Auth*> auths_;
};

/// Told when the ID token changes: as AuthStateListener, and at each token refresh.
class IdTokenListener {
 public:
  virtual ~IdTokenListener();
  virtual void OnIdTokenChanged(Auth* auth) = 0;

 private:
  friend class Auth;
  friend struct ::hearth::compat::detail::Access;
  std::vector<Auth*> auths_;
};

/// A provider to sign in, link or reauthenticate with through its own page.
class FederatedAuthProvider {
 public:
  FederatedAuthProvider() {}
  virtual ~FederatedAuthProvider() {}

  /// Run by Auth::SignInWithProvider, User::LinkWithProvider and User::ReauthenticateWithProvider.
  virtual Future<AuthResult> SignIn(AuthData* auth_data) = 0;
  virtual Future<AuthResult> Link(AuthData* auth_data) = 0;
  virtual Future<AuthResult> Reauthenticate(AuthData* auth_data) = 0;

 private:
  friend class ::firebase::auth::Auth;
  friend class ::firebase::auth::User;
};

/// An OAuth provider's sign-in flow: its id, scopes and custom parameters. On a desktop Hearth shows
/// the provider's page through the UI delegate given to hearth::compat::SetProviderFlowOptions.
class FederatedOAuthProvider : public FederatedAuthProvider {
 public:
  FederatedOAuthProvider();
  explicit FederatedOAuthProvider(const FederatedOAuthProviderData& provider_data);
  ~FederatedOAuthProvider() override;

  void SetProviderData(const FederatedOAuthProviderData& provider_data);

 private:
  friend class ::firebase::auth::Auth;
  friend struct ::hearth::compat::detail::Access;

  Future<AuthResult> SignIn(AuthData* auth_data) override;
  Future<AuthResult> Link(AuthData* auth_data) override;
  Future<AuthResult> Reauthenticate(AuthData* auth_data) override;

  FederatedOAuthProviderData provider_data_;
};

}  // namespace auth
}  // namespace firebase

#ifdef HEARTH_COMPAT_AUTH_OUTER_IS_AUTH
#include "hearth_compat/auth_impl.h"
#endif

#endif  // FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_H_
