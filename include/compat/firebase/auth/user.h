/*
 * firebase/auth/user.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * firebase::auth::User and the results of sign-ins, as in the Firebase C++ SDK.
 *
 * A User is a handle to "the signed-in user of its Auth", as in the SDK: Auth::current_user(), the
 * user of an AuthResult and the result of a Future<User> all follow later changes. Its accessors read
 * the signed-in user at the time of the call (so a profile update shows at once, and a retained User
 * names the next user who signs in); it is invalid while nobody is signed in, and then its accessors
 * give "" / false (is_anonymous() gives true, as the SDK's desktop build does) and its operations
 * return an invalid Future. Two Users compare equal when both are valid or both invalid (the SDK's
 * rule).
 *
 * Every operation returns a Future (see firebase/future.h) and keeps it as its XxxLastResult().
 * Errors are the SDK's AuthError values; Hearth reports network failures as
 * kAuthErrorNetworkRequestFailed and INVALID_LOGIN_CREDENTIALS as kAuthErrorInvalidCredential.
 */
#ifndef FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_USER_H_
#define FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_USER_H_

#ifndef HEARTH_COMPAT_AUTH_OUTER
#define HEARTH_COMPAT_AUTH_OUTER
#define HEARTH_COMPAT_AUTH_OUTER_IS_USER
#endif

#include <stdint.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "firebase/auth/credential.h"
#include "firebase/auth/types.h"
#include "firebase/future.h"
#include "firebase/internal/common.h"
#include "firebase/variant.h"

namespace firebase {
namespace auth {

class Auth;
struct AuthData;
struct AuthResult;
class FederatedAuthProvider;

/// One identity linked to a user (User::provider_data()): the provider's view of the user.
class UserInfoInterface {
 public:
  virtual ~UserInfoInterface() {}

  /// The user's id at that provider.
  virtual std::string uid() const { return uid_; }
  virtual std::string email() const { return email_; }
  virtual std::string display_name() const { return display_name_; }
  virtual std::string photo_url() const { return photo_url_; }
  /// "password", "google.com", "phone", ...
  virtual std::string provider_id() const { return provider_id_; }
  virtual std::string phone_number() const { return phone_number_; }

 private:
  friend class User;
  friend struct ::hearth::compat::detail::Access;
  std::string uid_;
  std::string email_;
  std::string display_name_;
  std::string photo_url_;
  std::string provider_id_;
  std::string phone_number_;
};

/// What the identity provider said about a sign-in or link.
struct AdditionalUserInfo {
  /// The provider the user signed in or linked with ("google.com", "password", "anonymous", "phone",
  /// ...), as the SDK's mobile builds give it (its desktop build fills it for identity providers only).
  std::string provider_id;
  /// The user name at the provider (GitHub login, Twitter screen name).
  std::string user_name;
  /// The provider's profile of the user (see firebase/variant.h for the value types).
  std::map<Variant, Variant> profile;
  /// After a failed link or sign-in whose identity belongs to another account
  /// (kAuthErrorCredentialAlreadyInUse, kAuthErrorEmailAlreadyInUse,
  /// kAuthErrorAccountExistsWithDifferentCredentials): a credential that signs in to that account, as
  /// on the SDK's mobile builds (its desktop build never sets it). Invalid otherwise.
  Credential updated_credential;
};

/// When the account was created and last signed in to, in UTC milliseconds since the epoch.
struct UserMetadata {
  UserMetadata() : last_sign_in_timestamp(0), creation_timestamp(0) {}

  uint64_t last_sign_in_timestamp;
  uint64_t creation_timestamp;
};

/// The signed-in user of an Auth (see the top of this file).
class User : public UserInfoInterface {
 public:
  /// An invalid User.
  User() {}

  /// The profile fields UpdateUserProfile changes: NULL leaves a field as it is, "" deletes it.
  struct UserProfile {
    UserProfile() : display_name(NULL), photo_url(NULL) {}

    const char* display_name;
    const char* photo_url;
  };

  User(const User&) = default;
  User& operator=(const User&) = default;
  /// Both valid or both invalid.
  bool operator==(const User&) const;
  bool operator!=(const User&) const;
  ~User() {}

  /// True while a user is signed in to this User's Auth.
  bool is_valid() const;

  /// The ID token: the cached one unless it expires within 5 minutes or force_refresh is set.
  Future<std::string> GetToken(bool force_refresh);
  Future<std::string> GetTokenLastResult() const;

  /// The identities linked to the user.
  std::vector<UserInfoInterface> provider_data() const;

