/*
 * firebase/auth/types.h — Hearth's Firebase C++ SDK compatibility layer (opt-in).
 *
 * firebase::auth::AuthError (the error() of every auth Future, with the SDK's values) and the data of
 * a provider sign-in flow. Besides these values a Future may carry Hearth's own codes from 1000 up
 * (hearth::auth::kAuthErrorInvalidArgument and the following: invalid argument, invalid handle,
 * second factor required, ...), for failures the Firebase enum has no name for.
 */
#ifndef FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_TYPES_H_
#define FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_TYPES_H_

#include <map>
#include <string>
#include <vector>

namespace firebase {
namespace auth {

/// Why an auth operation failed. The values are the Firebase C++ SDK's (and Hearth's C API's).
enum AuthError {
  kAuthErrorNone = 0,
  kAuthErrorUnimplemented = -1,
  kAuthErrorFailure = 1,
  kAuthErrorInvalidCustomToken,
  kAuthErrorCustomTokenMismatch,
  kAuthErrorInvalidCredential,
  kAuthErrorUserDisabled,
  kAuthErrorAccountExistsWithDifferentCredentials,
  kAuthErrorOperationNotAllowed,
  kAuthErrorEmailAlreadyInUse,
  kAuthErrorRequiresRecentLogin,
  kAuthErrorCredentialAlreadyInUse,
  kAuthErrorInvalidEmail,
  kAuthErrorWrongPassword,
  kAuthErrorTooManyRequests,
  kAuthErrorUserNotFound,
  kAuthErrorProviderAlreadyLinked,
  kAuthErrorNoSuchProvider,
  kAuthErrorInvalidUserToken,
  kAuthErrorUserTokenExpired,
  kAuthErrorNetworkRequestFailed,
  kAuthErrorInvalidApiKey,
  kAuthErrorAppNotAuthorized,
  kAuthErrorUserMismatch,
  kAuthErrorWeakPassword,
  kAuthErrorNoSignedInUser,
  kAuthErrorApiNotAvailable,
  kAuthErrorExpiredActionCode,
  kAuthErrorInvalidActionCode,
  kAuthErrorInvalidMessagePayload,
  kAuthErrorInvalidPhoneNumber,
  kAuthErrorMissingPhoneNumber,
  kAuthErrorInvalidRecipientEmail,
  kAuthErrorInvalidSender,
  kAuthErrorInvalidVerificationCode,
  kAuthErrorInvalidVerificationId,
  kAuthErrorMissingVerificationCode,
  kAuthErrorMissingVerificationId,
  kAuthErrorMissingEmail,
  kAuthErrorMissingPassword,
  kAuthErrorQuotaExceeded,
  kAuthErrorRetryPhoneAuth,
  kAuthErrorSessionExpired,
  kAuthErrorAppNotVerified,
  kAuthErrorAppVerificationFailed,
  kAuthErrorCaptchaCheckFailed,
  kAuthErrorInvalidAppCredential,
  kAuthErrorMissingAppCredential,
  kAuthErrorInvalidClientId,
  kAuthErrorInvalidContinueUri,
  kAuthErrorMissingContinueUri,
  kAuthErrorKeychainError,
  kAuthErrorMissingAppToken,
  kAuthErrorMissingIosBundleId,
  kAuthErrorNotificationNotForwarded,
  kAuthErrorUnauthorizedDomain,
  kAuthErrorWebContextAlreadyPresented,
  kAuthErrorWebContextCancelled,
  kAuthErrorDynamicLinkNotActivated,
  kAuthErrorCancelled,
  kAuthErrorInvalidProviderId,
  kAuthErrorWebInternalError,
  kAuthErrorWebStorateUnsupported,  // sic: the SDK's spelling
  kAuthErrorTenantIdMismatch,
  kAuthErrorUnsupportedTenantOperation,
  kAuthErrorInvalidLinkDomain,
  kAuthErrorRejectedCredential,
  kAuthErrorPhoneNumberNotFound,
  kAuthErrorInvalidTenantId,
  kAuthErrorMissingClientIdentifier,
  kAuthErrorMissingMultiFactorSession,
  kAuthErrorMissingMultiFactorInfo,
  kAuthErrorInvalidMultiFactorSession,
  kAuthErrorMultiFactorInfoNotFound,
  kAuthErrorAdminRestrictedOperation,
  kAuthErrorUnverifiedEmail,
  kAuthErrorSecondFactorAlreadyEnrolled,
  kAuthErrorMaximumSecondFactorCountExceeded,
  kAuthErrorUnsupportedFirstFactor,
  kAuthErrorEmailChangeNeedsVerification,
};

/// Names the identity provider of a provider sign-in flow.
struct FederatedProviderData {
  /// "microsoft.com", "apple.com", "twitter.com", "oidc.<name>", ...
  std::string provider_id;
};

/// The provider, OAuth scopes and custom parameters of a provider sign-in flow.
struct FederatedOAuthProviderData : FederatedProviderData {
  FederatedOAuthProviderData() {}
  explicit FederatedOAuthProviderData(const std::string& provider) { this->provider_id = provider; }
  FederatedOAuthProviderData(const std::string& provider, std::vector<std::string> scopes,
                             std::map<std::string, std::string> custom_parameters) {
    this->provider_id = provider;
    this->scopes = scopes;
    this->custom_parameters = custom_parameters;
  }

  /// Access requested of the provider ("email", "mail.read", ...).
  std::vector<std::string> scopes;
  /// Passed to the provider's page ("tenant", "prompt", "login_hint", "lang", "locale", ...).
  std::map<std::string, std::string> custom_parameters;
};

}  // namespace auth
}  // namespace firebase

#endif  // FIREBASE_AUTH_SRC_INCLUDE_FIREBASE_AUTH_TYPES_H_
