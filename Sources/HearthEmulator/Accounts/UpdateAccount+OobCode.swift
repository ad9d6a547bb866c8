extension UpdateAccount {
    /// Applies a VERIFY_EMAIL, VERIFY_AND_CHANGE_EMAIL or RECOVER_EMAIL code (the code is used up).
    static func applyOobCode(
        _ code: String, to change: inout AccountChange, in project: inout ProjectState, now: Int64
    ) throws(ApiError) {
        let oob = try required(project.oobCodes.record(for: code), "INVALID_OOB_CODE")
        try project.requireUnexpired(oob, now: now)
        switch oob.requestType {
        case .verifyEmail:
            project.oobCodes.remove(code)
            change.signInProvider = ProviderID.password
            let user = try required(project.user(email: oob.email), "INVALID_OOB_CODE")
            change.user = user
            let email = oob.email
            change.edits.append { $0.emailVerified = true }
            if email != user.email { change.edits.append { $0.email = email } }
        case .verifyAndChangeEmail:
            project.oobCodes.remove(code)
            let user = try required(project.user(email: oob.email), "INVALID_OOB_CODE")
            let newEmail = try required(oob.newEmail, "INVALID_OOB_CODE")
            try require(project.user(email: newEmail) == nil, "EMAIL_EXISTS")
            change.user = user
            if newEmail != user.email {
                change.edits.append { $0.email = newEmail; $0.emailVerified = true }
                change.newEmail = newEmail
            }
        case .recoverEmail:
            project.oobCodes.remove(code)
            let user = try required(project.user(initialEmail: oob.email), "INVALID_OOB_CODE")
            try require(project.user(email: oob.email) == nil, "EMAIL_EXISTS")
            change.user = user
            let email = oob.email
            if email != user.email { change.edits.append { $0.email = email; $0.emailVerified = true } }
        case .passwordReset, .emailSignIn:
            throw .notImplemented(oob.requestType.rawValue)
        }
    }
}