  /// Sets a new password (kAuthErrorWeakPassword for a weak one, kAuthErrorRequiresRecentLogin when the
  /// sign-in is too old).
  Future<void> UpdatePassword(const char* password);
  Future<void> UpdatePasswordLastResult() const;

  /// Deprecated in the SDK (v11.9) and removed in v13: changes the email without verifying it first
  /// (projects with email enumeration protection refuse this: kAuthErrorOperationNotAllowed; use
  /// SendEmailVerificationBeforeUpdatingEmail). Kept so that code written for v12 and earlier builds.
  /// Marked FIREBASE_DEPRECATED, as the SDK releases that had it did.
  FIREBASE_DEPRECATED Future<void> UpdateEmail(const char* email);
  FIREBASE_DEPRECATED Future<void> UpdateEmailLastResult() const;

  /// Signs in again with a credential of this user (kAuthErrorUserMismatch for another account's).
  Future<void> Reauthenticate(const Credential& credential);
  Future<void> ReauthenticateLastResult() const;

  /// Reauthenticate, with the provider's data.
  Future<AuthResult> ReauthenticateAndRetrieveData(const Credential& credential);
  Future<AuthResult> ReauthenticateAndRetrieveDataLastResult() const;

  /// Reauthenticates through the provider's page: on a desktop only after
  /// hearth::compat::SetProviderFlowOptions (else kAuthErrorUnimplemented, as the SDK's desktop build).
  Future<AuthResult> ReauthenticateWithProvider(FederatedAuthProvider* provider) const;

  /// Sends the address a verification email.
  Future<void> SendEmailVerification();
  Future<void> SendEmailVerificationLastResult() const;

  /// Sends `email` a link that, once followed, makes it the user's email.
  Future<void> SendEmailVerificationBeforeUpdatingEmail(const char* email);
  Future<void> SendEmailVerificationBeforeUpdatingEmailLastResult() const;

  /// Changes the display name and photo URL (see UserProfile).
  Future<void> UpdateUserProfile(const UserProfile& profile);
  Future<void> UpdateUserProfileLastResult() const;

  /// Links another identity to the user (an anonymous user stops being anonymous):
  /// kAuthErrorProviderAlreadyLinked when that provider is linked already; kAuthErrorCredentialAlreadyInUse
  /// or kAuthErrorEmailAlreadyInUse when the identity belongs to another account (see
  /// AdditionalUserInfo::updated_credential).
  Future<AuthResult> LinkWithCredential(const Credential& credential);
  Future<AuthResult> LinkWithCredentialLastResult() const;

  /// Links through the provider's page: see ReauthenticateWithProvider.
  Future<AuthResult> LinkWithProvider(FederatedAuthProvider* provider) const;

  /// Unlinks a provider ("password", "google.com", ...); kAuthErrorNoSuchProvider when not linked.
  Future<AuthResult> Unlink(const char* provider);
  Future<AuthResult> UnlinkLastResult() const;

  /// Replaces the phone number with the one the credential proves (works on a desktop).
  Future<User> UpdatePhoneNumberCredential(const PhoneAuthCredential& credential);
  Future<User> UpdatePhoneNumberCredentialLastResult() const;

  /// Reads the account from the server again.
  Future<void> Reload();
  Future<void> ReloadLastResult() const;

  /// Deletes the account and signs out.
  Future<void> Delete();
  Future<void> DeleteLastResult() const;

  UserMetadata metadata() const;
  bool is_email_verified() const;
  bool is_anonymous() const;

  /// The user's id.
  virtual std::string uid() const;
  virtual std::string email() const;
  virtual std::string display_name() const;
  virtual std::string photo_url() const;
  /// "Firebase", as in the SDK's desktop build.
  virtual std::string provider_id() const;
  virtual std::string phone_number() const;

 private:
  friend struct ::hearth::compat::detail::Access;
  explicit User(std::shared_ptr<AuthData> auth_data) : auth_data_(std::move(auth_data)) {}

  std::shared_ptr<AuthData> auth_data_;
};

/// The result of a sign-in, link or reauthentication.
struct AuthResult {
  AdditionalUserInfo additional_user_info;
  /// The identity provider's credential the server returned (access and ID tokens); invalid when there
  /// is none (password, anonymous, custom token). The SDK's desktop build never sets it.
  Credential credential;
  /// The signed-in user (invalid when the operation failed).
  User user;
};

}  // namespace auth
}  // namespace firebase

#ifdef HEARTH_COMPAT_AUTH_OUTER_IS_USER
#include "hearth_compat/auth_impl.h"
#endif

#endif  // FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_USER_H_
