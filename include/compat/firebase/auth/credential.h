/*
 * firebase/auth/credential.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * Credentials and the providers that make them, as in the Firebase C++ SDK: EmailAuthProvider,
 * FacebookAuthProvider, GitHubAuthProvider, GoogleAuthProvider, OAuthProvider (any OAuth or OpenID
 * Connect provider, with or without a raw nonce: Sign in with Apple), PlayGamesAuthProvider,
 * TwitterAuthProvider, the provider ids of Microsoft and Yahoo, GameCenterAuthProvider and
 * PhoneAuthProvider.
 *
 * Differences from the SDK's desktop build (see docs/porting-from-firebase-cpp.md):
 * - A required argument that is NULL or not UTF-8 gives an invalid Credential (is_valid() false), and
 *   signing in with it fails; the SDK's desktop build aborts on a NULL argument.
 * - PhoneAuthProvider works on a desktop (the SDK's desktop VerifyPhoneNumber is a stub and its
 *   phone credentials fail with kAuthErrorApiNotAvailable): VerifyPhoneNumber texts a code through
 *   Firebase, the Listener hears OnCodeSent on the App's loop thread, and GetCredential with the typed
 *   code signs in, links and reauthenticates. OnVerificationCompleted is never called on a desktop.
 * - GameCenterAuthProvider answers as on any platform without Game Center: IsPlayerAuthenticated() is
 *   false and GetCredential() fails with kAuthErrorInvalidCredential (the SDK's desktop build returns
 *   the same after an assertion that, with its default log handler, aborts the process).
 */
#ifndef FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_CREDENTIAL_H_
#define FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_CREDENTIAL_H_

#ifndef HEARTH_COMPAT_AUTH_OUTER
#define HEARTH_COMPAT_AUTH_OUTER
#define HEARTH_COMPAT_AUTH_OUTER_IS_CREDENTIAL
#endif

#include <stdint.h>

#include <memory>
#include <string>

#include "firebase/auth/types.h"
#include "firebase/internal/common.h"
#include "hearth.hpp"

namespace hearth {
namespace compat {
namespace detail {
struct Access;
class PhoneListenerBridge;
}  // namespace detail
}  // namespace compat
}  // namespace hearth

namespace firebase {

class App;

template <typename T>
class Future;

namespace auth {

/// What a phone verification shows its UI on (an Android Activity, an iOS UIView); unused on a desktop.
typedef void* UIParent;

class Auth;
class User;

struct AuthData;
class ForceResendingTokenData;
struct PhoneAuthOptions;
struct PhoneAuthProviderData;
struct PhoneListenerData;

/// Proof of identity for one provider, made by the providers below and used to sign in, link or
/// reauthenticate. A value: copies share one immutable credential. Default-constructed: invalid.
class Credential {
 public:
  Credential() {}
  ~Credential() {}

  Credential(const Credential& rhs) : credential_(rhs.credential_) {}
  Credential& operator=(const Credential& rhs) {
    credential_ = rhs.credential_;
    return *this;
  }

  /// The provider id ("password", "google.com", ...); "" for an invalid credential.
  std::string provider() const { return credential_ ? credential_->provider() : std::string(); }

  /// False for a default-constructed credential, or one a provider refused to make.
  bool is_valid() const { return credential_ && credential_->is_valid(); }

 protected:
  explicit Credential(std::shared_ptr<const hearth::auth::Credential> credential) : credential_(std::move(credential)) {}

 private:
  friend struct ::hearth::compat::detail::Access;
  // The Hearth credential (a hearth::auth::PhoneAuthCredential for phone ones); null when invalid.
  std::shared_ptr<const hearth::auth::Credential> credential_;
};

/// A phone number credential ("phone") from PhoneAuthProvider::GetCredential.
class PhoneAuthCredential : public Credential {
 public:
  PhoneAuthCredential() {}
  PhoneAuthCredential(const PhoneAuthCredential& rhs) : Credential(rhs) {}
  PhoneAuthCredential& operator=(const PhoneAuthCredential& rhs) {
    Credential::operator=(rhs);
    return *this;
  }

  /// The code Android read from the SMS by itself; always "" on a desktop.
  std::string sms_code() const { return std::string(); }

