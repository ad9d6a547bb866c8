/// Every `hearth_error` value of include/hearth.h. 0...78 and -1 equal the Firebase C++ SDK's
/// `firebase::auth::AuthError`; 1000 and up are Hearth's own.
package enum AuthErrorCode: Int32, Sendable, CaseIterable {
    case none = 0
    case unimplemented = -1
    case failure = 1
    case invalidCustomToken = 2
    case customTokenMismatch = 3
    case invalidCredential = 4
    case userDisabled = 5
    case accountExistsWithDifferentCredentials = 6
    case operationNotAllowed = 7
    case emailAlreadyInUse = 8
    case requiresRecentLogin = 9
    case credentialAlreadyInUse = 10
    case invalidEmail = 11
    case wrongPassword = 12
    case tooManyRequests = 13
    case userNotFound = 14
    case providerAlreadyLinked = 15
    case noSuchProvider = 16
    case invalidUserToken = 17
    case userTokenExpired = 18
    case networkRequestFailed = 19
    case invalidApiKey = 20
    case appNotAuthorized = 21
    case userMismatch = 22
    case weakPassword = 23
    case noSignedInUser = 24
    case apiNotAvailable = 25
    case expiredActionCode = 26
    case invalidActionCode = 27
    case invalidMessagePayload = 28
    case invalidPhoneNumber = 29
    case missingPhoneNumber = 30
    case invalidRecipientEmail = 31
    case invalidSender = 32
    case invalidVerificationCode = 33
    case invalidVerificationId = 34
    case missingVerificationCode = 35
    case missingVerificationId = 36
    case missingEmail = 37
    case missingPassword = 38
    case quotaExceeded = 39
    case retryPhoneAuth = 40
    case sessionExpired = 41
    case appNotVerified = 42
    case appVerificationFailed = 43
    case captchaCheckFailed = 44
    case invalidAppCredential = 45
    case missingAppCredential = 46
    case invalidClientId = 47
    case invalidContinueUri = 48
    case missingContinueUri = 49
    case keychainError = 50
    case missingAppToken = 51
    case missingIosBundleId = 52
    case notificationNotForwarded = 53
    case unauthorizedDomain = 54
    case webContextAlreadyPresented = 55
    case webContextCancelled = 56
    case dynamicLinkNotActivated = 57
    case cancelled = 58
    case invalidProviderId = 59
    case webInternalError = 60
    case webStorageUnsupported = 61
    case tenantIdMismatch = 62
    case unsupportedTenantOperation = 63
    case invalidLinkDomain = 64
    case rejectedCredential = 65
    case phoneNumberNotFound = 66
    case invalidTenantId = 67
    case missingClientIdentifier = 68
    case missingMultiFactorSession = 69
    case missingMultiFactorInfo = 70
    case invalidMultiFactorSession = 71
    case multiFactorInfoNotFound = 72
    case adminRestrictedOperation = 73
    case unverifiedEmail = 74
    case secondFactorAlreadyEnrolled = 75
    case maximumSecondFactorCountExceeded = 76
    case unsupportedFirstFactor = 77
    case emailChangeNeedsVerification = 78

    case invalidArgument = 1000
    case invalidHandle = 1001
    case secondFactorRequired = 1002
    case timedOut = 1003
    case wouldDeadlock = 1004
    case appDestroyed = 1005
    case loopFailure = 1006
    case persistenceFailure = 1007
}

extension AuthErrorCode {
    /// The C name, e.g. "HEARTH_ERROR_CREDENTIAL_ALREADY_IN_USE".
    package var name: String { "HEARTH_ERROR_" + nameSuffix }

