import Foundation
import HearthWire

/// Calls a blocking function (`blockingFunctions.triggers` of the project's `Config`), as Firebase's
/// emulator does, and turns its answer into account changes:
/// - a POST of `{"data": {"jwt": …}}` to the function's URL, the JWT unsigned and describing the
///   event and the account (`user_record`);
/// - its answer's `userRecord.updateMask` names what it changes: `displayName`, `photoUrl`,
///   `disabled`, `emailVerified`, `customClaims`, and (before a sign-in) `sessionClaims`, which go
///   into this sign-in's tokens;
/// - a function that cannot be reached, or answers something other than JSON, fails the request
///   with 500 BLOCKING_FUNCTION_ERROR_RESPONSE; one answering an HTTP error, with 400.
///
/// The call (`EmulatorEnvironment.functions`) is made while the request holds its project (as the
/// handler runs), so a function that calls back into the same project of this emulator waits until
/// the call times out (60 s).
struct BlockingFunctionCall {
    typealias Event = BlockingFunctionsConfig.Event

    static let timeoutSeconds: Double = 60

    /// What the sign-in method reports (`sign_in_method`, ...).
    struct Context {
        var signInMethod: String?
        var signInSecondFactor: String?
        var rawUserInfo: String?
        var signInAttributes: String?
    }

    /// The provider's tokens, given to the function when `forwardInboundCredentials` asks.
    struct ProviderTokens {
        var idToken: String?
        var accessToken: String?
        var refreshToken: String?
        var tokenSecret: String?
        var expiresIn: String?
    }

    /// What the function changes.
    struct Outcome {
        var changes: [(inout UserRecord) -> Void] = []
        /// `sessionClaims` (before a sign-in only): claims of this sign-in's tokens.
        var extraClaims: JSONObject?

        func apply(to user: inout UserRecord) {
            for change in changes { change(&user) }
        }
    }

    /// Calls the function for `event`, if the project has one; otherwise changes nothing.
    static func run(
        _ event: Event, for user: UserRecord, context: Context, providerTokens: ProviderTokens = ProviderTokens(),
        in project: borrowing ProjectState, environment: EmulatorEnvironment
    ) throws(ApiError) -> Outcome {
        let functions = project.config.blockingFunctions
        guard let url = functions.functionUris[event] else { return Outcome() }
        let jwt = UnsignedJWT.encode(payload(
            event, url: url, user: user, context: context, providerTokens: providerTokens, functions: functions,
            projectId: project.projectId, tenantId: project.tenantId, now: environment.clock.seconds))
        let body = JSONCoding.encode(JSONValue.object(JSONObject([
            ("data", .object(JSONObject([("jwt", .string(jwt))]))),
        ])))
        switch environment.functions.post(url, body) {
        case .answer(let status, let answer):
            return try outcome(of: Answer(status: status, body: Data(answer)), event: event, url: url)
        case .timedOut:
            throw .internalError("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Deadline exceeded making request to \(url).))")
        case .unreachable:
            throw .internalError("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Failed to make request to \(url).))")
        }
    }

    // MARK: The request

