import HearthBackend

/// Proof that the first factor was passed: for enrolling (the signed-in user) or for finishing a
/// sign-in that needs a second factor (the server's pending credential).
package enum MultiFactorSession: Sendable, Equatable {
    case enrollment(uid: String)
    case signIn(pendingCredential: String)
}

/// A second factor, proven.
package enum MultiFactorAssertion: Sendable, Equatable {
    /// A phone credential whose verification used a multi-factor session.
    case phone(PhoneCredentialValue)
    /// Enrolling TOTP: the secret being enrolled and a code from the authenticator.
    case totpEnrollment(TOTPSecret, code: String)
    /// Signing in with TOTP: the enrollment and a code.
    case totpSignIn(enrollmentId: String, code: String)
}

/// Multi-factor authentication: enrolling SMS or TOTP factors, and finishing sign-ins that need one.
extension Auth {
    /// Result: `.multiFactorSession` for enrolling a factor of the signed-in user `uid`.
    package func multiFactorSession(uid: String) -> FutureState {
        perform(.multiFactorSession) { [self] future in
            guard signedInGeneration(uid: uid) != nil else { return finish(future, .failure(Self.noUser)) }
            finish(future, .success(.multiFactorSession(.enrollment(uid: uid))))
        }
    }

    /// Enrolls a proven factor. Result: the user (with the factor listed).
    package func enroll(uid: String, assertion: MultiFactorAssertion, displayName: String?) -> FutureState {
        let verification: FinalizeMfaEnrollment.Verification
        switch assertion {
        case .phone(.verificationCode(let verificationId, let code)):
            verification = .phone(sessionInfo: verificationId, code: code)
        case .totpEnrollment(let secret, let code):
            verification = .totp(sessionInfo: secret.sessionInfo, verificationCode: code)
        case .phone(.temporaryProof), .totpSignIn:
            return rejected(.multiFactorEnroll, AuthError(code: .invalidArgument,
                                                          message: "This assertion signs in; enrolling needs an enrollment assertion."))
        }
        return perform(.multiFactorEnroll) { [self] future in
            withFreshToken(future, uid: uid) { [self] idToken, generation in
                let rpc = FinalizeMfaEnrollment(idToken: idToken, displayName: displayName, verification: verification)
                send(rpc) { [self] result in
                    if case .success = result, case .phone(let phone) = assertion { spend(phone) }
                    completeLink(future, result, idp: nil, generation: generation,
                                 resultKind: .user)
                }
            }
        }
    }

    /// Removes an enrolled factor. Result: the user.
    package func unenroll(uid: String, enrollmentId: String) -> FutureState {
        if enrollmentId.isEmpty {
            return rejected(.multiFactorUnenroll, AuthError(code: .missingMultiFactorInfo,
                                                            message: "An enrollment id is required."))
        }
        return perform(.multiFactorUnenroll) { [self] future in
            withFreshToken(future, uid: uid) { [self] idToken, generation in
                send(WithdrawMfa(idToken: idToken, mfaEnrollmentId: enrollmentId)) { [self] result in
                    completeLink(future, result, idp: nil, generation: generation,
                                 resultKind: .user)
                }
            }
        }
    }

    /// Starts a TOTP enrollment. Result: `.totpSecret`.
    package func generateTOTPSecret(session: MultiFactorSession) -> FutureState {
        guard case .enrollment(let uid) = session else {
            return rejected(.totpGenerateSecret, AuthError(code: .invalidMultiFactorSession,
                                                           message: "A TOTP secret needs an enrollment session."))
        }
        return perform(.totpGenerateSecret) { [self] future in
            withFreshToken(future, uid: uid) { [self] idToken, _ in
                send(StartMfaEnrollment(idToken: idToken, factor: .totp)) { [self] result in
                    finish(future, result.flatMap { response -> Result<FutureValue, AuthError> in
                        guard case .totp(let session) = response else {
                            return .failure(AuthError.malformedResponse("no totpSessionInfo"))
                        }
                        do throws(AuthError) {
                            return .success(.totpSecret(try TOTPSecret(session: session)))
                        } catch {
                            return .failure(error)
                        }
                    })
                }
            }
        }
    }

    /// Finishes a sign-in that needed a second factor. Result: an auth result.
    package func resolveSignIn(_ pending: MultiFactorPending, assertion: MultiFactorAssertion) -> FutureState {
        let verification: FinalizeMfaSignIn.Verification
        switch assertion {
        case .phone(.verificationCode(let verificationId, let code)):
            verification = .phone(sessionInfo: verificationId, code: code)
        case .totpSignIn(let enrollmentId, let code):
            verification = .totp(mfaEnrollmentId: enrollmentId, verificationCode: code)
        case .phone(.temporaryProof), .totpEnrollment:
            return rejected(.resolveSignIn, AuthError(code: .invalidArgument,
                                                      message: "This assertion enrolls; signing in needs a sign-in assertion."))
        }
        return perform(.resolveSignIn) { [self] future in
            send(FinalizeMfaSignIn(mfaPendingCredential: pending.pendingCredential,
                                   verification: verification)) { [self] result in
                if case .success = result, case .phone(let phone) = assertion { spend(phone) }
                completeSignIn(future, result, kind: .authResult)
            }
        }
    }
}