 private:
  friend struct ::hearth::compat::detail::Access;
  explicit PhoneAuthCredential(std::shared_ptr<const hearth::auth::Credential> credential)
      : Credential(std::move(credential)) {}
};

/// Email and password.
class EmailAuthProvider {
 public:
  static Credential GetCredential(const char* email, const char* password);
  static constexpr const char* kProviderId = "password";
};

/// A Facebook Login access token.
class FacebookAuthProvider {
 public:
  static Credential GetCredential(const char* access_token);
  static constexpr const char* kProviderId = "facebook.com";
};

/// Apple Game Center: not available on a desktop (see the top of this file).
class GameCenterAuthProvider {
 public:
  /// Fails with kAuthErrorInvalidCredential; the Future is complete when returned.
  static Future<Credential> GetCredential();
  /// The Future of the latest GetCredential; invalid before the first.
  static Future<Credential> GetCredentialLastResult();
  /// Always false: no Game Center player can be signed in here.
  static bool IsPlayerAuthenticated();
  static constexpr const char* kProviderId = "gc.apple.com";
};

/// A GitHub OAuth access token.
class GitHubAuthProvider {
 public:
  static Credential GetCredential(const char* token);
  static constexpr const char* kProviderId = "github.com";
};

/// A Google ID token and/or access token (NULL for the one you do not have).
class GoogleAuthProvider {
 public:
  static Credential GetCredential(const char* id_token, const char* access_token);
  static constexpr const char* kProviderId = "google.com";
};

/// Microsoft: sign in through FederatedOAuthProvider, or with OAuthProvider::GetCredential.
class MicrosoftAuthProvider {
 public:
  static constexpr const char* kProviderId = "microsoft.com";
};

/// Any OAuth 2.0 / OpenID Connect provider by id ("microsoft.com", "yahoo.com", "apple.com", "oidc.x").
class OAuthProvider {
 public:
  /// An ID token and/or access token (NULL for the one you do not have).
  static Credential GetCredential(const char* provider_id, const char* id_token, const char* access_token);
  /// With the RAW nonce the ID token was requested with (the token carries its SHA-256); for
  /// "apple.com" this is Sign in with Apple, where access_token (the authorization code) may be NULL.
  static Credential GetCredential(const char* provider_id, const char* id_token, const char* raw_nonce,
                                  const char* access_token);
};

/// Phone number sign-in ("phone"); see the top of this file.
class PhoneAuthProvider {
 public:
  /// From Listener::OnCodeSent: pass it in PhoneAuthOptions to send a new SMS for a number whose code
  /// is still fresh. Copies compare equal; a default token asks for nothing.
  class ForceResendingToken {
   public:
    ForceResendingToken() {}
    ForceResendingToken(const ForceResendingToken& rhs) : token_(rhs.token_) {}
    ~ForceResendingToken() {}
    ForceResendingToken& operator=(const ForceResendingToken& rhs) {
      token_ = rhs.token_;
      return *this;
    }
    bool operator==(const ForceResendingToken& rhs) const { return token_ == rhs.token_; }
    bool operator!=(const ForceResendingToken& rhs) const { return token_ != rhs.token_; }

   private:
    friend struct ::hearth::compat::detail::Access;
    hearth::auth::PhoneAuthProvider::ForceResendingToken token_;
  };

  /// Told how a VerifyPhoneNumber goes. Callbacks run on the App's loop thread, never inside
  /// VerifyPhoneNumber. Exactly one of OnCodeSent and OnVerificationFailed is called per verification;
  /// OnCodeAutoRetrievalTimeOut follows OnCodeSent after PhoneAuthOptions::timeout_milliseconds.
  /// Destroying a listener stops its callbacks; destroy it only when none can be running on another
  /// thread (derived parts are gone by then), as with the SDK.
  class Listener {
   public:
    Listener();
    virtual ~Listener();

    /// Android's automatic verification; never called on a desktop.
    virtual void OnVerificationCompleted(PhoneAuthCredential credential) = 0;
    /// The verification failed; `error` says why.
    virtual void OnVerificationFailed(const std::string& error) = 0;
    /// The SMS was sent; keep verification_id for GetCredential.
    virtual void OnCodeSent(const std::string& verification_id, const ForceResendingToken& force_resending_token);
    /// timeout_milliseconds passed after the code was sent.
    virtual void OnCodeAutoRetrievalTimeOut(const std::string& verification_id);

   private:
    friend class PhoneAuthProvider;
    Listener(const Listener&) = delete;
    Listener& operator=(const Listener&) = delete;
    std::unique_ptr<::hearth::compat::detail::PhoneListenerBridge> bridge_;
  };

  /// Texts a verification code to options.phone_number (E.164, "+16505554567"); the listener hears
  /// how it goes. A malformed number fails with kAuthErrorInvalidPhoneNumber. Nothing happens for a
  /// null listener, or for the provider of an Auth whose App is gone.
  void VerifyPhoneNumber(const PhoneAuthOptions& options, PhoneAuthProvider::Listener* listener);

  /// The credential for a verification id and the code the user typed (invalid for NULL or non-UTF-8
  /// arguments).
  PhoneAuthCredential GetCredential(const char* verification_id, const char* verification_code);

  /// The provider of `auth`, owned by it.
  static PhoneAuthProvider& GetInstance(Auth* auth);

  static constexpr const char* kProviderId = "phone";

 private:
  friend struct AuthData;
  friend struct ::hearth::compat::detail::Access;
  PhoneAuthProvider();
  ~PhoneAuthProvider();
  PhoneAuthProvider(const PhoneAuthProvider&) = delete;
  PhoneAuthProvider& operator=(const PhoneAuthProvider&) = delete;

  std::weak_ptr<AuthData> auth_data_;
};

/// How VerifyPhoneNumber sends its SMS.
struct PhoneAuthOptions {
  PhoneAuthOptions();

  /// From an earlier OnCodeSent for this number: send a new SMS now. nullptr: none.
  PhoneAuthProvider::ForceResendingToken* force_resending_token;
  /// E.164.
  std::string phone_number;
  /// How long a sent code stays fresh (no new SMS for the same number) and when
  /// OnCodeAutoRetrievalTimeOut follows OnCodeSent; 0 = 60 s. (On Android: the auto-retrieval wait.)
  uint32_t timeout_milliseconds;
  /// Unused on a desktop.
  UIParent ui_parent;
};

/// Google Play Games: a server auth code.
class PlayGamesAuthProvider {
 public:
  static Credential GetCredential(const char* server_auth_code);
  static constexpr const char* kProviderId = "playgames.google.com";
};

/// Twitter: an OAuth 1.0a token and secret.
class TwitterAuthProvider {
 public:
  static Credential GetCredential(const char* token, const char* secret);
  static constexpr const char* kProviderId = "twitter.com";
};

/// Yahoo: sign in through FederatedOAuthProvider, or with OAuthProvider::GetCredential.
class YahooAuthProvider {
 public:
  static constexpr const char* kProviderId = "yahoo.com";
};

}  // namespace auth
}  // namespace firebase

#ifdef HEARTH_COMPAT_AUTH_OUTER_IS_CREDENTIAL
#include "hearth_compat/auth_impl.h"
#endif

#endif  // FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_CREDENTIAL_H_