    private var nameSuffix: String {
        switch self {
        case .none: return "NONE"
        case .unimplemented: return "UNIMPLEMENTED"
        case .failure: return "FAILURE"
        case .invalidCustomToken: return "INVALID_CUSTOM_TOKEN"
        case .customTokenMismatch: return "CUSTOM_TOKEN_MISMATCH"
        case .invalidCredential: return "INVALID_CREDENTIAL"
        case .userDisabled: return "USER_DISABLED"
        case .accountExistsWithDifferentCredentials: return "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIALS"
        case .operationNotAllowed: return "OPERATION_NOT_ALLOWED"
        case .emailAlreadyInUse: return "EMAIL_ALREADY_IN_USE"
        case .requiresRecentLogin: return "REQUIRES_RECENT_LOGIN"
        case .credentialAlreadyInUse: return "CREDENTIAL_ALREADY_IN_USE"
        case .invalidEmail: return "INVALID_EMAIL"
        case .wrongPassword: return "WRONG_PASSWORD"
        case .tooManyRequests: return "TOO_MANY_REQUESTS"
        case .userNotFound: return "USER_NOT_FOUND"
        case .providerAlreadyLinked: return "PROVIDER_ALREADY_LINKED"
        case .noSuchProvider: return "NO_SUCH_PROVIDER"
        case .invalidUserToken: return "INVALID_USER_TOKEN"
        case .userTokenExpired: return "USER_TOKEN_EXPIRED"
        case .networkRequestFailed: return "NETWORK_REQUEST_FAILED"
        case .invalidApiKey: return "INVALID_API_KEY"
        case .appNotAuthorized: return "APP_NOT_AUTHORIZED"
        case .userMismatch: return "USER_MISMATCH"
        case .weakPassword: return "WEAK_PASSWORD"
        case .noSignedInUser: return "NO_SIGNED_IN_USER"
        case .apiNotAvailable: return "API_NOT_AVAILABLE"
        case .expiredActionCode: return "EXPIRED_ACTION_CODE"
        case .invalidActionCode: return "INVALID_ACTION_CODE"
        case .invalidMessagePayload: return "INVALID_MESSAGE_PAYLOAD"
        case .invalidPhoneNumber: return "INVALID_PHONE_NUMBER"
        case .missingPhoneNumber: return "MISSING_PHONE_NUMBER"
        case .invalidRecipientEmail: return "INVALID_RECIPIENT_EMAIL"
        case .invalidSender: return "INVALID_SENDER"
        case .invalidVerificationCode: return "INVALID_VERIFICATION_CODE"
        case .invalidVerificationId: return "INVALID_VERIFICATION_ID"
        case .missingVerificationCode: return "MISSING_VERIFICATION_CODE"
        case .missingVerificationId: return "MISSING_VERIFICATION_ID"
        case .missingEmail: return "MISSING_EMAIL"
        case .missingPassword: return "MISSING_PASSWORD"
        case .quotaExceeded: return "QUOTA_EXCEEDED"
        case .retryPhoneAuth: return "RETRY_PHONE_AUTH"
        case .sessionExpired: return "SESSION_EXPIRED"
        case .appNotVerified: return "APP_NOT_VERIFIED"
        case .appVerificationFailed: return "APP_VERIFICATION_FAILED"
        case .captchaCheckFailed: return "CAPTCHA_CHECK_FAILED"
        case .invalidAppCredential: return "INVALID_APP_CREDENTIAL"
        case .missingAppCredential: return "MISSING_APP_CREDENTIAL"
        case .invalidClientId: return "INVALID_CLIENT_ID"
        case .invalidContinueUri: return "INVALID_CONTINUE_URI"
        case .missingContinueUri: return "MISSING_CONTINUE_URI"
        case .keychainError: return "KEYCHAIN_ERROR"
        case .missingAppToken: return "MISSING_APP_TOKEN"
        case .missingIosBundleId: return "MISSING_IOS_BUNDLE_ID"
        case .notificationNotForwarded: return "NOTIFICATION_NOT_FORWARDED"
        case .unauthorizedDomain: return "UNAUTHORIZED_DOMAIN"
        case .webContextAlreadyPresented: return "WEB_CONTEXT_ALREADY_PRESENTED"
        case .webContextCancelled: return "WEB_CONTEXT_CANCELLED"
        case .dynamicLinkNotActivated: return "DYNAMIC_LINK_NOT_ACTIVATED"
        case .cancelled: return "CANCELLED"
        case .invalidProviderId: return "INVALID_PROVIDER_ID"
        case .webInternalError: return "WEB_INTERNAL_ERROR"
        case .webStorageUnsupported: return "WEB_STORAGE_UNSUPPORTED"
        case .tenantIdMismatch: return "TENANT_ID_MISMATCH"
        case .unsupportedTenantOperation: return "UNSUPPORTED_TENANT_OPERATION"
        case .invalidLinkDomain: return "INVALID_LINK_DOMAIN"
        case .rejectedCredential: return "REJECTED_CREDENTIAL"
        case .phoneNumberNotFound: return "PHONE_NUMBER_NOT_FOUND"
        case .invalidTenantId: return "INVALID_TENANT_ID"
        case .missingClientIdentifier: return "MISSING_CLIENT_IDENTIFIER"
        case .missingMultiFactorSession: return "MISSING_MULTI_FACTOR_SESSION"
        case .missingMultiFactorInfo: return "MISSING_MULTI_FACTOR_INFO"
        case .invalidMultiFactorSession: return "INVALID_MULTI_FACTOR_SESSION"
        case .multiFactorInfoNotFound: return "MULTI_FACTOR_INFO_NOT_FOUND"
        case .adminRestrictedOperation: return "ADMIN_RESTRICTED_OPERATION"
        case .unverifiedEmail: return "UNVERIFIED_EMAIL"
        case .secondFactorAlreadyEnrolled: return "SECOND_FACTOR_ALREADY_ENROLLED"
        case .maximumSecondFactorCountExceeded: return "MAXIMUM_SECOND_FACTOR_COUNT_EXCEEDED"
        case .unsupportedFirstFactor: return "UNSUPPORTED_FIRST_FACTOR"
        case .emailChangeNeedsVerification: return "EMAIL_CHANGE_NEEDS_VERIFICATION"
        case .invalidArgument: return "INVALID_ARGUMENT"
        case .invalidHandle: return "INVALID_HANDLE"
        case .secondFactorRequired: return "SECOND_FACTOR_REQUIRED"
        case .timedOut: return "TIMED_OUT"
        case .wouldDeadlock: return "WOULD_DEADLOCK"
        case .appDestroyed: return "APP_DESTROYED"
        case .loopFailure: return "LOOP_FAILURE"
        case .persistenceFailure: return "PERSISTENCE_FAILURE"
        }
    }

