import HearthWire

/// The one place that turns Identity Toolkit / Secure Token error strings into `AuthErrorCode`s.
///
/// Sources: client-wire-reference §3.2 (iOS/JS maps) and §1.13 (refresh errors), cpp-sdk-reference §3
/// (the C++ desktop map, whose numbering Hearth keeps). Where the references disagree, the entry takes the
/// most specific value of the C++ enum and the comment says why.
package enum ServerErrorTable {
    /// Server code (text before the first ':') → code.
    package static let entries: [String: AuthErrorCode] = [
        // Sign-in, sign-up, account state.
        "EMAIL_EXISTS": .emailAlreadyInUse,
        "EMAIL_NOT_FOUND": .userNotFound,
        "USER_NOT_FOUND": .userNotFound,
        "INVALID_PASSWORD": .wrongPassword,
        // Email-enumeration protection folds "no such user" and "wrong password" into one answer. C++
        // leaves it unmapped (Failure); iOS and JS say invalid credential, which is what it means.
        "INVALID_LOGIN_CREDENTIALS": .invalidCredential,
        "INVALID_IDP_RESPONSE": .invalidCredential,
        "INVALID_PENDING_TOKEN": .invalidCredential,
        // JS: invalid-credential (iOS: internal). The temporary proof is the phone credential.
        "INVALID_TEMPORARY_PROOF": .invalidCredential,
        // The C++ public enum has no nonce code (83 exists only under INTERNAL_EXPERIMENTAL); the raw
        // nonce is part of the OIDC credential, so the credential is what is invalid.
        "MISSING_OR_INVALID_NONCE": .invalidCredential,
        "USER_DISABLED": .userDisabled,
        "FEDERATED_USER_ID_ALREADY_LINKED": .credentialAlreadyInUse,
        // Emulator: re-using a phone temporary proof whose number belongs to another account.
        "PHONE_NUMBER_EXISTS": .credentialAlreadyInUse,
        "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": .requiresRecentLogin,
        "TOKEN_EXPIRED": .userTokenExpired,
        "INVALID_ID_TOKEN": .invalidUserToken,
        "OPERATION_NOT_ALLOWED": .operationNotAllowed,
        "PASSWORD_LOGIN_DISABLED": .operationNotAllowed,
        "ADMIN_ONLY_OPERATION": .adminRestrictedOperation,
        "INVALID_EMAIL": .invalidEmail,
        // The createAuthUri identifier is an email address (iOS and JS: invalid email).
        "INVALID_IDENTIFIER": .invalidEmail,
        "MISSING_EMAIL": .missingEmail,
        "MISSING_PASSWORD": .missingPassword,
        "WEAK_PASSWORD": .weakPassword,
        // A password policy rejecting the password; the C++ enum's nearest and only password-quality
        // code is weak password (iOS has a separate 17211).
        "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": .weakPassword,
        "TOO_MANY_ATTEMPTS_TRY_LATER": .tooManyRequests,
        // JS: too-many-requests (iOS: internal).
        "RESET_PASSWORD_EXCEED_LIMIT": .tooManyRequests,
        "QUOTA_EXCEEDED": .quotaExceeded,
        "TENANT_ID_MISMATCH": .tenantIdMismatch,
        "UNSUPPORTED_TENANT_OPERATION": .unsupportedTenantOperation,
        // A tenant the project does not have. Neither SDK lists it; JS turns an unlisted code into its
        // own name (auth/invalid-tenant-id), which is this code.
        "INVALID_TENANT_ID": .invalidTenantId,
        // C++ desktop maps the bare code to 59 (its exact-message exception is in `exactMessages`).
        "INVALID_PROVIDER_ID": .invalidProviderId,

        // Custom tokens.
        "INVALID_CUSTOM_TOKEN": .invalidCustomToken,
        "CREDENTIAL_MISMATCH": .customTokenMismatch,
        // iOS/JS: internal error. The C++ SDK reports an empty custom token as invalid custom token, so
        // that is the specific code for a missing one.
        "MISSING_CUSTOM_TOKEN": .invalidCustomToken,

        // Secure Token (refresh). Neither SDK maps these (client-wire-reference §1.13). Each of the next
        // three means the stored refresh token cannot be used (any more, or with this project's key):
        // that is what invalid user token says, and the session layer signs the user out on it.
        "INVALID_REFRESH_TOKEN": .invalidUserToken,
        "MISSING_REFRESH_TOKEN": .invalidUserToken,
        "PROJECT_NUMBER_MISMATCH": .invalidUserToken,
        // A malformed request from the client itself: no user-facing code fits.
        "INVALID_GRANT_TYPE": .failure,
        "MISSING_GRANT_TYPE": .failure,

        // Email actions (out-of-band codes).
        "EXPIRED_OOB_CODE": .expiredActionCode,
        "INVALID_OOB_CODE": .invalidActionCode,
        // iOS/JS: internal. Without a code there is no usable action code: the nearest C++ value.
        "MISSING_OOB_CODE": .invalidActionCode,
        // Request-shape errors made by the client (internal in both SDKs).
        "MISSING_REQ_TYPE": .failure,
        "INVALID_REQ_TYPE": .failure,
        "INVALID_MESSAGE_PAYLOAD": .invalidMessagePayload,
        "INVALID_SENDER": .invalidSender,
        "INVALID_RECIPIENT_EMAIL": .invalidRecipientEmail,
        "MISSING_CONTINUE_URI": .missingContinueUri,
        "INVALID_CONTINUE_URI": .invalidContinueUri,
        "UNAUTHORIZED_DOMAIN": .unauthorizedDomain,
        "MISSING_IOS_BUNDLE_ID": .missingIosBundleId,
        // The C++ enum has no Android counterpart of 52.
        "MISSING_ANDROID_PACKAGE_NAME": .failure,
        "INVALID_HOSTING_LINK_DOMAIN": .invalidLinkDomain,
        "EMAIL_CHANGE_NEEDS_VERIFICATION": .emailChangeNeedsVerification,

        // Phone.
        "INVALID_PHONE_NUMBER": .invalidPhoneNumber,
        "MISSING_PHONE_NUMBER": .missingPhoneNumber,
        "INVALID_CODE": .invalidVerificationCode,
        "INVALID_SESSION_INFO": .invalidVerificationId,
        "SESSION_EXPIRED": .sessionExpired,
        // iOS: internal; the C++ map names them.
        "MISSING_CODE": .missingVerificationCode,
        "MISSING_SESSION_INFO": .missingVerificationId,
        "APP_NOT_VERIFIED": .appNotVerified,
        "CAPTCHA_CHECK_FAILED": .captchaCheckFailed,
        // C++ desktop says app not authorized (21); 45 names exactly this failure (iOS 17048 too).
        "INVALID_APP_CREDENTIAL": .invalidAppCredential,
        "MISSING_APP_CREDENTIAL": .missingAppCredential,
        "MISSING_IOS_APP_TOKEN": .missingAppToken,
        "MISSING_CLIENT_IDENTIFIER": .missingClientIdentifier,
        // JS: invalid-oauth-client-id.
        "INVALID_OAUTH_CLIENT_ID": .invalidClientId,

        // reCAPTCHA (iOS has codes 17200-17207 but maps none; the C++ enum has none of its own).
        // A reCAPTCHA token that fails verification is a failed captcha check.
        "INVALID_RECAPTCHA_TOKEN": .captchaCheckFailed,
        // The project requires app verification the request did not carry.
        "MISSING_RECAPTCHA_TOKEN": .missingAppCredential,
        // Configuration or request-shape problems: nothing the user can fix.
        "RECAPTCHA_NOT_ENABLED": .failure,
        "INVALID_RECAPTCHA_ACTION": .failure,
        "MISSING_CLIENT_TYPE": .failure,
        "MISSING_RECAPTCHA_VERSION": .failure,
        "INVALID_RECAPTCHA_VERSION": .failure,

        // Multi-factor.
        "INVALID_MFA_PENDING_CREDENTIAL": .invalidMultiFactorSession,
        "MISSING_MFA_PENDING_CREDENTIAL": .missingMultiFactorSession,
        "MISSING_MFA_ENROLLMENT_ID": .missingMultiFactorInfo,
        "MFA_ENROLLMENT_NOT_FOUND": .multiFactorInfoNotFound,
        "SECOND_FACTOR_EXISTS": .secondFactorAlreadyEnrolled,
        "SECOND_FACTOR_LIMIT_EXCEEDED": .maximumSecondFactorCountExceeded,
        "UNSUPPORTED_FIRST_FACTOR": .unsupportedFirstFactor,
        "UNVERIFIED_EMAIL": .unverifiedEmail,

        // A blocking Cloud Function rejected the operation. No C++ code (iOS 17105); the message is the
        // function's own text, see `blockingFunctionMessage`.
        "BLOCKING_FUNCTION_ERROR_RESPONSE": .failure,
    ]

    /// Whole messages whose meaning differs from their code's (the C++ map matches these first).
    static let exactMessages: [String: AuthErrorCode] = [
        // The C++ desktop map matches this whole message before its code and reports no such provider
        // (16); every other INVALID_PROVIDER_ID message stays invalid provider id (59).
        "INVALID_PROVIDER_ID : Provider Id is not supported.": .noSuchProvider,
    ]

    /// `errors[].reason` prefixes (legacy envelope) consulted when the message's code is unknown.
    /// iOS checks `hasPrefix("keyInvalid")`.
    static let legacyReasonPrefixes: [(prefix: String, code: AuthErrorCode)] = [
        ("keyInvalid", .invalidApiKey),
        ("ipRefererBlocked", .appNotAuthorized),
    ]

    /// `details[].reason` values (google.rpc.ErrorInfo, domain googleapis.com) that v1 sends instead of
    /// the legacy reasons: "API key not valid" arrives with errors[].reason "badRequest".
    static let errorInfoReasons: [String: AuthErrorCode] = [
        "API_KEY_INVALID": .invalidApiKey,
        "API_KEY_HTTP_REFERRER_BLOCKED": .appNotAuthorized,
        "API_KEY_IP_ADDRESS_BLOCKED": .appNotAuthorized,
        "API_KEY_ANDROID_APP_BLOCKED": .appNotAuthorized,
        "API_KEY_IOS_APP_BLOCKED": .appNotAuthorized,
        "API_KEY_SERVICE_BLOCKED": .appNotAuthorized,
    ]

    /// The code for a server code (the text before the first ':'), or nil when the table lacks it.
    package static func code(forServerCode serverCode: String) -> AuthErrorCode? {
        entries[serverCode]
    }

    /// The error for a server error text (`error.message` of an envelope, or a 200 body's
    /// `errorMessage`).
    ///
    /// - `reasons`: every `error.errors[].reason` and `error.details[].reason` of the envelope.
    /// - `httpStatus`: a 429 whose code is unknown is "too many requests".
    /// - `body`: kept on the error (see `AuthError.body`).
    ///
    /// Message: the detail after ':' for known codes (their default sentence when there is none); the
    /// whole server text for unknown codes and for codes mapped to `failure`, so nothing is lost.
    package static func error(serverMessage: String, reasons: [String] = [], httpStatus: Int = 400,
                             body: JSONValue? = nil) -> AuthError {
        let parsed = ServerErrorMessage(serverMessage)
        let serverCode = parsed.code.isEmpty ? nil : parsed.code

        if let code = exactMessages[parsed.text] {
            return AuthError(code: code, message: parsed.detail, serverCode: serverCode, body: body)
        }
        if let code = entries[parsed.code] {
            let message: String?
            if parsed.code == "BLOCKING_FUNCTION_ERROR_RESPONSE" {
                message = blockingFunctionMessage(parsed.detail) ?? parsed.detail ?? parsed.text
            } else if code == .failure {
                message = parsed.text
            } else {
                message = parsed.detail
            }
            return AuthError(code: code, message: message, serverCode: serverCode, body: body)
        }
        if let code = code(forReasons: reasons) {
            return AuthError(code: code, message: parsed.text, serverCode: serverCode, body: body)
        }
        let fallback: AuthErrorCode = httpStatus == 429 ? .tooManyRequests : .failure
        return AuthError(code: fallback, message: parsed.text, serverCode: serverCode, body: body)
    }

    static func code(forReasons reasons: [String]) -> AuthErrorCode? {
        for reason in reasons {
            if let code = errorInfoReasons[reason] { return code }
            for entry in legacyReasonPrefixes where reason.hasPrefix(entry.prefix) {
                return entry.code
            }
        }
        return nil
    }

    /// A blocking function's detail embeds its JSON answer, e.g.
    /// `HTTP Cloud Function returned an error: {"error":{"message":"Not allowed","status":"..."}}`;
    /// the user-facing text is that `error.message` (as iOS does).
    static func blockingFunctionMessage(_ detail: String?) -> String? {
        guard let detail,
              let open = detail.firstIndex(of: "{"),
              let close = detail.lastIndex(of: "}"),
              open < close else { return nil }
        let json = Array(detail[open...close].utf8)
        guard let value = try? JSONValue.parse(json),
              let message = value["error"]?["message"]?.nonEmptyStringValue else { return nil }
        return message
    }
}
