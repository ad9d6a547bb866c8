import HearthWire

/// Creates out-of-band codes and their action links, and "sends" them by logging the link, which is
/// how the emulator delivers email.
enum OobCodeIssuer {
    @discardableResult
    static func issue(
        _ type: OobRequestType, email: String, newEmail: String? = nil, continueUrl: String? = nil,
        in project: inout ProjectState, environment: EmulatorEnvironment
    ) -> OobCodeRecord {
        let code = RandomID.base64URL(54)
        var link = "\(environment.baseURL())/emulator/action?mode=\(type.linkMode)&lang=en&oobCode=\(code)&apiKey=fake-api-key"
        if let continueUrl { link += "&continueUrl=\(PercentEncoding.encode(continueUrl))" }
        if let tenantId = project.tenantId { link += "&tenantId=\(PercentEncoding.encode(tenantId))" }
        let record = OobCodeRecord(email: email, newEmail: newEmail, oobCode: code, oobLink: link, requestType: type,
                                   issuedAtMilliseconds: environment.clock.milliseconds)
        project.oobCodes.add(record)
        return record
    }

    /// The message a developer reads instead of an email.
    static func log(_ record: OobCodeRecord, to log: EmulatorLog) {
        let link = record.oobLink
        let message = switch record.requestType {
        case .emailSignIn: "To sign in as \(record.email), follow this link: \(link)"
        case .passwordReset:
            "To reset the password for \(record.email), follow this link: \(link)&newPassword=NEW_PASSWORD_HERE"
        case .verifyEmail: "To verify the email address \(record.email), follow this link: \(link)"
        case .verifyAndChangeEmail:
            "To verify and change the email address from \(record.email) to \(record.newEmail ?? ""), follow this link: \(link)"
        case .recoverEmail: "To reset your email address to \(record.email), follow this link: \(link)"
        }
        log.info(message)
    }
}
