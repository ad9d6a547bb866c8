import HearthTransport
import HearthWire

/// `accounts:signInWithPhoneNumber` (iOS: verifyPhoneNumber): signs in, links, updates the phone number
/// of, or reauthenticates a user with a verified phone number (client-wire-reference §1.8).
///
/// Sends `operation` the way the iOS SDK does (SIGN_UP_OR_IN, LINK, UPDATE, REAUTH); the v1 API takes the
/// same enum. It matters for reauthentication, which must not create an account, and tells the server
/// that an update replaces the user's number rather than adding a provider.
///
/// When the verified number already belongs to another account during link or update, the server answers
/// 200 with only `temporaryProof` and `phoneNumber`. That becomes credential already in use with the body
/// in `AuthError.body`, from which `PhoneCredentialValue(updatedCredentialFrom:)` builds the credential
/// that signs in to the other account. The check applies to every purpose, as in iOS: no answer with a
/// temporary proof and no tokens can be used as a success.
package struct SignInWithPhoneNumber: TenantScopedRPC {
    /// What proves the phone number.
    package enum Proof: Sendable, Equatable {
        /// The verification id (sendVerificationCode's `sessionInfo`) and the SMS code.
        case code(sessionInfo: String, code: String)
        /// A proof from an earlier answer (the credential-already-in-use conflict) and its number.
        case temporaryProof(phoneNumber: String, temporaryProof: String)
    }

    package enum Purpose: Sendable, Equatable {
        /// Sign in, creating the account when the number is new.
        case signIn
        /// Add the phone provider to the user whose ID token this is.
        case link(idToken: String)
        /// Replace the phone number of the user whose ID token this is.
        case updatePhoneNumber(idToken: String)
        /// Prove again that the current user owns the number. Sends no ID token (both SDKs); the caller
        /// compares the answer's uid with the current user's.
        case reauthenticate

        /// The `operation` enum value sent for this purpose.
        package var operation: String {
            switch self {
            case .signIn: return "SIGN_UP_OR_IN"
            case .link: return "LINK"
            case .updatePhoneNumber: return "UPDATE"
            case .reauthenticate: return "REAUTH"
            }
        }
    }

    package var proof: Proof
    package var purpose: Purpose
    /// Sent for every purpose (the JS SDK's sign-in, link and reauthentication calls all add it).
    package var tenantId: String?

    package init(proof: Proof, purpose: Purpose = .signIn, tenantId: String? = nil) {
        self.proof = proof
        self.purpose = purpose
        self.tenantId = tenantId
    }

    package var endpoint: Endpoint { .identityToolkitV1("accounts:signInWithPhoneNumber") }

    package var successShapedErrors: SuccessShapedErrors { SuccessShapedErrors.signIn.union(.phoneTemporaryProof) }

    package func encodeBody() -> [UInt8] {
        var body: JSONObject = ["operation": .string(purpose.operation)]
        switch proof {
        case .code(let sessionInfo, let code):
            body["sessionInfo"] = .string(sessionInfo)
            body["code"] = .string(code)
        case .temporaryProof(let phoneNumber, let temporaryProof):
            body["phoneNumber"] = .string(phoneNumber)
            body["temporaryProof"] = .string(temporaryProof)
        }
        switch purpose {
        case .link(let idToken), .updatePhoneNumber(let idToken):
            body["idToken"] = .string(idToken)
        case .signIn, .reauthenticate:
            break
        }
        body.setIfPresent("tenantId", tenantId)
        return JSONValue.object(body).serialized()
    }

    package func decode(_ object: JSONObject) throws(AuthError) -> Response {
        try Response(decoding: object)
    }

    package struct Response: Sendable, Equatable, Redacted {
        /// Tokens, `localId` and `isNewUser`.
        package var tokens: TokenResponse
        /// The verified number, E.164 (the server always sends it).
        package var phoneNumber: String?

        package init(tokens: TokenResponse, phoneNumber: String?) {
            self.tokens = tokens
            self.phoneNumber = phoneNumber
        }

        package init(decoding object: JSONObject) throws(AuthError) {
            tokens = try TokenResponse(decoding: object)
            phoneNumber = ResponseReader(object).nonEmptyString("phoneNumber")
        }

        package var redactedSummary: String { "localId: \(tokens.localId ?? "nil"), isNewUser: \(tokens.isNewUser)" }
    }
}
