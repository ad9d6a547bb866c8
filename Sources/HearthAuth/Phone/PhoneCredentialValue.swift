import HearthBackend

/// What a phone credential holds (the C++ SDK's `PhoneAuthProvider::GetCredential` and the credential a
/// phone conflict hands back). Its printed and dumped forms name the provider only.
package enum PhoneCredentialValue: Sendable, Equatable {
    /// The verification id (`sessionInfo` of sendVerificationCode) and the SMS code the user typed.
    case verificationCode(verificationId: String, code: String)
    /// A proof the server issued for a number it verified but could not attach (link or update onto a
    /// number another account owns), with that number. Signs in to the account that owns the number.
    case temporaryProof(phoneNumber: String, temporaryProof: String)

    package var providerId: String { ProviderID.phone }

    /// The credential of a link or update that failed because another account owns the number: the
    /// credential-already-in-use error whose body is the server's 200 answer with `temporaryProof` and
    /// `phoneNumber` (iOS `FIRAuthErrorUserInfoUpdatedCredentialKey`, JS `credentialFromError`). Nil for
    /// any other error, and for a body without both fields (an error envelope, a local check).
    package init?(updatedCredentialFrom error: AuthError) {
        guard error.code == .credentialAlreadyInUse, case .object(let object)? = error.body,
              object["error"] == nil else { return nil }
        let reader = ResponseReader(object)
        guard let proof = reader.nonEmptyString("temporaryProof"),
              let number = reader.nonEmptyString("phoneNumber") else { return nil }
        self = .temporaryProof(phoneNumber: number, temporaryProof: proof)
    }

    /// Nil when every part is present; otherwise the error the C++ SDK and the server report for the
    /// missing part (missing verification id / code; missing phone number; invalid credential for an empty
    /// proof, as the server answers INVALID_TEMPORARY_PROOF).
    func validate() -> AuthError? {
        switch self {
        case .verificationCode(let verificationId, let code):
            if verificationId.isEmpty { return AuthError(code: .missingVerificationId) }
            if code.isEmpty { return AuthError(code: .missingVerificationCode) }
        case .temporaryProof(let phoneNumber, let temporaryProof):
            if phoneNumber.isEmpty { return AuthError(code: .missingPhoneNumber) }
            if temporaryProof.isEmpty { return AuthError(code: .invalidCredential) }
        }
        return nil
    }

    /// The signInWithPhoneNumber request that uses this credential for `purpose`.
    package func signInWithPhoneNumber(_ purpose: SignInWithPhoneNumber.Purpose = .signIn) -> SignInWithPhoneNumber {
        switch self {
        case .verificationCode(let verificationId, let code):
            return SignInWithPhoneNumber(proof: .code(sessionInfo: verificationId, code: code), purpose: purpose)
        case .temporaryProof(let phoneNumber, let temporaryProof):
            return SignInWithPhoneNumber(proof: .temporaryProof(phoneNumber: phoneNumber,
                                                                temporaryProof: temporaryProof),
                                         purpose: purpose)
        }
    }
}

extension PhoneCredentialValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "PhoneCredentialValue(\(providerId))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