    static func payload(
        _ event: Event, url: String, user: UserRecord, context: Context, providerTokens: ProviderTokens,
        functions: BlockingFunctionsConfig, projectId: String, tenantId: String?, now: Int64
    ) -> JSONObject {
        var record = JSONObject()
        record["uid"] = .string(user.localId)
        record["email"] = user.email.map(JSONValue.string)
        record["email_verified"] = user.emailVerified.map(JSONValue.bool)
        record["display_name"] = user.displayName.map(JSONValue.string)
        record["photo_url"] = user.photoUrl.map(JSONValue.string)
        record["disabled"] = user.disabled.map(JSONValue.bool)
        record["phone_number"] = user.phoneNumber.map(JSONValue.string)
        record["custom_claims"] = .object(CustomClaims.stored(user))
        if let tenantId { record["tenant_id"] = .string(tenantId) }
        record["provider_data"] = .array((user.providerUserInfo ?? []).map { info in
            var provider = JSONObject()
            provider["provider_id"] = .string(info.providerId)
            provider["display_name"] = info.displayName.map(JSONValue.string)
            provider["photo_url"] = info.photoUrl.map(JSONValue.string)
            provider["email"] = info.email.map(JSONValue.string)
            provider["uid"] = .string(info.rawId)
            provider["phone_number"] = info.phoneNumber.map(JSONValue.string)
            return .object(provider)
        })
        if let factors = user.mfaInfo {
            record["multi_factor"] = .object(JSONObject([("enrolled_factors", .array(factors.map { factor in
                var enrolled = JSONObject()
                enrolled["uid"] = .string(factor.mfaEnrollmentId)
                enrolled["display_name"] = factor.displayName.map(JSONValue.string)
                enrolled["enrollment_time"] = factor.enrolledAt.map(JSONValue.string)
                enrolled["phone_number"] = factor.phoneInfo.map(JSONValue.string)
                enrolled["factor_id"] = .string(factor.factorId)
                return .object(enrolled)
            }))]))
        }
        if user.lastLoginAt != nil || user.createdAt != nil {
            var metadata = JSONObject()
            metadata["last_sign_in_time"] = user.lastLoginAt.flatMap(Double.init).map(JSONValue.number)
            metadata["creation_time"] = user.createdAt.flatMap(Double.init).map(JSONValue.number)
            record["metadata"] = .object(metadata)
        }

        var claims = JSONObject()
        claims["iss"] = .string("https://securetoken.google.com/\(projectId)")
        claims["aud"] = .string(url)
        claims["iat"] = .number(Double(now))
        claims["exp"] = .number(Double(now + Int64(timeoutSeconds * 10)))
        claims["event_id"] = .string(RandomID.base64URL(16))
        claims["event_type"] = .string(event.rawValue)
        claims["user_agent"] = .string("NotYetSupportedInHearthEmulator")
        claims["ip_address"] = .string("127.0.0.1")
        claims["locale"] = .string("en")
        claims["user_record"] = .object(record)
        claims["sub"] = .string(user.localId)
        claims["sign_in_method"] = context.signInMethod.map(JSONValue.string)
        claims["sign_in_second_factor"] = context.signInSecondFactor.map(JSONValue.string)
        claims["sign_in_attributes"] = context.signInAttributes.map(JSONValue.string)
        claims["raw_user_info"] = context.rawUserInfo.map(JSONValue.string)
        if let tenantId { claims["tenant_id"] = .string(tenantId) }
        if functions.forwardAccessToken {
            claims["oauth_access_token"] = providerTokens.accessToken.map(JSONValue.string)
            claims["oauth_token_secret"] = providerTokens.tokenSecret.map(JSONValue.string)
            claims["oauth_expires_in"] = providerTokens.expiresIn.map(JSONValue.string)
        }
        if functions.forwardIdToken { claims["oauth_id_token"] = providerTokens.idToken.map(JSONValue.string) }
        if functions.forwardRefreshToken {
            claims["oauth_refresh_token"] = providerTokens.refreshToken.map(JSONValue.string)
        }
        return claims
    }

    private struct Answer: Sendable {
        var status: Int
        var body: Data
    }

    // MARK: The answer

    private static func outcome(of answer: Answer, event: Event, url: String) throws(ApiError) -> Outcome {
        let text = String(decoding: answer.body, as: UTF8.self)
        try require((200..<300).contains(answer.status),
                    "BLOCKING_FUNCTION_ERROR_RESPONSE : ((HTTP request to \(url) returned HTTP error \(answer.status): \(text)))")
        guard let parsed = try? JSONValue.parse(Array(answer.body)) else {
            throw .internalError("BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response body is not valid JSON.))")
        }
        var outcome = Outcome()
        guard let record = parsed.objectValue?["userRecord"]?.objectValue else { return outcome }
        let mask = try requiredText(
            record["updateMask"]?.stringValue,
            "BLOCKING_FUNCTION_ERROR_RESPONSE : ((Response UserRecord is missing updateMask.))")
        for field in mask.split(separator: ",", omittingEmptySubsequences: false) {
            switch field {
            case "displayName":
                let value = primitiveText(record["displayName"])
                outcome.changes.append { $0.displayName = value }
            case "photoUrl":
                let value = primitiveText(record["photoUrl"])
                outcome.changes.append { $0.photoUrl = value }
            case "disabled":
                let value = isTruthy(record["disabled"])
                outcome.changes.append { $0.disabled = value }
            case "emailVerified":
                let value = isTruthy(record["emailVerified"])
                outcome.changes.append { $0.emailVerified = value }
            case "customClaims":
                let serialized = (record["customClaims"] ?? .null).jsonText
                _ = try CustomClaims.validateSerialized(serialized)
                outcome.changes.append { $0.customAttributes = serialized }
            case "sessionClaims" where event == .beforeSignIn:
                outcome.extraClaims = record["sessionClaims"]?.objectValue
            default:
                continue
            }
        }
        return outcome
    }

    /// A string, number or Boolean as its text (JavaScript's `toString`); anything else is no value.
    private static func primitiveText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        case .number(let n): JSONValue.number(n).integerValue.map(String.init) ?? String(n)
        default: nil
        }
    }

    /// JavaScript's `!!value`.
    private static func isTruthy(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: false
        case .bool(let b)?: b
        case .number(let n)?: n != 0 && !n.isNaN
        case .string(let s)?: !s.isEmpty
        case .array?, .object?: true
        }
    }
}