    /// A generic English sentence for the code (what `hearth_error_message` returns). Never empty.
    package var defaultMessage: String {
        switch self {
        case .none: return "The operation completed successfully."
        case .unimplemented: return "This operation is not implemented."
        case .failure: return "An internal error has occurred."
        case .invalidCustomToken: return "The custom token format is incorrect. Please check the documentation."
        case .customTokenMismatch: return "The custom token corresponds to a different audience."
        case .invalidCredential: return "The supplied auth credential is incorrect, malformed or has expired."
        case .userDisabled: return "The user account has been disabled by an administrator."
        case .accountExistsWithDifferentCredentials:
            return "An account already exists with the same email address but different sign-in credentials."
        case .operationNotAllowed: return "This operation is not allowed. Enable the sign-in provider for this project."
        case .emailAlreadyInUse: return "The email address is already in use by another account."
        case .requiresRecentLogin:
            return "This operation is sensitive and requires recent authentication. Sign in again before retrying."
        case .credentialAlreadyInUse: return "This credential is already associated with a different user account."
        case .invalidEmail: return "The email address is badly formatted."
        case .wrongPassword: return "The password is invalid or the user does not have a password."
        case .tooManyRequests:
            return "Requests from this device have been blocked because of unusual activity. Try again later."
        case .userNotFound: return "There is no user record corresponding to this identifier. The user may have been deleted."
        case .providerAlreadyLinked: return "The user has already linked an account of this provider."
        case .noSuchProvider: return "The user is not linked to an account with the given provider."
        case .invalidUserToken:
            return "The user's credential is no longer valid. The user must sign in again."
        case .userTokenExpired:
            return "The user's credential has expired or been revoked. The user must sign in again."
        case .networkRequestFailed: return "A network error (such as a timeout, interrupted connection or unreachable host) has occurred."
        case .invalidApiKey: return "The API key is not valid. Please pass a valid API key."
        case .appNotAuthorized: return "This app is not authorized to use Firebase Authentication with this API key."
        case .userMismatch: return "The supplied credentials do not correspond to the previously signed in user."
        case .weakPassword: return "The password is too weak."
        case .noSignedInUser: return "There is no signed-in user."
        case .apiNotAvailable: return "This API is not available on this platform."
        case .expiredActionCode: return "The action code has expired."
        case .invalidActionCode:
            return "The action code is invalid. It may be malformed, expired, or already used."
        case .invalidMessagePayload: return "The email template for this action contains invalid characters in its message."
        case .invalidPhoneNumber: return "The phone number is not in a valid format."
        case .missingPhoneNumber: return "A phone number is required for this operation."
        case .invalidRecipientEmail: return "The recipient email address is invalid."
        case .invalidSender: return "The email template for this action contains an invalid sender address or name."
        case .invalidVerificationCode: return "The SMS verification code is invalid."
        case .invalidVerificationId: return "The verification ID is invalid."
        case .missingVerificationCode: return "The verification code is missing."
        case .missingVerificationId: return "The verification ID is missing."
        case .missingEmail: return "An email address must be provided."
        case .missingPassword: return "A password must be provided."
        case .quotaExceeded: return "The project's quota for this operation has been exceeded."
        case .retryPhoneAuth: return "Phone verification must be retried."
        case .sessionExpired: return "The SMS code has expired. Resend the verification code to try again."
        case .appNotVerified: return "The app could not be verified for phone authentication."
        case .appVerificationFailed: return "App verification failed."
        case .captchaCheckFailed: return "The reCAPTCHA response is invalid, has expired, or was already used."
        case .invalidAppCredential: return "The app verification credential is invalid."
        case .missingAppCredential: return "The app verification credential is missing."
        case .invalidClientId: return "The OAuth client ID is invalid."
        case .invalidContinueUri: return "The continue URL is invalid."
        case .missingContinueUri: return "A continue URL must be provided."
        case .keychainError: return "An error occurred while accessing the secure storage."
        case .missingAppToken: return "The app token is missing."
        case .missingIosBundleId: return "An iOS bundle ID must be provided when the app is to be installed."
        case .notificationNotForwarded: return "The app did not forward the verification notification."
        case .unauthorizedDomain: return "The domain of the continue URL is not authorized for this project."
        case .webContextAlreadyPresented: return "A web sign-in flow is already in progress."
        case .webContextCancelled: return "The web sign-in flow was cancelled."
        case .dynamicLinkNotActivated: return "Dynamic links are not activated for this project."
        case .cancelled: return "The operation was cancelled."
        case .invalidProviderId: return "The provider ID is invalid or the provider is not enabled for this project."
        case .webInternalError: return "An internal error occurred in the web sign-in flow."
        case .webStorageUnsupported: return "Web storage is not supported or is disabled."
        case .tenantIdMismatch: return "The tenant ID does not match the Auth instance's tenant ID."
        case .unsupportedTenantOperation: return "This operation is not supported in a multi-tenant context."
        case .invalidLinkDomain: return "The link domain is not configured or authorized for this project."
        case .rejectedCredential: return "The credential was rejected."
        case .phoneNumberNotFound: return "The phone number was not found."
        case .invalidTenantId: return "The tenant ID is invalid."
        case .missingClientIdentifier: return "The request is missing a client identifier."
        case .missingMultiFactorSession: return "The request is missing proof of first-factor sign-in."
        case .missingMultiFactorInfo: return "No second factor identifier was provided."
        case .invalidMultiFactorSession: return "The request does not carry a valid proof of first-factor sign-in."
        case .multiFactorInfoNotFound: return "No second factor matches the identifier provided."
        case .adminRestrictedOperation: return "This operation is restricted to administrators."
        case .unverifiedEmail: return "The operation requires a verified email address."
        case .secondFactorAlreadyEnrolled: return "This second factor is already enrolled on this account."
        case .maximumSecondFactorCountExceeded: return "The maximum number of second factors for this account has been reached."
        case .unsupportedFirstFactor: return "Enrolling a second factor is not supported for this first factor."
        case .emailChangeNeedsVerification: return "The new email address must be verified before it can be used."
        case .invalidArgument: return "An argument is missing, empty, not valid UTF-8, or out of range."
        case .invalidHandle: return "The handle is invalid or has been released."
        case .secondFactorRequired: return "The account requires a second factor to finish signing in."
        case .timedOut: return "The wait timed out before the operation completed."
        case .wouldDeadlock: return "Blocking here would deadlock: this thread runs the app's loop."
        case .appDestroyed: return "The app that owns this object has been destroyed."
        case .loopFailure: return "The event loop or the HTTP client could not be set up."
        case .persistenceFailure: return "The session could not be saved or erased."
        }
    }
}
